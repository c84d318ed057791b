"""A sweep of hostile inputs over every command and game, made from the catalog (every rule option and every
strategy parameter gets values of the wrong kind and out of its range) and from a hand-written list (seats,
sizes, folders, hands, rules files, user strategies that misbehave). Each case ends in one line on stderr:
exit 2 before any work for bad input, exit 1 for user code that fails as it runs.

`tests/test_hostile_inputs.py` runs them all; `python benchmarks/hostile.py` runs them and counts the clean
ones."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulator import catalog


@dataclass(frozen=True)
class Case:
    name: str
    args: tuple[
        str, ...
    ]  # the command line after `dealsim` (`{dir}` is a fresh folder, `{file}` a plain file)
    says: str = ""  # a fragment the error line must hold
    code: int = 2  # bad input; 1 for user code that fails once it runs


def _bad_values(allowed: str, kind_default: Any) -> list[str]:
    """Values a field must refuse, from its listing's `allowed` column (a range, choices or a type)."""
    if " | " in allowed:
        return ["nonsense", ""]
    if ".." in allowed:
        lo, _, hi = allowed.partition("..")
        out = ["abc", "１"]
        integral = isinstance(kind_default, int) and not isinstance(kind_default, bool)
        out += ["1.5"] if integral else []
        out += [str(float(lo) - 1 if not integral else int(float(lo)) - 1)] if lo else []
        out += [str(float(hi) + 1 if not integral else int(float(hi)) + 1)] if hi else []
        return out
    if allowed == "bool":
        return ["maybe", "2"]
    return []


def generated() -> list[Case]:
    out = []
    for g in catalog.snapshot()["games"]:
        name = g["name"]
        for option, default, allowed, _ in g["rules"]:
            for value in _bad_values(allowed, default):
                out.append(
                    Case(f"{name} rule {option}={value}", ("simulate", name, "--rule", f"{option}={value}"))
                )
        for s in g["strategies"]:
            for param, default, allowed, _ in s["params"]:
                for value in _bad_values(allowed, default)[:2]:
                    spec = f"all={s['name']}:{param}={value}"
                    out.append(Case(f"{name} {spec}", ("simulate", name, "--seat", spec)))
        out += [
            Case(f"{name} unknown strategy", ("simulate", name, "--seat", "all=nobody"), "unknown"),
            Case(f"{name} unknown parameter", ("simulate", name, "--seat", "all=random:x=1"), "unknown"),
            Case(f"{name} unknown seat", ("simulate", name, "--seat", "Q=random"), "Q"),
            Case(f"{name} empty spec", ("simulate", name, "--seat", "all=")),
            Case(f"{name} seat without =", ("simulate", name, "--seat", "random")),
            Case(
                f"{name} missing module", ("simulate", name, "--seat", "all=no_such_mod:Cls"), "cannot load"
            ),
            Case(
                f"{name} not a strategy", ("simulate", name, "--seat", "all=pathlib:Path"), "not a Strategy"
            ),
            Case(
                f"{name} constructor raises",
                ("simulate", name, "--seat", "all=tests.helpers:BrokenConstructor"),
                "could not be made: RuntimeError",
            ),
            Case(
                f"{name} sys.exit in a decision",
                ("simulate", name, "--seat", "all=tests.helpers:Exits"),
                "sys.exit(3)",
                code=1,
            ),
            Case(
                f"{name} sys.exit on import",
                ("simulate", name, "--seat", "all=tests.exits_on_import:X"),
                "called sys.exit(4)",
                code=1,
            ),
            Case(f"{name} unknown rule", ("simulate", name, "--rule", "nope=1"), "unknown rule"),
            Case(f"{name} rule without =", ("simulate", name, "--rule", "target")),
            Case(f"{name} unknown preset", ("simulate", name, "--preset", "nope"), "preset"),
            Case(f"{name} zero deals", ("simulate", name, "-n", "0")),
            Case(f"{name} negative deals", ("simulate", name, "-n", "-5")),
            Case(f"{name} deals not a number", ("simulate", name, "-n", "lots")),
            Case(f"{name} too many deals", ("simulate", name, "-n", "10000000000000")),
            Case(f"{name} negative seed", ("simulate", name, "--seed", "-1")),
            Case(f"{name} zero chunk", ("simulate", name, "--chunk-size", "0")),
            Case(f"{name} unknown unit", ("simulate", name, "--unit", "week")),
            Case(f"{name} unknown measure", ("simulate", name, "--measure", "nope")),
            Case(f"{name} missing rules file", ("simulate", name, "--rules", "no/such.toml"), "not found"),
            Case(f"{name} output is a file", ("simulate", name, "-o", "{file}")),
            Case(f"{name} compare without arm B", ("compare", name), "arm B"),
            Case(f"{name} tune without vary", ("tune", name)),
            Case(f"{name} tune unknown key", ("tune", name, "--vary", "nope=1,2")),
            Case(f"{name} tune bad range", ("tune", name, "--vary", "target=9:1")),
            Case(f"{name} trace past the run", ("trace", name, "-n", "3", "--deal", "7")),
            Case(f"{name} resume an empty folder", ("simulate", "--resume", "{dir}")),
            Case(f"{name} keep what is not kept", ("simulate", name, "--keep", "everything")),
            Case(f"{name} combine without a folder", ("simulate", name, "--combine"), "give -o"),
            Case(
                f"{name} combine a summary",
                ("simulate", name, "--keep", "summary", "--combine", "-o", "{dir}"),
                "keeps no tables",
            ),
        ]
    out += [
        Case("unknown game", ("simulate", "chess"), "unknown game"),
        Case(
            "analyze: six dominoes",
            ("analyze", "forty-two", "--hand", "6-6 6-5 5-5 4-4 6-4 3-2"),
            "7 dominoes",
        ),
        Case("analyze: a domino twice", ("analyze", "forty-two", "--hand", "6-6 6-6 5-5 4-4 6-4 3-2 1-0")),
        Case("analyze: no such domino", ("analyze", "forty-two", "--hand", "7-7 6-5 5-5 4-4 6-4 3-2 1-0")),
        Case("analyze: words", ("analyze", "forty-two", "--hand", "a b c d e f g")),
        Case(
            "analyze: unknown seat",
            ("analyze", "forty-two", "--hand", "6-6 6-5 5-5 4-4 6-4 3-2 1-0", "--seat", "Q"),
        ),
        Case("analyze: another game", ("analyze", "rounds", "--hand", "6-6 6-5 5-5 4-4 6-4 3-2 1-0")),
        Case("report: unknown study", ("report", "nope"), "nope"),
        Case("report run without --run", ("report", "run"), "--run"),
        Case("report run on an empty folder", ("report", "run", "--run", "{dir}")),
        Case("bench: unknown game", ("bench", "chess")),
        Case("strategies: unknown game", ("strategies", "chess"), "unknown game"),
        Case("a bad TOML file", ("simulate", "forty-two", "--rules", "{toml}")),
    ]
    return out


