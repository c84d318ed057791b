"""The compiled yardsticks of benchmarks/ (Forty-two, Rounds, Frank's Zoo): each runs in a subprocess, prints
its rate and passes its own --check; their tables are dealsim's; `bench.run_yardstick` finds them by bare
name. The -m slow test compares what they play with dealsim's random play, statistic by statistic."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simulator import bench, registry
from simulator.runner import Run, run_chunk

pytest.importorskip("numba", reason="the yardsticks are compiled with numba")

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _run(script: str, *args: str) -> dict[str, str]:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return dict(re.findall(r"(\w+)=(\S+)", done.stdout))


def _load(script: str):
    spec = importlib.util.spec_from_file_location(script.removesuffix(".py"), BENCHMARKS / script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Compiling a yardstick takes 3-10 s on a clean checkout: benchmark tooling, so behind the slow marker.
@pytest.mark.slow
@pytest.mark.parametrize(
    "script, args",
    [
        ("yardstick42.py", ()),
        ("yardstick42.py", ("--unit", "game")),
        ("yardstick_rounds.py", ()),
        ("yardstick_zoo.py", ()),
        ("yardstick_zoo.py", ("--unit", "hand")),
    ],
)
def test_yardstick_checks_and_reports_its_rate(script, args) -> None:
    out = _run(script, "500", "--check", *args)
    assert out["check"] == "ok"
    assert float(out["deals_per_s"].replace(",", "")) > 0 and out["deals"] == "500"
    if script == "yardstick_zoo.py":
        assert out["unit"] == ("hand" if args else "game") and float(out["hands_per_s"].replace(",", "")) > 0
    if script == "yardstick42.py":
        assert out["unit"] == ("game" if args else "hand") and float(out["hands_per_s"].replace(",", "")) > 0


def test_games_name_their_yardsticks_and_bench_finds_them(monkeypatch) -> None:
    """A bare name is found in benchmarks/ and its rate read from its output; running
    the scripts themselves (a numba compile each on a clean checkout) is the slow test above."""
    import subprocess
    from pathlib import Path

    assert registry.get("forty-two").yardstick == "yardstick42.py"
    assert registry.get("rounds").yardstick == "yardstick_rounds.py"
    assert registry.get("franks-zoo").yardstick == "yardstick_zoo.py"
    ran = []

    def fake_run(argv, **kwargs):
        ran.append(argv)
        return subprocess.CompletedProcess(argv, 0, stdout="deals=2000 deals_per_s=123,456\n", stderr="")

    monkeypatch.setattr(subprocess, "run", fake_run)
    assert bench.run_yardstick("yardstick_rounds.py", 2000) == 123456.0
    script = Path(ran[0][1])
    assert script.parent.name == "benchmarks" and script.name == "yardstick_rounds.py" and script.exists()
    assert ran[0][2] == "2000"
    assert bench.run_yardstick("no_such_yardstick.py", 2000) is None and len(ran) == 1


def test_zoo_yardstick_tables_are_dealsims() -> None:
    from simulator.franks_zoo import cards as C
    from simulator.franks_zoo import core

    y = _load("yardstick_zoo.py")
    assert (y.SETS == C.SETS).all() and (y.PARTIALS == C.PARTIALS).all() and (y.DECK == C.DECK).all()
    assert (
        (y.BEATS == C.BEATS).all()
        and (y.COMPLETES == C.COMPLETES).all()
        and (y.ASKABLE == core.ASKABLE).all()
    )
    rules = registry.get("franks-zoo").rules()
    assert (
        rules.players,
        rules.target,
        rules.end_players,
        rules.exchange_cards,
        rules.solo_bonus,
        rules.lion_min,
    ) == (y.PLAYERS, y.TARGET, y.END_PLAYERS, y.EXCHANGE_CARDS, y.SOLO_BONUS, y.LION_MIN)
    assert rules.help and rules.hedgehog_penalty == "captured"


def test_rounds_yardstick_points_are_dealsims() -> None:
    from simulator.rounds import core

    y = _load("yardstick_rounds.py")
    rules = registry.get("rounds").rules()
    assert (core.card_points(rules) == y.POINTS).all() and rules.sweep_bonus == y.SWEEP_BONUS
    assert not rules.rank_trumps and rules.dealer_rotation == "stage"


def test_fortytwo_yardstick_tables_are_dealsims() -> None:
    from simulator.fortytwo import dominoes as D
    from simulator.fortytwo import reference
    from simulator.fortytwo.game import Games
    from simulator.fortytwo.view import MAX_CALLS

    y = _load("yardstick42.py")
    assert np.array_equal(y.HIGH, D.HIGH) and np.array_equal(y.LOW, D.LOW)
    assert np.array_equal(y.COUNT, D.COUNT_POINTS["seed"])
    # the pip-trump contexts 0..6 of dealsim's tables: keys, the suit each domino leads, who follows
    follows = (D.FOLLOW[:7, :, None] >> np.arange(D.N_DOMINOES, dtype=np.uint32)) & 1 == 1
    assert np.array_equal(y.KEY, D.KEY[:7]) and np.array_equal(y.LEAD_SUIT, D.LEAD_SUIT[:7])
    assert np.array_equal(y.FOLLOWS, follows)
    rules = registry.get("forty-two").rules()
    assert (rules.min_bid, rules.target, y.MAX_CALLS) == (y.MIN_BID, y.TARGET, MAX_CALLS)
    assert (Games.max_idle_in_a_row, reference.MAX_HANDS) == (y.MAX_IDLE, y.MAX_HANDS)
    assert (rules.count_values, rules.auction, rules.jump_bids, rules.all_pass, rules.declarations) == (
        "seed",
        "seed",
        False,
        "redeal",
        "pips",
    )
    assert rules.scoring == "points" and not (rules.nello or rules.plunge or rules.splash or rules.sevens)


def _dealsim(name: str, n: int, unit: str) -> dict[str, pd.DataFrame]:
    g = registry.get(name)
    rules = g.rules()
    run = Run(
        game=g,
        n=n,
        seed=11,
        rules=rules,
        seats=("random",) * len(g.seat_names(rules)),
        unit=unit,
        chunk_size=g.default_chunk[unit],
    )
    outs = [run_chunk(run, k) for k in range(run.n_chunks)]
    return {key: pd.concat([o[key] for o in outs]) for key in outs[0]}


@pytest.mark.slow
def test_yardsticks_play_like_dealsims_random_play() -> None:
    """Same rules, same random play: the statistics agree within a few standard errors."""
    y = _run("yardstick42.py", "200000")
    d = _dealsim("forty-two", 100_000, "deal")["deals"]
    p = d[~d.thrown_in]
    declarer_points = np.where(p.declarer.cat.codes % 2 == 0, p.points_ns, p.points_ew)
    assert abs(float(y["calls_per_hand"]) - d.calls.mean()) < 0.04
    assert abs(float(y["mean_bid"]) - p.bid.astype(float).mean()) < 1.0
    assert abs(float(y["big_bids"]) - (p.bid >= 84).mean()) < 0.01
    assert abs(float(y["made"]) - p.made.astype(float).mean()) < 0.005
    assert abs(float(y["mean_points_ns"]) - p.points_ns.mean()) < 0.25
    assert abs(float(y["mean_declarer_points"]) - declarer_points.mean()) < 0.25
    assert abs(float(y["mean_score_ns"]) - d.score_points_ns.mean()) < 1.2
    assert abs(float(y["mean_score_ew"]) - d.score_points_ew.mean()) < 1.2
    y = _run("yardstick42.py", "20000", "--unit", "game")
    m = _dealsim("forty-two", 5_000, "match")["matches"]
    assert abs(float(y["hands_per_deal"]) - m.deals.mean()) < 0.15
    assert abs(float(y["wins_ns_ew"].split(",")[0]) - (m.winner == "NS").mean()) < 0.04

    y = _run("yardstick_rounds.py", "100000")
    d = _dealsim("rounds", 20_000, "deal")["deals"]
    sweeps = sum((d[f"s{k}_sweep"] >= 0).sum() for k in range(1, 6)) / len(d)
    assert abs(float(y["mean_points_0"]) - d.points_0.mean()) < 0.4
    assert abs(float(y["mean_points_1"]) - d.points_1.mean()) < 0.4
    assert abs(float(y["sweeps_per_game"]) - sweeps) < 0.03

    y = _run("yardstick_zoo.py", "50000")
    t = _dealsim("franks-zoo", 5_000, "match")
    d, m = t["deals"], t["matches"]
    hands = len(d) / 5
    assert abs(float(y["hands_per_deal"]) - m.deals.mean()) < 0.03
    assert abs(float(y["asks_per_hand"]) - d.help_asked.sum() / hands) < 0.2
    assert abs(float(y["helped_per_hand"]) - d.help_given.sum() / hands) < 0.05
    assert abs(float(y["first_leader_place"]) - d[d.led_first].place.mean()) < 0.05
    by_place = d.groupby("place").points.mean().to_numpy()
    assert np.abs(np.array(y["points_by_place"].split(","), float) - by_place).max() < 0.15
