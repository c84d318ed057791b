"""Every `dealsim` command and every Python block of README.md and docs/ runs, at a small size: `-n` is
lowered (or added where the command plays deals), workers are one, outputs go to a temporary folder. The
README's examples run in the fast suite, the documentation's with -m slow. A command that cannot run at a
small size is marked in its page with `<!-- example: skip REASON -->` on the line before its block."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.cli_helpers import run_cli

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# the most deals (or matches, or games) an example plays here, per subject of the command
SMALL = {"forty-two": 200, "rounds": 200, "franks-zoo": 6, "play-quality": 4, "help-value": 6}
SLOW_SUBJECTS = {"bench"}  # timing runs: minutes at any size


def _examples(page: Path) -> list[tuple[str, str, str | None]]:
    """(kind, text, skip reason) of each example: "cli" for a `dealsim` line, "python" for a python block."""
    out: list[tuple[str, str, str | None]] = []
    lines = page.read_text().splitlines()
    skip: str | None = None
    in_python, block = False, []
    for line in lines:
        marker = re.match(r"\s*<!-- example: skip (.+?) -->", line)
        if marker:
            skip = marker[1]
            continue
        if in_python:
            if line.startswith("```"):
                out.append(("python", "\n".join(block), skip))
                in_python, block, skip = False, [], None
            else:
                block.append(line)
            continue
        if line.startswith("```python"):
            in_python = True
            continue
        command = re.match(r"(?: {4}|\s*\$ |`)(dealsim [^`#]*)", line)
        if command:
            out.append(("cli", command[1].strip(), skip))
            skip = None
    return out


def _small(words: list[str], tmp: Path) -> list[str] | None:
    """The command at a small size, or None for one that only lists or times (run as it is)."""
    verb = words[0]
    subject = words[1] if len(words) > 1 and not words[1].startswith("-") else None
    out, i = [], 0
    while i < len(words):
        w = words[i]
        if w in ("-n", "--deals"):
            i += 2
            continue
        if w in ("-o", "--output"):
            out += [w, str(tmp / f"out{len(out)}"), "--force"] if verb != "analyze" else [w, str(tmp / "a")]
            i += 2
            continue
        if w in ("-j", "--jobs"):
            i += 2
            continue
        out.append(w)
        i += 1
    ladder = verb == "ladder" or (verb == "report" and subject == "ladder")
    if ladder:  # the game follows `report ladder`
        subject = words[2] if verb == "report" and len(words) > 2 else subject
    if verb in ("simulate", "compare", "tune", "analyze", "report", "trace", "ladder") and subject in SMALL:
        out += ["-n", str(SMALL[subject])] + ([] if verb == "trace" else ["-j", "1"])
        out += ["--matches", "2"] if verb == "report" and not ladder and "--matches" not in out else []
    return out


CASES = [
    pytest.param(
        kind,
        text,
        id=f"{page.relative_to(ROOT)}:{k}",
        marks=[
            *([pytest.mark.skip(reason=skip)] if skip else []),
            *([pytest.mark.slow] if page.name != "README.md" or text.split()[1:2] == ["bench"] else []),
        ],
    )
    for page in PAGES
    for k, (kind, text, skip) in enumerate(_examples(page))
]


def test_the_readme_has_examples() -> None:
    readme = _examples(ROOT / "README.md")
    assert sum(kind == "cli" for kind, _, _ in readme) >= 5


@pytest.mark.parametrize(("kind", "text"), CASES)
def test_every_example_runs(kind: str, text: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    if kind == "python":
        small = re.sub(r"\bn=[\d_]+", "n=200", text)
        exec(compile(small, "<example>", "exec"), {})  # the example is this repository's own text
        return
    words = shlex.split(text)[1:]
    small = _small(words, tmp_path)
    quiet = (
        ["--no-progress"]
        if words[0] in ("simulate", "compare", "tune", "report", "analyze", "ladder")
        else []
    )
    code, _, err = run_cli(*(small or words), *quiet)
    assert code == 0, f"{' '.join(small or words)}: exit {code}\n{err}"
