"""The report page: findings first, then the one main picture; long tables and extra plots in closed
sections whose summary line says what they hold; every table still written as CSV."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from reports.html import Report
from reports.trumps import trump_code, trump_name


def _figure() -> plt.Figure:
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    return fig


def test_the_main_picture_comes_right_after_the_findings(tmp_path) -> None:
    r = Report("t", {}, "cmd")
    r.finding("a finding 1.0 [0.5, 1.5]")
    r.heading("First section")
    r.table("small", pd.DataFrame({"x": [1, 2]}), "small table")
    r.figure("main", _figure(), "the main picture", main=True)  # added late, shown first
    page = r.html()
    assert page.index("Findings") < page.index("the main picture") < page.index("First section")
    assert "class=main" in page
    with pytest.raises(ValueError, match="one main picture"):
        r.figure("second", _figure(), "another", main=True)


def test_a_collapsed_table_sits_in_a_closed_section_and_still_writes_its_csv(tmp_path) -> None:
    r = Report("t", {}, "cmd")
    r.table("long", pd.DataFrame({"x": range(500)}), "a long table", collapsed="Every x")
    r.table("short", pd.DataFrame({"x": [1]}), "a short table")
    r.figure("extra", _figure(), "an extra plot", collapsed="The extra plot")
    page = r.html()
    details = page[page.index("<details>") : page.index("</details>")]
    assert "<summary>Every x (500 rows; also long.csv)</summary>" in details and "a long table" in details
    assert "a short table" not in "".join(page.split("<details>")[1:]).split("</details>")[0]
    assert "<summary>The extra plot (extra.png)</summary>" in page
    assert "<details open" not in page  # closed until clicked
    r.write(tmp_path)
    assert len(pd.read_csv(tmp_path / "long.csv")) == 500 and (tmp_path / "extra.png").exists()


@pytest.mark.parametrize("value,name", [(0, "blanks"), ("8", "no-trump"), ("nello", "nello"), (10, "sevens")])
def test_a_trump_reads_the_same_as_a_code_or_a_name(value, name) -> None:
    assert trump_name(value) == name and trump_name(name) == name
    assert trump_code(name) == trump_code(trump_code(name))
    with pytest.raises(ValueError):
        trump_name("hearts")
