"""The command line's start and help: the listings, the version and the helps load none of the heavy
packages, numpy included (they read the catalog's snapshot; benchmarks/cli_speed.py times them); every help
closes with examples and shows flags as flags; analyze takes --seat as every command does; tune's table fits
a terminal."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from rich.console import Console

from simulator import app, flags, runner
from simulator.cli import cli
from simulator.specs import Execution, RunSpec
from tests.cli_helpers import run_cli

ROOT = Path(__file__).resolve().parents[1]
# what a listing, the version or a help has no use for (pydantic: typer's validators, see flags.Command)
HEAVY = ("pandas", "matplotlib", "numba", "pyarrow", "joblib", "dask", "distributed", "reports", "pydantic")
COMMANDS = [name for name in typer.main.get_command(cli).commands]  # type: ignore[attr-defined]


def _loaded_after(code: str) -> dict[str, list[str]]:
    """Run `code` in a fresh interpreter (from the repository root): which of HEAVY (and numpy) it loaded."""
    probe = (
        f"{code}\nimport json, sys\n"
        f"print(json.dumps(sorted(m for m in {(*HEAVY, 'numpy')!r} "
        "if any(k == m or k.startswith(m + '.') for k in sys.modules))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(done.stdout.splitlines()[-1])


def test_importing_the_command_line_loads_nothing_heavy() -> None:
    assert _loaded_after("import simulator.cli") == []  # not numpy either: the version and helps need none


@pytest.mark.parametrize(
    "args",
    [
        ["--version"],
        ["--help"],
        ["games"],
        ["strategies"],
        ["strategies", "forty-two"],
        ["simulate", "--help"],
        ["tune", "--help"],
        ["report", "--help"],
    ],
)
def test_listings_version_and_helps_load_nothing_heavy(args: list[str]) -> None:
    loaded = _loaded_after(f"from tests.cli_helpers import run_cli\nassert run_cli(*{args!r})[0] == 0")
    assert loaded == []


def test_a_run_still_loads_what_it_uses() -> None:  # the probe above sees imports: pandas does show up
    loaded = _loaded_after(
        "from tests.cli_helpers import run_cli\n"
        "assert run_cli('simulate', 'rounds', '-n', '100', '-j', '1', '--format', 'json')[0] == 0"
    )
    assert "pandas" in loaded


def _help(*command: str) -> str:
    code, out, err = run_cli(*command, "--help")
    assert code == 0, err
    return out


@pytest.mark.parametrize("command", [[], *[[c] for c in COMMANDS]])
def test_every_help_closes_with_examples_of_itself(command: list[str]) -> None:
    group = typer.main.get_command(cli)
    declared = (group.commands[command[0]] if command else group).epilog  # type: ignore[attr-defined]
    head, *examples = declared.splitlines()
    assert head == "Examples:" and 2 <= len(examples) <= 3, declared
    assert examples[0].startswith(" ".join(["dealsim", *command]))  # a listing's others use what it lists
    assert all(line.startswith("dealsim ") for line in examples)
    shown = " ".join(_help(*command).split())  # as printed: the examples last, whatever the wrapping
    assert shown.endswith(" ".join(declared.split()))


@pytest.mark.parametrize("command", [[], *[[c] for c in COMMANDS]])
def test_helps_show_flags_as_flags_and_write_out_their_lists(command: list[str]) -> None:
    text = _help(*command)
    assert "<bool>" not in text and "BOOLEAN" not in text
    assert not re.search(r"\{(games|units|measures|studies|study_sizes)\}", text)


def test_the_lists_tokens_are_written_out() -> None:
    assert flags.filled("the game: {games}") == "the game: forty-two, rounds, franks-zoo"
    assert flags.filled("no list here") == "no list here"


def test_bench_limits_agree_with_the_runner() -> None:
    assert flags.MAX_DEALS == runner.MAX_DEALS


def test_the_combine_size_in_the_help_is_the_one_used() -> None:
    from simulator import specs

    assert flags.COMBINE_UP_TO == specs.COMBINE_UP_TO and f"{specs.COMBINE_UP_TO:,}" in flags.COMBINE


def test_tune_help_says_why_its_unit_is_a_match() -> None:
    flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", _help("tune")).split())
    assert "default: match, since a sweep judges a setting by whole matches" in flat
    assert "default: each game's own" in " ".join(re.sub(r"[│╭╮╰╯─]", " ", _help("compare")).split())


HAND = "6-6 6-5 5-5 4-4 6-4 3-2 1-0"


def _analyze(*args: str) -> dict:
    """The hand's seat, the seats' strategies and the rows of `dealsim analyze ... ARGS`."""
    command = ("analyze", "forty-two", "--hand", HAND, "-n", "100", "-j", "1", "--format", "json", *args)
    code, out, err = run_cli(*command)
    assert code == 0, err
    d = json.loads(out)
    return {"seat": d["seat"], "seats": d["seats"], "rows": d["rows"]}


def test_analyze_takes_seat_as_every_command_and_strategy_as_its_old_name() -> None:
    held = _analyze("--seat", "W", "--seat", "EW=greedy")
    assert held["seat"] == "W" and held["seats"]["E"] == held["seats"]["W"] == "greedy"
    assert _analyze("--strategy", "EW=greedy", "--seat", "W") == held
    plain = _analyze()
    assert plain["seat"] == "N" and plain["seats"]["E"] == "learned"  # the studies' default


def test_analyze_names_the_hand_seat_once() -> None:
    code, _, err = run_cli("analyze", "forty-two", "--hand", HAND, "-n", "10", "--seat", "W", "--seat", "N")
    assert code == 2 and "names the hand's seat once" in err


def _lines(parts: list, width: int) -> list[str]:
    console = Console(file=io.StringIO(), width=width, highlight=False)
    for part in parts:
        console.print(part)
    return console.file.getvalue().splitlines()  # type: ignore[attr-defined]


def test_the_tune_table_fits_120_columns_with_seven_settings() -> None:
    sweep = app.tune(RunSpec("rounds", n=100, unit="deal"), {"sweep_bonus": "10:16"}, execution=Execution(1))
    assert len(sweep.points) == 7
    table = sweep.render()[0]

    def body(width: int) -> list[str]:  # the table's own lines, not its title
        return [line for line in _lines([table], width) if line[:1] in "┏┃┡│├└"]

    natural = body(1000)  # as wide as it wants
    assert max(len(line) for line in natural) <= 120
    assert body(120) == natural  # at 120 columns nothing is squeezed or wrapped
    assert len([line for line in natural if line.startswith("│")]) == 7 * len(sweep.measures)
