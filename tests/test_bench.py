"""`dealsim bench`: every game on one core and on all cores, every strategy of a named game, the yardstick's
absence said plainly. Tiny runs: these check the structure, not the speed."""

from __future__ import annotations

import json
import math

import pytest

from simulator import app, bench, registry
from simulator.bench import CHUNKS_PER_CORE, measure
from simulator.runner import resolve_jobs
from tests.cli_helpers import run_cli


@pytest.mark.slow  # every Zoo strategy plus its scaling run: about 6 s
def test_bench_measures_every_strategy(tmp_path) -> None:
    b = app.bench("franks-zoo", n=20, yardstick=tmp_path / "missing.py")  # the yardstick: test_yardsticks.py
    [sp] = b.speeds
    assert set(sp.rates) == set(registry.roster("franks-zoo").known) and sp.yardstick_rate is None
    for spec in sp.rates:
        assert sp.rate(spec) > 0 and sp.hand_rate(spec) > sp.rate(spec)  # whole games of several hands each


@pytest.fixture(scope="module")
def every_game() -> app.Bench:
    return app.bench(n=4)  # Frank's Zoo dominates: each of its chunks costs about the same whatever its size


def test_bench_measures_every_game_on_one_and_all_cores(every_game: app.Bench) -> None:
    b = every_game
    assert b.cores == resolve_jobs(0) and not b.speeds
    assert [s.game for s in b.scaling] == list(registry.GAMES)
    for s in b.scaling:
        g = registry.get(s.game)
        assert s.strategy == g.default_strategy and s.unit == g.plural(g.default_unit) and s.deals == 4
        assert -(-s.deals // s.chunk_size) >= min(
            s.deals, CHUNKS_PER_CORE * s.cores
        )  # several chunks a worker
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


@pytest.mark.xdist_group("fortytwo-solver")  # the expert is timed too: on the worker that compiled its solver
def test_bench_of_one_game_measures_every_strategy_and_says_when_the_yardstick_cannot_run(
    tmp_path, monkeypatch
) -> None:
    from strategies.fortytwo_expert import Expert

    monkeypatch.setattr(
        Expert, "bench_deals", 4
    )  # a searching strategy is timed on its few deals: fewer here
    monkeypatch.setattr(bench, "first_run_extra", lambda g, spec: 0.25)  # a fresh process: test below
    code, out, err = run_cli(
        "bench", "forty-two", "-n", "1000", "--no-scaling", "--yardstick", tmp_path / "missing.py"
    )
    assert code == 0 and not err
    assert "│ random " in out and "│ heuristic " in out and "│ expert " in out and "of yardstick" in out
    assert "missing.py: not run" in out
    assert "first run of 10 hands takes 0.25 s more than its second" in out
    assert "speed-up on" not in out and "rounds" not in out  # the scaling runs: the every-game fixture above

    code, out, err = run_cli(
        "bench",
        "forty-two",
        "-n",
        "1000",
        "--no-scaling",
        "--yardstick",
        tmp_path / "missing.py",
        "--format",
        "json",
    )
    assert code == 0 and not err
    d = json.loads(out)
    assert d["games"] == []  # no scaling runs asked for
    [sp] = d["strategies"]
    assert set(sp["rates"]) == set(registry.roster("forty-two").known)
    assert sp["yardstick_deals_per_second"] is None and sp["rates"]["random"]["of_yardstick"] is None
    assert sp["rates"]["random"]["of_random"] == 1 and sp["load_seconds"] == 0.25


def test_the_first_run_of_a_fresh_process_is_timed_against_its_second() -> None:
    extra = bench.first_run_extra(registry.get("rounds"), "random")  # a fresh interpreter: about 2 s
    assert extra is not None and -1 < extra < 60


def _fake_measure(game, spec, deals, seed=12345):
    # any other strategy (the searching experts): slow
    return {"random": 1000.0, "greedy": 800.0, "heuristic": 500.0}.get(spec, 20.0) * (1 + deals / 1e9), None


def test_speeds_take_turns_and_keep_the_median(monkeypatch) -> None:
    """Every strategy and the yardstick `repeat` times in turn; the median counts, the ratios follow."""
    calls: list[str] = []
    ys = iter([300.0, 100.0, 200.0])
    monkeypatch.setattr(
        bench,
        "measure",
        lambda g, spec, deals, seed=0: (calls.append(spec), _fake_measure(g, spec, deals))[1],
    )
    monkeypatch.setattr(bench, "run_yardstick", lambda path, deals: (calls.append("yardstick"), next(ys))[1])
    monkeypatch.setattr(bench, "first_run_extra", lambda g, spec: None)
    sp = bench.speeds(registry.get("rounds"), 1000, repeat=3)
    assert calls == ["random", "greedy", "heuristic", "expert", "yardstick"] * 3
    assert sp.yardstick_rates == [300.0, 100.0, 200.0] and sp.yardstick_rate == 200.0
    assert sp.of_yardstick("random") == pytest.approx(sp.rate("random") / 200.0)
    assert sp.of_random("heuristic") == pytest.approx(0.5)


