"""The global options, given before the command: --version, --quiet and --debug."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.version import __version__
from tests.cli_helpers import run_cli


def test_version_prints_the_version_and_exits_0() -> None:
    assert run_cli("--version") == (0, f"dealsim {__version__}\n", "")


@pytest.mark.parametrize("flag", ["--quiet", "-q"])
def test_quiet_prints_nothing_but_writes_the_files(flag: str, tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, stdout, err = run_cli(
        flag, "simulate", "forty-two", "-n", "300", "-j", "1", "--progress", "-o", out
    )
    assert (code, stdout, err) == (0, "", "")  # not the summary, not the progress bar asked for
    assert sorted(p.name for p in out.iterdir()) == [
        "deals.parquet",
        "manifest.json",
        "parts",
        "summary.csv",
        "summary.json",
        "timings.json",
    ]
    assert run_cli(flag, "simulate", "forty-two", "-n", "300", "-j", "1", "--format", "json") == (0, "", "")


@pytest.mark.parametrize(
    "command",
    [
        ["games"],
        ["strategies", "rounds"],
        ["trace", "forty-two", "--deal", "3", "-n", "100"],
        ["trace", "forty-two", "--deal", "3", "-n", "100", "--json"],
        ["compare", "forty-two", "-n", "100", "-j", "1", "--vs", "N=random"],
        ["tune", "forty-two", "-n", "20", "-j", "1", "--vary", "min_bid=30,31"],
        ["analyze", "forty-two", "--hand", "6-6 6-5 5-5 4-4 6-4 3-2 1-0", "-n", "50", "-j", "1"],
    ],
)
def test_quiet_silences_every_command(command: list[str]) -> None:
    code, stdout, err = run_cli("-q", *command)
    assert (code, stdout, err) == (0, "", ""), err
    assert run_cli(*command)[1] != ""  # and without it they do print


def test_quiet_keeps_errors_and_warnings_on_stderr() -> None:
    code, stdout, err = run_cli(
        "-q", "simulate", "forty-two", "-n", "100", "-j", "1", "--seat", "N=greedy", "--seat", "N=random"
    )
    assert (code, stdout) == (0, "") and err.startswith("warning: seat N given twice")
    code, stdout, err = run_cli("-q", "simulate", "forty-two", "-n", "100", "--seat", "N=clever")
    assert (code, stdout) == (2, "") and err.startswith("error: unknown forty-two strategy 'clever'")


def test_options_hold_for_one_command_only() -> None:
    """run_cli runs many commands in one process, as a notebook calling main() again: nothing carries over."""
    assert run_cli("-q", "games")[1] == ""
    assert "forty-two" in run_cli("games")[1]
    assert run_cli("--debug", "simulate", "forty-two", "-n", "10", "--seat", "N=clever")[2].startswith(
        "Traceback"
    )
    assert run_cli("simulate", "forty-two", "-n", "10", "--seat", "N=clever")[2].startswith("error: ")
