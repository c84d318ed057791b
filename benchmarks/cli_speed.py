"""The command line's start-up cost: how long the listing and help commands take, and what importing the
command line loads.

    python benchmarks/cli_speed.py                      # -> benchmarks/results/cli-DATE-COMMIT.json
    python benchmarks/cli_speed.py --repeat 11 -o out.json
    python benchmarks/cli_speed.py --root /path/to/other/checkout   # time another source tree

Each command runs `--repeat` times as `python -m simulator ...` in a fresh process; the median wall time and
the median CPU time (user + system of the child, from the rusage of the children that were waited for)
count. CPU time is the figure to compare: on a shared machine the wall time moves with the load, the CPU
time much less. Then `python -X importtime -c "import simulator.cli"` gives the cumulative import times.

One untimed run first writes the tree's bytecode (__pycache__), even where PYTHONDONTWRITEBYTECODE is set: the
timed runs then start as an installed dealsim does, not compiling every module from source.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
ROOT = Path(__file__).resolve().parents[1]
COMMANDS = (
    ("--version",),
    ("games",),
    ("strategies",),
    ("strategies", "forty-two"),
    ("--help",),
    ("simulate", "--help"),
)
# what a listing or help command has no use for; each one loaded by `import simulator.cli` is named
HEAVY = ("pandas", "matplotlib", "numba", "pyarrow", "joblib", "dask", "reports", "scipy")
TARGET_CPU = 0.3  # seconds of CPU per listing or help command
LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)")


def _env(root: Path) -> dict[str, str]:
    # COLUMNS fixes the help's width, so that every tree renders the same text
    return {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "120", "DEALSIM_DEBUG": ""}


def warm_up(root: Path) -> None:
    """Compile the tree's modules once into __pycache__ (what installing the package does)."""
    env = {k: v for k, v in _env(root).items() if k != "PYTHONDONTWRITEBYTECODE"}
    for args in COMMANDS:
        command = [sys.executable, "-m", "simulator", *args]
        subprocess.run(command, cwd=root, env=env, stdout=subprocess.DEVNULL, check=True)
    probe = "import simulator.cli, simulator.app"  # the modules the listings do not load, for the profile
    subprocess.run([sys.executable, "-c", probe], cwd=root, env=env, check=True)


def time_command(root: Path, args: tuple[str, ...], repeat: int) -> dict:
    """Median wall and CPU seconds of `python -m simulator ARGS` over `repeat` fresh processes."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "simulator", *args],
            cwd=root,
            env=_env(root),
            stdout=subprocess.DEVNULL,
            check=True,
        )
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return {
        "command": "dealsim " + " ".join(args),
        "wall_seconds": round(statistics.median(walls), 3),
        "cpu_seconds": round(statistics.median(cpus), 3),
        "cpu_seconds_min": round(min(cpus), 3),
        "runs": repeat,
    }


def import_profile(root: Path, top: int) -> dict:
    """`import simulator.cli` under -X importtime: its total, the `top` modules by cumulative time (with
    their depth in the import tree), and the heavy packages it loaded."""
    probe = (
        "import sys, simulator.cli; "
        f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules or any(k.startswith(m + '.') "
        "for k in sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", probe],
        cwd=root,
        env=_env(root),
        capture_output=True,
        text=True,
        check=True,
    )
    rows = []
    for line in done.stderr.splitlines():
        if m := LINE.match(line):
            self_us, cumulative_us, indent, name = m.groups()
            rows.append(
                {
                    "module": name,
                    "depth": len(indent) // 2,
                    "cumulative_ms": round(int(cumulative_us) / 1000, 1),
                    "self_ms": round(int(self_us) / 1000, 1),
                }
            )
    total = next((r["cumulative_ms"] for r in rows if r["module"] == "simulator.cli"), None)
    return {
        "total_ms": total,
        "modules": len(rows),
        "heavy_loaded": done.stdout.split(),
        "top": sorted(rows, key=lambda r: -r["cumulative_ms"])[:top],
    }


def commit(root: Path) -> str | None:
    """The tree's commit, with "+" when it has uncommitted changes."""
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+" if dirty else "")


def markdown(d: dict) -> str:
    lines = [
        f"dealsim start-up at {d['commit']} ({d['date']}), median of {d['repeat']} runs, "
        f"load average before {d['load_average']:.2f}:",
        "",
        f"| command | CPU (user+sys) | wall | CPU ≤ {TARGET_CPU} s |",
        "|---|---|---|---|",
    ]
    for c in d["commands"]:
        met = "yes" if c["cpu_seconds"] <= TARGET_CPU else "no"
        lines.append(f"| `{c['command']}` | {c['cpu_seconds']:.3f} s | {c['wall_seconds']:.3f} s | {met} |")
    p = d["imports"]
    heavy = ", ".join(p["heavy_loaded"]) or "none"
    lines += [
        "",
        f"`import simulator.cli`: {p['total_ms']:,.0f} ms cumulative, {p['modules']} modules; "
        f"heavy packages loaded: {heavy}",
        "",
        "| module | depth | cumulative | self |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {r['module']} | {r['depth']} | {r['cumulative_ms']:,.1f} ms | {r['self_ms']:,.1f} ms |"
        for r in p["top"]
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "-o", "--output", type=Path, help="the JSON file (default: benchmarks/results/cli-DATE-COMMIT.json)"
    )
    parser.add_argument("--repeat", type=int, default=7, help="runs of each command (default 7)")
    parser.add_argument("--top", type=int, default=15, help="imports listed, by cumulative time (default 15)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the source tree to time (default: this one)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    started = dt.datetime.now(dt.UTC)
    warm_up(root)
    d = {
        "commit": commit(root),
        "date": started.isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "load_average": os.getloadavg()[0],
        "repeat": args.repeat,
        "target_cpu_seconds": TARGET_CPU,
        "commands": [time_command(root, c, args.repeat) for c in COMMANDS],
        "imports": import_profile(root, args.top),
        "command": "python benchmarks/cli_speed.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    path = args.output or RESULTS / f"cli-{started:%Y-%m-%d}-{d['commit'] or 'unknown'}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(d, indent=1, allow_nan=False, ensure_ascii=False) + "\n")
    print(markdown(d))
    print(f"\nwritten to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
