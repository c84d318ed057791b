"""Same seed, same outcomes, wider than tests/test_digests.py: a digest of every column of small runs of every
game x strategy (random, greedy, heuristic, default parameters but for SPEC_THEN) x unit, and Forty-two's
texas and texas-house presets. Take them before a refactor or speed work, compare after:

    python benchmarks/digests.py before.json
    ... change ...
    python benchmarks/digests.py after.json && diff before.json after.json

A column's digest is the sha256 of its values written as text, so a change of representation alone (a wider
integer type) keeps it, while any changed deal, move, point or score changes it; a diff names the run, the
table and the column. Columns renamed or written in words since the stored digests were taken are digested
as they were then (AS_BEFORE: a column's earlier name, and its values written as they were), so that
representation alone never shows in a diff.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

# The tree this script lives in, not the dealsim an editable install points at (which may be another tree).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from simulator import registry  # noqa: E402
from simulator.runner import Run, execute  # noqa: E402

STRATEGIES = ("random", "greedy", "heuristic")
# Strategies changed on purpose since the stored digests were taken, by the spec that plays as they did then
# (game, unit, strategy): Frank's Zoo's heuristic counts the cards before asking for help; `count=false`
# asks as before (whole games only: single hands have no help).
SPEC_THEN = {("franks-zoo", "match", "heuristic"): "heuristic:count=false"}
SIZES = {"deal": 3000, "match": 40}
ZOO_SIZES = {"deal": 300, "match": 10}  # whole Frank's Zoo games cost more


def cases() -> list[tuple[str, str | None, str, str]]:
    out = [
        (name, None, spec, unit)
        for name in registry.GAMES
        for spec in STRATEGIES
        for unit in registry.get(name).default_chunk
    ]
    out += [("forty-two", preset, spec, "deal") for preset in ("texas", "texas-house") for spec in STRATEGIES]
    return out


def _codes(values: pd.Series) -> pd.Series:
    """A category as the integer codes it was written as before (missing stays missing)."""
    codes = values.cat.codes.to_numpy()
    return pd.Series(pd.array(np.where(codes < 0, None, codes), dtype="Int8"), index=values.index)


def _codes_or_minus_one(values: pd.Series) -> pd.Series:
    """A category as the integer codes it was written as before, -1 where missing."""
    return values.cat.codes


# (game, table) -> today's column -> (its name then, how its values were written then, or None: as now)
AS_BEFORE = {
    ("forty-two", "deals"): {
        # `trump` was the TRUMP action 0..10; a category of its names now, in that order
        "trump": ("trump", _codes),
        # the score's unit is in its name now
        **{
            f"score_{unit}_{side}": (f"score_{side}", None)
            for unit in ("points", "marks")
            for side in ("ns", "ew")
        },
    },
    # how trick 5 was decided: the codes of simulator.rounds.fifth, -1 where not at stake
    ("rounds", "deals"): {f"s{k}_fifth_call": (f"s{k}_fifth_call", _codes_or_minus_one) for k in range(1, 6)},
}


def column_digest(values: pd.Series) -> str:
    text = "\x1f".join("NA" if pd.isna(v) else str(v) for v in values.tolist())
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def digest(game: str, preset: str | None, spec: str, unit: str) -> dict[str, dict[str, str]]:
    """Per table of the run, per column, the digest of its values."""
    g = registry.get(game)
    rules = g.rules(preset) if preset else g.rules()
    n = (ZOO_SIZES if game == "franks-zoo" else SIZES)[unit]
    run = Run(
        game=g,
        n=n,
        seed=7,
        rules=rules,
        seats=(SPEC_THEN.get((game, unit, spec), spec),) * len(g.seat_names(rules)),
        unit=unit,
        chunk_size=max(1, n // 3),
    )
    tables = execute(run, jobs=1).tables
    out = {}
    for name, t in sorted(tables.items()):
        before = AS_BEFORE.get((game, name), {})
        out[name] = {}
        for col in t.columns:
            then, written = before.get(col, (col, None))
            out[name][then] = column_digest(written(t[col]) if written else t[col])
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    out = {
        f"{game}/{preset or 'seed'}/{spec}/{unit}": digest(game, preset, spec, unit)
        for game, preset, spec, unit in cases()
    }
    with open(argv[0], "w") as f:
        json.dump(out, f, indent=1)
    print(f"{len(out)} runs' digests written to {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
