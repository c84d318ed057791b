"""Run the `dealsim` command line in-process, for tests.

`run_cli("simulate", "forty-two", "-n", "50")` calls `simulator.cli.main()` exactly as the `dealsim`
console script does (same argv handling, same error path: one "error: ..." line on stderr, exit 2),
with `sys.argv` patched and stdout/stderr captured, and returns `(exit code, stdout, stderr)`.

No subprocess and no `dealsim` on PATH are needed. Arguments may be str, Path or numbers (str() is
applied). `cwd` runs the command from another working directory (restored afterwards).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

from simulator import cli


def run_cli(*args: Any, cwd: str | Path | None = None) -> tuple[int, str, str]:
    """Run `dealsim *args` in this process: (exit code, stdout, stderr)."""
    argv = ["dealsim", *(str(a) for a in args)]
    stdout, stderr = io.StringIO(), io.StringIO()
    old_argv, old_cwd = sys.argv, os.getcwd()
    code: Any = 0
    try:
        sys.argv = argv
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                cli.main()
            except SystemExit as exc:
                code = exc.code
    finally:
        sys.argv = old_argv
        os.chdir(old_cwd)
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("message") prints the message and exits 1
        stderr.write(f"{code}\n")
        code = 1
    return code, stdout.getvalue(), stderr.getvalue()


def run_json(game: str, *args: str) -> dict:
    """`dealsim simulate GAME --format json ...`, which must succeed, parsed."""
    code, out, err = run_cli("simulate", game, "--format", "json", "--no-progress", *args)
    assert code == 0, err
    return json.loads(out)


def trace_of(game: str, *args: str) -> str:
    """`dealsim trace GAME ...`, which must succeed: its text."""
    code, out, err = run_cli("trace", game, *args)
    assert code == 0, err
    return out


def findings_and_cells(page: str) -> tuple[list[str], list[str]]:
    """A report's findings and the text of every table cell after them (HTML entities unescaped)."""
    import html
    import re

    findings = [html.unescape(f) for f in re.findall(r"<li>(.*?)</li>", page)]
    body = page[page.index("</ul>") :] if findings else page
    cells = [html.unescape(c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", body)]
    return findings, cells


def assert_findings_quote_tables(page: str) -> int:
    """Every "value [lo, hi]" and "mean ± se" a finding quotes appears in one of the report's table cells;
    returns how many were checked (a report whose findings quote nothing fails)."""
    import re

    findings, cells = findings_and_cells(page)
    quoted = [m for f in findings for m in re.findall(r"\S+ \[[^\]]+\]|[+-]?[\d,]*\.?\d+ ± [\d,]*\.?\d+", f)]
    for q in (figure.lstrip("(") for figure in quoted):
        assert any(q in c for c in cells), f"the finding's {q!r} is in no table of the report"
    assert quoted, "the findings quote no figure with its interval"
    return len(quoted)
