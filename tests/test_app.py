"""The application layer: its documented examples run; every use case takes the specs and refuses what it
would ignore; results render and serialise themselves; help lists come from the registries; errors raised
below the command line name options, not flags."""

from __future__ import annotations

import re
import textwrap

import pytest

import simulator
from reports import studies
from simulator import app, registry, specs
from simulator.errors import DealsimError
from simulator.provenance import command_line
from simulator.specs import Execution, Output, RunSpec
from tests.cli_helpers import run_cli


def _example(module: object) -> str:
    """The indented code block of a module's docstring."""
    doc = module.__doc__ or ""
    block = [line for line in doc.splitlines() if line.startswith("    ")]
    assert block, f"{module.__name__} documents no example"
    return textwrap.dedent("\n".join(block))


@pytest.mark.parametrize("module", [app, specs, simulator], ids=lambda m: m.__name__)
def test_the_documented_examples_run(module: object) -> None:
    if module is simulator:  # the package re-exports the use cases and specs under the same names
        assert {"simulate", "compare", "RunSpec", "Execution", "Output"} <= set(simulator.__all__)
        assert simulator.RunSpec is RunSpec and simulator.simulate is app.simulate
        return
    names: dict[str, object] = {}
    exec(_example(module), names)  # the example is this repository's own text
    if module is app:
        assert len(names["sim"].deals) == 20_000 and names["sim"].manifest["seed"] == 1
        assert set(names["cmp"].frame()["measure"]) >= {"NS contract success"}
    else:
        assert names["sim"].run.game.name == "rounds" and names["sim"].result.complete


def test_a_use_case_refuses_what_it_would_ignore() -> None:
    hand = "6-6 6-5 6-4 6-3 6-2 6-1 6-0"
    with pytest.raises(DealsimError, match="analyze sets unit itself"):
        app.analyze(RunSpec("forty-two", n=10, unit="match"), hand)
    with pytest.raises(DealsimError, match="sets measures itself"):
        app.report("bid-guide", RunSpec("forty-two", n=10, measures=["play-quality"]))
    with pytest.raises(DealsimError, match="plays forty-two, not rounds"):
        app.report("bid-guide", RunSpec("rounds", n=10))
    with pytest.raises(DealsimError, match="need an output folder"):
        Output(force=True)
    with pytest.raises(DealsimError, match="choose one"):
        Output("somewhere", force=True, resume=True)
    with pytest.raises(DealsimError, match="only with the dask backend"):
        Execution(scheduler="tcp://127.0.0.1:8786")
    with pytest.raises(DealsimError, match="simulate starts a run"):
        app.simulate(RunSpec("rounds", n=10), output=Output("somewhere", resume=True))


def test_results_render_and_serialise_themselves() -> None:
    one = Execution(jobs=1)
    sim = app.simulate(RunSpec("rounds", n=200, chunk_size=100), one)
    assert sim.as_dict()["summary"]["deals"] == 200 and "rounds, 200 games, seed 1" in sim.render()[-1]
    c = app.compare(RunSpec("rounds", n=200, chunk_size=100), vs={"0": "greedy"}, execution=one)
    rendered = [part for part in c.render() if isinstance(part, str)]
    assert rendered[:3] == [
        "narrowing: how many times wider the interval would be on independent deals",
        "play: heuristic at every seat (arm A)",
        "arm B: 0 plays greedy instead of heuristic",
    ]
    assert c.as_dict()["findings"] == c.findings() and c.as_dict()["arm_b"]["seats"]["0"] == "greedy"
    sweep = app.tune(RunSpec("rounds", n=100, unit="deal"), {"sweep_bonus": "10,20"}, execution=one)
    assert sweep.as_dict()["vary"] == {"sweep_bonus": ["10", "20"]}
    assert sweep.as_dict()["rules"]["sweep_bonus"] == "varied: 10, 20"
    assert sweep.render()[1:] == sweep.findings()
    assert sweep.played() == "heuristic at every seat"
    by_seat = app.tune(RunSpec("rounds", n=50, unit="deal"), {"seat.0": "heuristic,greedy"}, execution=one)
    assert by_seat.played() == "heuristic at every seat (seat.0 as swept)"


def test_help_lists_come_from_the_registries() -> None:
    _, report_help, _ = run_cli("report", "--help")
    flat = " ".join(report_help.split())
    for name in studies.STUDIES:
        assert name in flat, f"report --help does not name the study {name}"
    _, simulate_help, _ = run_cli("simulate", "--help")
    flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", simulate_help).split())
    for name in registry.GAMES:
        assert name in flat, f"simulate --help does not name the game {name}"
    assert "play-quality (forty-two, rounds)" in flat


@pytest.mark.parametrize(
    "call",
    [
        lambda: RunSpec("rounds", seats=["0"]).build(),
        lambda: RunSpec("rounds", n=10, measures=["play-quality"], unit="match").build(),
        lambda: app.tune(RunSpec("rounds", n=10), ["sweep_bonus=3:1"]),
        lambda: app.tune(RunSpec("rounds", n=10), {"sweep_bonus": "5,20"}, baseline={"sweep_bonus": "7"}),
        lambda: app.compare(RunSpec("rounds", n=10)),
        lambda: app.analyze(RunSpec("forty-two", n=10), "6-6 6-5 6-4 6-3 6-2 6-1 6-0", play="guess"),
        lambda: app.bench("rounds", every=True),
    ],
)
def test_errors_below_the_command_line_name_options_not_flags(call) -> None:
    with pytest.raises(DealsimError) as caught:
        call()
    assert "--" not in str(caught.value), str(caught.value)


def test_studies_seat_the_study_strategy_where_the_game_has_one() -> None:
    """Forty-two's studies (report, analyze, tune) seat `learned` where no strategy is given; simulate and
    compare keep the heuristic; and the command a study writes down leaves out the seats it fills itself."""
    spec = RunSpec("forty-two", n=10)
    assert spec.build().seats == ("heuristic",) * 4
    study = spec.build(study=True)
    assert study.seats == ("learned",) * 4
    assert RunSpec("forty-two", n=10, seats=("NS=heuristic",)).build(study=True).seats == (
        "heuristic",
        "learned",
        "heuristic",
        "learned",
    )
    assert RunSpec("rounds", n=10).build(study=True).seats == ("heuristic",) * 2
    assert "--seat" not in command_line("analyze", study, study=True)
    assert "--seat N=learned" in command_line("simulate", study)
