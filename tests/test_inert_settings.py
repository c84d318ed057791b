"""Settings that nothing in the run reads are refused before any work, with one line naming what would make
them count; comparisons whose arms play alike by construction are refused too."""

from __future__ import annotations

import pytest

from simulator import app, registry
from simulator.errors import DealsimError
from simulator.options import fields_of
from simulator.specs import RunSpec
from tests.cli_helpers import run_cli


def test_a_mode_parameter_is_refused_outside_its_mode() -> None:
    roster = registry.roster("forty-two")
    with pytest.raises(
        DealsimError, match=r"threshold is read only with bidder=threshold \(here bidder=ladder\)"
    ):
        roster.make("heuristic:threshold=34")
    assert roster.make("heuristic:bidder=threshold,threshold=34").threshold == 34
    with pytest.raises(DealsimError, match="margin is read only with bidder=ladder"):
        roster.make("heuristic:bidder=threshold,margin=2")
    with pytest.raises(DealsimError, match="bid_samples is read only with bidding=sampled or naming=sampled"):
        roster.make("expert:bid_samples=3")
    assert roster.make("expert:naming=sampled,bid_samples=3").bid_samples == 3
    with pytest.raises(DealsimError, match="duck_margin is read only with duck=true"):
        registry.roster("rounds").make("heuristic:duck=false,duck_margin=1")


def test_a_rule_switched_off_by_another_rule_is_refused() -> None:
    with pytest.raises(
        DealsimError, match=r"rule target is read only with scoring=points \(here scoring=marks\)"
    ):
        RunSpec("forty-two", preset="texas", rules=["target=150"]).build(n=10, unit="match")
    with pytest.raises(DealsimError, match="rule nello_doubles is read only with nello=true"):
        RunSpec("forty-two", rules=["nello_doubles=low"]).build(n=10)
    with pytest.raises(
        DealsimError, match="rule doubles_low is read only with declarations including no-trump"
    ):
        RunSpec("forty-two", rules=["doubles_low=true"]).build(n=10)
    RunSpec("forty-two", preset="texas", rules=["doubles_low=true", "target_marks=5"]).build(
        n=10, unit="match"
    )


def test_a_strategy_parameter_the_rules_never_call_on_is_refused() -> None:
    plunge = RunSpec("forty-two", seats={"all": "heuristic:plunge_doubles=5"})
    with pytest.raises(DealsimError, match=r"plunge_doubles is read only under rules with plunge=true"):
        plunge.build(n=10)
    RunSpec("forty-two", preset="texas-house", seats={"all": "heuristic:plunge_doubles=5"}).build(n=10)
    with pytest.raises(DealsimError, match="ask is read only under rules with help=true"):
        RunSpec("franks-zoo", rules=["help=false"], seats={"0": "heuristic:ask=false"}).build(n=10)


def test_what_acts_only_in_whole_matches_is_refused_in_a_run_of_single_deals() -> None:
    with pytest.raises(DealsimError, match=r"rule target acts only in whole games \(unit game\)"):
        RunSpec("forty-two", rules=["target=150"]).build(n=10, unit="deal")
    RunSpec("forty-two", rules=["target=150"]).build(n=10, unit="match")
    with pytest.raises(DealsimError, match="rule hedgehog_penalty acts only in whole games"):
        RunSpec("franks-zoo", rules=["hedgehog_penalty=missing"]).build(n=10, unit="deal")
    with pytest.raises(DealsimError, match="heuristic parameter ask acts only in whole games"):
        RunSpec("franks-zoo", seats={"0": "heuristic:ask=false"}).build(n=10, unit="deal")
    with pytest.raises(DealsimError, match="rule target acts only in whole matches"):
        RunSpec("rounds", rules=["target=100"]).build(n=10, unit="deal")


def test_every_condition_names_fields_that_exist() -> None:
    for name in registry.GAMES:
        game = registry.get(name)
        classes = [game.rules_cls, *registry.roster(game).known.values()]
        rule_fields = set(fields_of(game.rules_cls))
        for cls in classes:
            own = set(fields_of(cls))
            for field, _ in fields_of(cls).values():
                if (need := field.metadata.get("read_if")) is not None:
                    assert set(need.fields) <= own, (name, cls, field.name)
                if (need := field.metadata.get("rules_need")) is not None:
                    assert set(need.fields) <= rule_fields, (name, cls, field.name)
                    assert need.holds(game.rules_cls(**dict.fromkeys(need.fields, True))) in (True, False)


def test_arms_that_play_alike_are_refused() -> None:
    spec = RunSpec("forty-two", n=50, seats={"NS": "heuristic:margin=1"})
    with pytest.raises(DealsimError, match="arm B plays exactly as arm A"):
        app.compare(spec, vs={"NS": "heuristic:margin=1.0"})
    with pytest.raises(DealsimError, match="arm B plays exactly as arm A"):
        app.compare(RunSpec("forty-two", n=50), vs={"NS": "heuristic"})
    with pytest.raises(DealsimError, match="margin=1 and seat.NS.margin=1.0 play exactly alike"):
        app.tune(RunSpec("forty-two", n=5), vary=["seat.NS.margin=1,1.0"])


def test_the_command_line_refuses_them_in_one_line() -> None:
    code, out, err = run_cli(
        "compare", "forty-two", "--seat", "NS=heuristic:threshold=31", "--vs", "NS=heuristic:threshold=34"
    )
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "error: heuristic parameter threshold is read only with bidder=threshold (here bidder=ladder): "
        "add bidder=threshold or leave threshold out"
    ]
    code, _, err = run_cli("tune", "forty-two", "--seat", "NS=heuristic", "--vary", "seat.NS.threshold=30:36")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "bidder=threshold" in err


def test_a_backend_is_refused_where_only_simulate_reads_it() -> None:
    from simulator.specs import Execution

    with pytest.raises(DealsimError, match="compare runs its chunks on local worker processes"):
        app.compare(RunSpec("rounds", n=10), vs={"0": "greedy"}, execution=Execution(backend="threading"))
    with pytest.raises(DealsimError, match="the dask backend is for simulate"):
        app.tune(RunSpec("rounds", n=4), vary=["sweep_bonus=5,10"], execution=Execution(backend="dask"))
