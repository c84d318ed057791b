"""Every `--format json` (and --json) output is strict JSON: no NaN, no Infinity; written files too. Parquet
files carry the run's manifest in their metadata."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest

from tests.cli_helpers import run_cli


def _strict(text: str):
    def refuse(constant: str):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "forty-two", "-n", "50", "-j", "1", "--format", "json"],
        ["simulate", "franks-zoo", "-n", "5", "-j", "1", "--format", "json", "--unit", "hand"],
        ["trace", "rounds", "-n", "10", "--deal", "3", "--json"],
        # a rule that changes only no-trump hands: no hand is thrown in either arm, so that measure's paired
        # standard error is 0 and its narrowing undefined
        [
            "compare",
            "forty-two",
            "-n",
            "40",
            "-j",
            "1",
            "--preset",
            "texas",
            "--seat",
            "all=random",
            "--vs-rule",
            "doubles_low=true",
            "--format",
            "json",
        ],
        ["compare", "rounds", "-n", "40", "-j", "1", "--vs", "0=greedy", "--format", "json"],
        ["tune", "rounds", "-n", "6", "-j", "1", "--vary", "sweep_bonus=5,10", "--format", "json"],
        [
            "analyze",
            "forty-two",
            "--hand",
            "6-6 6-5 5-5 4-4 6-4 3-2 1-0",
            "-n",
            "20",
            "-j",
            "1",
            "--format",
            "json",
        ],
    ],
)
def test_json_output_is_strict(args: list[str]) -> None:
    code, out, err = run_cli(*args)
    assert code == 0, err
    _strict(out)


def test_written_files_are_strict_and_parquet_carries_the_manifest(tmp_path) -> None:
    code, _, err = run_cli(
        "simulate", "forty-two", "-n", "30", "-j", "1", "--unit", "match", "-o", str(tmp_path)
    )
    assert code == 0, err
    manifest = _strict((tmp_path / "manifest.json").read_text())
    _strict((tmp_path / "summary.json").read_text())
    assert manifest["python"] and manifest["pandas"] and manifest["numpy"]
    assert manifest["strategy_parameters"]["N"]["strategy"] == "heuristic"
    assert manifest["strategy_parameters"]["N"]["bidder"] == "ladder"
    for name in ("deals", "matches"):
        meta = pq.read_schema(tmp_path / f"{name}.parquet").metadata
        assert json.loads(meta[b"dealsim"])["seed"] == manifest["seed"]


def test_infinities_and_nans_become_null() -> None:
    import numpy as np

    from simulator.stats import Difference
    from simulator.summaries import to_json

    d = Difference(
        1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.1, float("inf"), 10
    )  # a paired s.e. of 0: infinite narrowing
    data = _strict(to_json({"d": d, "x": np.float64("nan"), "y": [np.inf, -np.inf, 2.5]}))
    assert data == {"d": {**d.as_dict(), "narrowing": None}, "x": None, "y": [None, None, 2.5]}