def test_a_searching_strategy_is_timed_on_fewer_deals(monkeypatch) -> None:
    from strategies.base import Strategy

    sizes: dict[str, int] = {}
    monkeypatch.setattr(
        bench, "measure", lambda g, spec, deals, seed=0: (sizes.__setitem__(spec, deals), (1.0, None))[1]
    )
    monkeypatch.setattr(bench, "run_yardstick", lambda path, deals: None)
    monkeypatch.setattr(bench, "first_run_extra", lambda g, spec: None)
    g = registry.get("rounds")
    monkeypatch.setattr(registry.roster(g).known["greedy"], "bench_deals", 50, raising=False)
    assert Strategy.bench_deals is None
    bench.speeds(g, 1000)
    assert sizes == {"random": 1000, "greedy": 50, "heuristic": 1000, "expert": 40}  # the expert: its own


def test_benchmark_script_writes_json_and_the_ratio_table(monkeypatch, tmp_path, capsys) -> None:
    import importlib.util
    from pathlib import Path

    monkeypatch.setattr(bench, "measure", _fake_measure)
    monkeypatch.setattr(bench, "run_yardstick", lambda path, deals: 2000.0)
    monkeypatch.setattr(bench, "first_run_extra", lambda g, spec: None)
    spec = importlib.util.spec_from_file_location(
        "bench_run", Path(__file__).parents[1] / "benchmarks" / "run.py"
    )
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    assert run.main(["--no-scaling", "--repeat", "1", "-o", str(tmp_path / "a.json")]) == 0
    d = json.loads((tmp_path / "a.json").read_text())
    assert [g["game"] for g in d["strategies"]] == list(registry.GAMES)
    out = capsys.readouterr().out
    assert "| forty-two | random | 1,000 hands/s | 0.50 | 1.00 | ≥ 0.7 of yardstick: not met |" in out
    assert "| rounds | heuristic | 500 games/s | 0.25 | 0.50 | ≥ 0.5 of random: met |" in out
    assert "| forty-two | heuristic | 500 hands/s | 0.25 | 0.50 | ≥ 0.5 of random: met |" in out
    assert (
        run.main(
            [
                "--no-scaling",
                "--repeat",
                "1",
                "-o",
                str(tmp_path / "b.json"),
                "--compare",
                str(tmp_path / "a.json"),
            ]
        )
        == 0
    )
    assert "| forty-two | heuristic | 500 | 500 | +0% | 0.25 -> 0.25 |" in capsys.readouterr().out


def test_bench_refuses_a_game_with_all() -> None:
    code, _, err = run_cli("bench", "rounds", "--all")
    assert code == 2 and "not both" in err


def test_scaling_runs_last_the_seconds_asked_for(monkeypatch) -> None:
    """--scaling-seconds S: each game's 1-core run is sized from its default strategy's measured rate to last
    at least S seconds (a run of a minute is what the speed-up is read on)."""
    sized: dict[str, int] = {}
    monkeypatch.setattr(bench, "measure", lambda g, spec, deals, seed=0: (50_000.0, None))
    monkeypatch.setattr(bench, "run_yardstick", lambda path, deals: None)
    monkeypatch.setattr(bench, "first_run_extra", lambda g, spec: None)
    monkeypatch.setattr(bench, "scaling", lambda g, deals, cores: sized.__setitem__(g.name, deals))
    app.bench(every=True, scaling_seconds=60)
    assert sized == {name: 3_000_000 for name in registry.GAMES}  # 50,000 a second for 60 s
    app.bench(scaling_seconds=None, n=1000)
    assert set(sized.values()) == {1000}


def test_bench_prints_the_speed_up_of_each_game(monkeypatch) -> None:
    def fake(g, deals, cores):
        return bench.Scaling(
            g.name,
            g.default_strategy,
            g.plural(g.default_unit),
            deals,
            4 * deals if g.default_unit == "match" else None,
            1000,
            cores,
            2.0,
            1.0,
        )

    monkeypatch.setattr(bench, "scaling", fake)
    code, out, err = run_cli("bench", "-n", "1000")
    assert code == 0 and not err
    assert "speed-up on" in out and out.count("2.00x") == len(registry.GAMES)
    assert "hands (" in out  # Frank's Zoo's whole games: hands first, games in brackets
