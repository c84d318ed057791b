"""`dealsim report run --run DIR`: the report of a finished simulate -o folder, for every game."""

from __future__ import annotations

import re

import pytest

from tests.cli_helpers import assert_findings_quote_tables, findings_and_cells, run_cli


@pytest.mark.parametrize("game,unit", [("forty-two", "deal"), ("rounds", "match"), ("franks-zoo", "match")])
def test_a_run_folder_becomes_a_report(tmp_path, game: str, unit: str) -> None:
    run = tmp_path / "run"
    code, _, err = run_cli("simulate", game, "-n", "60", "-j", "1", "--unit", unit, "-o", str(run))
    assert code == 0, err
    code, out, err = run_cli("report", "run", "--run", str(run))
    assert "wrote" in out
    assert code == 0, err
    html = (run / "report" / "report.html").read_text()
    assert (run / "report" / "summary.csv").exists() and (run / "report" / "summary_rates.png").exists()
    findings = re.findall(r"<li>(.*?)</li>", html)
    assert findings and all("[" in f or "±" in f for f in findings)
    assert html.index("Findings") < html.index("Every figure") < html.index("Provenance")
    assert assert_findings_quote_tables(html) == len(findings)
    _, cells = findings_and_cells(html)
    assert not any("[" in c and "=" in c for c in cells)  # figures in words, not the summary's keys


def test_summary_keys_read_as_words() -> None:
    from reports.run_report import human

    assert human("contracts[bid=30].made") == "contracts (bid 30), made"
    assert (
        human("stages[stage=1].sweeps_scoring_less_than_cards") == "stage 1, sweeps scoring less than cards"
    )
    assert human("by_seat[seat=0].points") == "seat 0, points"


def test_report_run_needs_a_run_folder(tmp_path) -> None:
    code, _, err = run_cli("report", "run")
    assert code == 2 and "needs --run DIR" in err
    code, _, err = run_cli("report", "run", "--run", str(tmp_path))
    assert code == 2 and "cannot read the run" in err
