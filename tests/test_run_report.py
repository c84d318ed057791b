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
    assert "[stage=" not in html and "[bid=" not in html and "trump 0" not in html
    # findings, then the main picture (the rates), the figures' tables; every figure in a closed section
    assert html.index("Findings") < html.index("summary_rates.png") < html.index("<h2>The run")
    assert html.index("<details>") < html.index("<table id='summary'>")


@pytest.mark.parametrize(
    "rules,named,absent",
    [
        ((), {"blanks", "sixes"}, {"doubles", "no-trump", "nello", "sevens"}),
        (("--rule", "nello=true", "--rule", "declarations=pips,doubles"), {"doubles", "nello"}, {"no-trump"}),
    ],
)
def test_a_forty_two_run_leaves_out_declarations_its_rules_forbid(tmp_path, rules, named, absent) -> None:
    run = tmp_path / "run"
    code, _, err = run_cli("simulate", "forty-two", "-n", "40", "-j", "1", *rules, "-o", str(run))
    assert code == 0, err
    code, _, err = run_cli("report", "run", "--run", str(run))
    assert code == 0, err
    _, cells = findings_and_cells((run / "report" / "report.html").read_text())
    assert named <= set(cells) and not absent & set(cells)
    # the CSV keeps the summary as it is, every declaration's row included
    assert "trumps[trump=sevens].named" in (run / "report" / "summary.csv").read_text()


def test_summary_keys_read_in_the_games_words() -> None:
    from reports.run_report import Words

    zoo, rounds, fortytwo = Words("franks-zoo"), Words("rounds"), Words("forty-two")
    assert fortytwo.label("trumps[trump=0].named") == "blanks: share of contracts"
    assert fortytwo.label("trumps[trump=blanks].named") == "blanks: share of contracts"  # names as well
    assert fortytwo.label("contracts[bid=30].made") == "bid 30: made"
    assert fortytwo.label("points.NS") == "points per hand played, NS"
    assert rounds.label("stages[stage=1].sweeps") == "stage 1: swept"
    assert rounds.label("deals") == "games played"
    assert rounds.label("matches.deals_per_match") == "games per match"
    assert zoo.label("help.given") == "requests granted"
    assert zoo.label("some_new_figure") == "some new figure"  # a key without words reads by its parts


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
