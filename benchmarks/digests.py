"""Same seed, same outcomes, wider than tests/test_digests.py: a digest of small runs of every game x strategy
(random, greedy, heuristic, default parameters: Forty-two's ladder bidder too) x unit, and Forty-two's texas and
texas-house presets. Take them before a refactor or speed work, compare after:

    python benchmarks/digests.py before.json
    ... change ...
    python benchmarks/digests.py after.json && diff before.json after.json
"""

from __future__ import annotations

import hashlib
import json
import sys

import pandas as pd

from simulator import registry
from simulator.runner import Run, execute

STRATEGIES = ("random", "greedy", "heuristic")
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


def digest(game: str, preset: str | None, spec: str, unit: str) -> str:
    g = registry.get(game)
    rules = g.rules(preset) if preset else g.rules()
    n = (ZOO_SIZES if game == "franks-zoo" else SIZES)[unit]
    run = Run(
        game=g,
        n=n,
        seed=7,
        rules=rules,
        seats=(spec,) * len(g.seat_names(rules)),
        unit=unit,
        chunk_size=max(1, n // 3),
    )
    h = hashlib.sha256()
    for name, table in sorted(execute(run, jobs=1).tables.items()):
        h.update(name.encode())
        h.update(pd.util.hash_pandas_object(table, index=False).to_numpy().tobytes())
    return h.hexdigest()[:16]


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
    print(f"{len(out)} digests written to {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
