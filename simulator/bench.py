"""Throughput measurements for `dealsim bench`."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from simulator.contract import Game
from simulator.runner import Run, run_chunk


def measure(game: Game, spec: str, deals: int, seed: int = 12345) -> tuple[float, float | None]:
    """Deals per second on one core, the whole chunk pipeline (deal, play, tables) in this process; and
    hands per second where a deal of the default unit holds several (Frank's Zoo games)."""
    rules = game.rules()
    unit = game.default_unit
    run = Run(game=game, n=deals, seed=seed, rules=rules, seats=(spec,) * len(game.seat_names(rules)),
              unit=unit, chunk_size=game.default_chunk[unit])
    run_chunk(run, 0)  # warm up: imports, lookup tables, caches
    start = time.perf_counter()
    hands = 0
    for k in range(run.n_chunks):
        hands += len(run_chunk(run, k)["deals"]) // game.rows_per_deal(rules)
    seconds = time.perf_counter() - start
    return deals / seconds, (hands / seconds if unit == "match" else None)


def run_yardstick(path: Path | str, deals: int) -> float | None:
    """The yardstick's deals per second, run in a subprocess now; None when it cannot run here. A bare file
    name is looked for in the repository's benchmarks/ folder, then in ../shared/bench beside the checkout."""
    path = Path(path)
    if not path.exists() and len(path.parts) == 1:
        repo = Path(__file__).resolve().parents[1]
        found = [p for p in (repo / "benchmarks" / path, repo.parent / "shared" / "bench" / path) if p.exists()]
        path = found[0] if found else path
    if not path.exists():
        return None
    try:
        done = subprocess.run([sys.executable, str(path), str(deals)], capture_output=True, text=True, timeout=600,
                              check=False)
    except subprocess.TimeoutExpired:
        return None
    m = re.search(r"deals_per_s=([\d,]+)", done.stdout)
    return float(m[1].replace(",", "")) if m else None
