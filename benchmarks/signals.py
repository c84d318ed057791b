"""How runs end when they are sent SIGINT or SIGTERM: every command of tests/signaling.py at every moment (in
the imports, as the workers start, playing, and while a run writes its combined table), each started in its
own process group with the signals at their default dispositions and signalled as a group. For each: the exit
code, the seconds from the signal to the exit, whether stderr was the one line `interrupted ...`, processes of
the group still alive 5 s later, and shared-memory folders left.

    python benchmarks/signals.py                 # every case (about 8 minutes on 2 cores)
    python benchmarks/signals.py --quick         # one moment per command
    python benchmarks/signals.py --save          # also benchmarks/results/signals-DATE-COMMIT.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.provenance import commit as tree_commit  # noqa: E402
from tests.signaling import COMMANDS, MOMENTS, stopped_at  # noqa: E402 (the repository root goes on the path first)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the moment 'playing' of each command")
    parser.add_argument("--save", action="store_true", help="write the results to benchmarks/results/")
    args = parser.parse_args()
    moments = ["playing"] if args.quick else list(MOMENTS)
    cases = [(c, m) for c in COMMANDS for m in moments] + [("simulate", "writing tables")]
    outcomes = []
    for command, moment in cases:
        for signum in (signal.SIGINT, signal.SIGTERM):
            with tempfile.TemporaryDirectory() as tmp:
                o = stopped_at(command, moment, signum, Path(tmp) / "out")
            outcomes.append(o)
            clean = o.code == 128 + signum and o.one_line and not o.left_running and not o.leaked
            print(
                f"{command:20} {moment:17} {o.signal:8} exit {o.code:4}  {o.seconds:5.2f} s  "
                f"{'clean' if clean else 'NOT CLEAN: ' + o.err[-120:]}",
                flush=True,
            )
    clean = sum(o.one_line and not o.left_running and not o.leaked and o.code in (130, 143) for o in outcomes)
    worst = max(o.seconds for o in outcomes)
    print(f"{clean} of {len(outcomes)} clean; slowest exit {worst:.2f} s")
    if args.save:
        commit = tree_commit() or "unknown"
        name = f"signals-{time.strftime('%Y-%m-%d')}-{commit}.json"
        (ROOT / "benchmarks" / "results" / name).write_text(
            json.dumps([dataclasses.asdict(o) for o in outcomes], indent=1) + "\n"
        )
    return 0 if clean == len(outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
