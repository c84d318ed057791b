"""`dealsim bench`: every game on one core and on all cores, every strategy of a named game, the yardstick's
absence said plainly. Tiny runs: these check the structure, not the speed."""

from __future__ import annotations

import json
import math

import pytest

from simulator import app, registry
from simulator.bench import CHUNKS_PER_CORE, measure
from simulator.runner import resolve_jobs
from tests.cli_helpers import run_cli


@pytest.mark.slow  # every Zoo strategy plus its scaling run: about 6 s
def test_bench_measures_every_strategy(tmp_path) -> None:
    b = app.bench("franks-zoo", n=20, yardstick=tmp_path / "missing.py")  # the yardstick: test_yardsticks.py
    assert set(b.rates) == set(b.game.strategies) and b.yardstick is None
    for rate, hands in b.rates.values():
        assert rate > 0 and hands > rate  # whole games of several hands each


@pytest.fixture(scope="module")
def every_game() -> app.Bench:
    return app.bench(n=4)  # Frank's Zoo dominates: each of its chunks costs about the same whatever its size


def test_bench_measures_every_game_on_one_and_all_cores(every_game: app.Bench) -> None:
    b = every_game
    assert b.cores == resolve_jobs(0) and b.game is None and not b.rates
    assert [s.game for s in b.scaling] == list(registry.GAMES)
    for s in b.scaling:
        g = registry.get(s.game)
        assert s.strategy == g.default_strategy and s.unit == g.plural(g.default_unit) and s.deals == 4
        assert -(-s.deals // s.chunk_size) >= min(s.deals, CHUNKS_PER_CORE * s.cores)  # several chunks a worker
        rates = s.rates(s.deals)
        assert all(r > 0 for r in rates.values())
        assert rates["per_core_on_all_cores"] == pytest.approx(rates["all_cores"] / b.cores)
        assert s.speedup > 0 and math.isfinite(s.speedup)
        assert s.speedup == pytest.approx(rates["all_cores"] / rates["one_core"])
        # hands only where a deal holds several: Frank's Zoo's whole games
        assert (s.hands is not None) == (g.default_unit == "match")
        assert s.hands is None or s.hands > s.deals


def test_bench_json_is_strict_and_complete(every_game: app.Bench) -> None:
    def refuse(constant: str):
        raise ValueError(f"not JSON: {constant}")

    d = json.loads(json.dumps(every_game.as_dict(), allow_nan=False), parse_constant=refuse)
    assert d["cores"] == every_game.cores and "strategies" not in d
    fz = next(g for g in d["games"] if g["game"] == "franks-zoo")
    assert set(fz["hands_per_second"]) == {"one_core", "all_cores", "per_core_on_all_cores"}
    assert fz["speedup"] > 0 and fz["chunks"] >= 2


def test_measure_counts_hands_of_whole_games() -> None:
    rate, hands = measure(registry.get("franks-zoo"), "greedy", 20)
    assert rate > 0 and hands > rate  # whole games of several hands each


def test_bench_of_one_game_measures_every_strategy_and_says_when_the_yardstick_cannot_run(tmp_path) -> None:
    code, out, err = run_cli("bench", "forty-two", "-n", "1000", "--yardstick", tmp_path / "missing.py")
    assert code == 0 and not err
    assert "forty-two     random:" in out and "forty-two  heuristic:" in out
    assert "yardstick42.py: not run" in out
    assert "forty-two heuristic" in out and "speed-up on" in out and "rounds" not in out

    code, out, err = run_cli("bench", "forty-two", "-n", "1000", "--yardstick", tmp_path / "missing.py",
                             "--format", "json")
    assert code == 0 and not err
    d = json.loads(out)
    assert [g["game"] for g in d["games"]] == ["forty-two"] and d["games"][0]["speedup"] > 0
    assert set(d["strategies"]["rates"]) == set(registry.get("forty-two").strategies)
    assert d["strategies"]["yardstick_deals_per_second"] is None
