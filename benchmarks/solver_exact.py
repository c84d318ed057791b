"""The Forty-two solver's values against another version of the solver, on positions from the opening lead,
mid-hand and late, under plain and special contracts (nello, doubles, no-trump, sevens) and both counts.

    python benchmarks/solver_exact.py --against 38de0c9          # the solver at that commit (thousands)
    python benchmarks/solver_exact.py --fixture tests/data/solver_values.npz --hands 40   # the test fixture

`--against REV` loads `simulator/fortytwo/solver.py` as it was at REV (compiled afresh, about a minute) and
compares `solve` and `at_least(value)`/`at_least(value + 1)` row by row; it exits 1 on any difference.
`--fixture PATH` writes the positions and the current solver's values (the file tests/test_fortytwo_solver.py
checks against).
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.fortytwo import solver  # noqa: E402 (the repository root goes on the path first)
from simulator.fortytwo.rules import FortyTwoRules  # noqa: E402
from tests.helpers import play_deals, strategy  # noqa: E402

FIELDS = ("hands", "ctx", "turn", "leader", "trick", "points", "side", "sitter")
# (rules, strategy at all four seats): plain heuristic contracts, and random bidding under the special ones
SETTINGS = (
    (FortyTwoRules(), "heuristic"),
    (FortyTwoRules(count_values="texas"), "heuristic"),
    (FortyTwoRules(nello=True, sevens=True, declarations="pips,doubles,no-trump"), "random"),
    (
        FortyTwoRules(nello=True, sevens=True, declarations="pips,doubles,no-trump", count_values="texas"),
        "random",
    ),
)
BEFORE = (0, 1, 2, 5, 10, 13, 18, 22)  # plays made: the opening lead, inside the first trick, mid-hand, late


def positions(hands: int, seed: int) -> tuple[solver.Positions, np.ndarray]:
    """Positions before each of BEFORE's plays of `hands` deals under each setting (thrown-in ones left out,
    finished rows once), and each row's count kind (0 seed, 1 texas)."""
    parts, kinds = [], []
    for i, (rules, spec) in enumerate(SETTINGS):
        strat = strategy("forty-two", spec)
        rngs = [np.random.default_rng(seed + 10 * i + s) for s in range(4)]
        s = play_deals(
            "forty-two", np.random.default_rng(seed + i), rngs, np.arange(hands), rules, [strat] * 4
        )
        s = s.take(np.flatnonzero(s.ctx >= 0))
        sv = solver.FortyTwoSolver(rules.count_values)
        for k in BEFORE:
            rows = np.flatnonzero(s.n_played > k)
            p = sv.positions(s.take(rows), before=k)
            parts.append(p)
            kinds.append(np.full(len(p), solver.COUNT_KINDS.index(rules.count_values), np.int8))
    return solver.Positions.concat(parts), np.concatenate(kinds)


def values(module, p: solver.Positions, kinds: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """(values, at_least(value) & ~at_least(value + 1) per row, nodes) with `module`'s solver, one per count
    kind kept over the rows."""
    out = np.empty(len(p), np.int64)
    exact = np.empty(len(p), bool)
    nodes = 0
    for kind, name in enumerate(solver.COUNT_KINDS):
        rows = np.flatnonzero(kinds == kind)
        if not len(rows):
            continue
        q = module.Positions(**{f: getattr(p, f)[rows] for f in FIELDS})
        sv = module.FortyTwoSolver(name)
        out[rows] = sv.solve(q)
        exact[rows] = sv.at_least(q, out[rows]) & ~sv.at_least(q, out[rows] + 1)
        nodes += sv.nodes
    return out, exact, nodes


def solver_at(rev: str):
    """simulator/fortytwo/solver.py as it was at commit `rev`, loaded as a module of its own."""
    text = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{rev}:simulator/fortytwo/solver.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    folder = Path(tempfile.mkdtemp(prefix="solver-"))
    path = folder / f"solver_{rev}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(f"solver_{rev}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="REV", help="compare with the solver at this commit")
    parser.add_argument("--fixture", metavar="PATH", help="write positions and the current values here")
    parser.add_argument("--hands", type=int, default=300, help="deals a setting")
    parser.add_argument("--seed", type=int, default=3, help="seed of the deals")
    args = parser.parse_args()
    p, kinds = positions(args.hands, args.seed)
    print(f"{len(p)} positions ({np.bincount(kinds, minlength=2)} seed/texas count)")
    if args.fixture:
        v, exact, _ = values(solver, p, kinds)
        assert exact.all()
        small = {f: getattr(p, f) for f in FIELDS}
        np.savez_compressed(args.fixture, kind=kinds, value=v.astype(np.int8), **small)
        print(f"wrote {args.fixture}")
    if args.against:
        old = solver_at(args.against)
        start = time.process_time()
        v_old, _, n_old = values(old, p, kinds)
        t_old = time.process_time() - start
        start = time.process_time()
        v_new, exact, n_new = values(solver, p, kinds)
        t_new = time.process_time() - start
        differ = np.flatnonzero(v_old != v_new)
        print(
            f"{args.against}: {n_old:,} nodes, {t_old:.1f} s (with compiling); "
            f"now: {n_new:,} nodes, {t_new:.1f} s; "
            f"{len(differ)} values differ, {int((~exact).sum())} rows where at_least disagrees with solve"
        )
        if len(differ) or not exact.all():
            print("first differing rows:", differ[:10], v_old[differ[:10]], v_new[differ[:10]])
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
