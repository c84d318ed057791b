"""The hostile-input sweep (tests/hostile_cases.py): every case run through the command line in this process,
counted clean (refused before any work, one line on stderr, exit 2, no traceback) or not:

    python benchmarks/hostile.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.hostile_cases import generated, run  # noqa: E402 (the repository root goes on the path first)


def main() -> int:
    cases = generated()
    start, failed = time.perf_counter(), []
    with tempfile.TemporaryDirectory() as tmp:
        for k, case in enumerate(cases):
            clean, why = run(case, Path(tmp) / str(k))
            if not clean:
                failed.append(f"{case.name}: {why}")
    took = time.perf_counter() - start
    print(f"{len(cases)} hostile inputs tried, {len(cases) - len(failed)} clean, in {took:.1f} s")
    for line in failed:
        print("  not clean:", line)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
