"""Failures outside the user's input: the system refusing a file (OSError) and Ctrl-C end in one line on
stderr, never a traceback (a worker's included), with exit codes 1 and 130."""

from __future__ import annotations

import json
import os
import re
import sys
import types
from pathlib import Path

import pytest

from simulator import console
from tests import helpers
from tests.cli_helpers import run_cli

ROOT = Path(__file__).resolve().parents[1]
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def test_a_file_the_system_refuses_is_one_line_and_exit_1(tmp_path: Path, monkeypatch) -> None:
    import errno

    write_bytes = Path.write_bytes

    def full(self: Path, data: bytes) -> int:  # the disk fills up while the run writes its parts
        if self.name.endswith(".parquet.tmp"):
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return write_bytes(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    code, out, err = run_cli("-q", "simulate", "forty-two", "-n", "100", "-j", "1", "-o", tmp_path / "run")
    assert (code, out) == (1, "")
    assert err.startswith(f"error: {tmp_path / 'run' / 'parts'}") and err.endswith(
        ": No space left on device\n"
    )
    assert len(err.splitlines()) == 1


@pytest.fixture
def calls() -> None:
    helpers.CALLS["n"] = 0


@pytest.mark.usefixtures("calls")
def test_ctrl_c_keeps_the_finished_chunks_and_says_interrupted(tmp_path: Path) -> None:
    code, out, err = run_cli(
        "simulate",
        "forty-two",
        "-n",
        "1000",
        "--chunk-size",
        "100",
        "-j",
        "1",
        "--no-progress",
        "--seat",
        "all=tests.helpers:Interrupts:after=150",
        "-o",
        tmp_path / "run",
    )
    assert (code, err) == (130, "interrupted\n")
    done = int(re.search(r"\(interrupted: (\d+) of 1,000\)", out)[1])
    assert 0 < done < 1000 and done % 100 == 0
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["complete"] is False and manifest["deals_done"] == done


@pytest.mark.usefixtures("calls")
def test_a_stop_inside_compiled_code_is_a_stop_not_a_strategy_failure(tmp_path: Path) -> None:
    """SIGTERM while a strategy's numba kernel runs comes out of the kernel as numba's SystemError with the
    stop as its context: the run stops as after any SIGTERM (exit 143, the finished chunks kept), rather
    than blaming the strategy and replaying its rows one at a time."""
    code, out, err = run_cli(
        "simulate", "forty-two", "-n", "1000", "--chunk-size", "100", "-j", "1", "--no-progress",
        "--seat", "all=tests.helpers:HiddenStop:after=150", "-o", tmp_path / "run",
    )  # fmt: skip
    assert (code, err) == (143, "interrupted\n")
    done = int(re.search(r"\(interrupted: (\d+) of 1,000\)", out)[1])
    assert 0 < done < 1000 and done % 100 == 0


@pytest.mark.usefixtures("calls")
@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "forty-two", "-n", "1000"],  # before the first chunk: nothing to report
        ["compare", "forty-two", "-n", "1000", "--vs", "N=random"],  # one arm cut short: no comparison
        ["tune", "forty-two", "-n", "100", "--vary", "min_bid=30,31"],
        ["analyze", "forty-two", "--hand", "6-6 6-5 5-5 4-4 6-4 3-2 1-0", "-n", "100"],
    ],
)
def test_ctrl_c_before_a_result_is_one_line_and_exit_130(command: list[str]) -> None:
    flag = "--strategy" if command[0] == "analyze" else "--seat"
    code, out, err = run_cli(
        *command, "-j", "1", "--no-progress", flag, "all=tests.helpers:Interrupts:after=3"
    )
    assert (code, out) == (130, "")
    assert re.fullmatch(r"interrupted(:? .*)?\n", err) and len(err.splitlines()) == 1, err


def test_ctrl_c_while_starting_up_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """The command line's imports take a second; Ctrl-C during them is not a traceback of the imports."""

    class Importing(types.ModuleType):
        def __getattr__(self, name: str):
            raise KeyboardInterrupt

    monkeypatch.setitem(sys.modules, "simulator.cli", Importing("simulator.cli"))
    with pytest.raises(SystemExit) as done:
        console.main()
    assert done.value.code == 130 and capsys.readouterr().err == "interrupted\n"