# cases that need no size: the runner adds -n and -j to the rest
NO_SIZE = ("strategies", "bench", "trace", "report")


def run(case: Case, tmp: Path) -> tuple[bool, str]:
    """(clean, why not): the case's exit code (2: refused before any work), one `error:` line, no traceback,
    nothing on stdout, the folder untouched."""
    from tests.cli_helpers import run_cli

    tmp.mkdir(parents=True, exist_ok=True)
    folder, plain, toml = tmp / "dir", tmp / "plain.txt", tmp / "bad.toml"
    folder.mkdir(exist_ok=True)
    plain.write_text("not a folder\n")
    toml.write_text("min_bid = [\n")
    args = [
        a.replace("{dir}", str(folder)).replace("{file}", str(plain)).replace("{toml}", str(toml))
        for a in case.args
    ]
    if args[0] not in NO_SIZE and "-n" not in args:
        args += ["-n", "20"]
    if args[0] not in ("strategies",) and "-j" not in args:
        args += ["-j", "1"]
    start = time.perf_counter()
    code, out, err = run_cli(*args)
    took = time.perf_counter() - start
    lines = err.strip().splitlines()
    problems = []
    if code != case.code:
        problems.append(f"exit {code}")
    if len(lines) != 1 or not lines[0].startswith("error: "):
        problems.append(f"{len(lines)} lines on stderr: {err.strip()[:200]!r}")
    if "Traceback" in err:
        problems.append("a traceback")
    if out.strip():
        problems.append(f"stdout: {out.strip()[:100]!r}")
    if case.says and case.says not in err:
        problems.append(f"does not say {case.says!r}")
    with contextlib.suppress(OSError):
        if any(folder.iterdir()):
            problems.append("wrote into the folder")
    if took > 10:
        problems.append(f"took {took:.1f} s (work before the refusal?)")
    return not problems, "; ".join(problems)
