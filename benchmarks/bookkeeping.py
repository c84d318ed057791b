"""What the parts' bookkeeping costs as a run grows: the index of a run of 1,000 to 100,000 chunks.

    python benchmarks/bookkeeping.py                 # -> benchmarks/results/bookkeeping-DATE-COMMIT.json
    python benchmarks/bookkeeping.py --chunks 1000 10000 -o out.json

For each chunk count C it runs simulator.parts' real bookkeeping, without the parts themselves: a fresh
PartStore (the index's first line), C index lines appended and fsync'd as a run does after each part (two
tables with their rows and SHA-256, as a match run has), then a resume's read of the index (one pass),
then the end-of-run rewrite in chunk order. It reports the seconds of each step and the bytes written
(the `wchar` of /proc/self/io: every byte handed to write()).

For comparison, the scheme before the append-only index (the whole index rewritten after every part) is run
for the smaller counts given by --old-up-to, and estimated for the larger ones from the size of its index:
after part k it wrote an index of H + k*E bytes, so a run of C chunks wrote C*H + E*C*(C+1)/2 bytes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.files import write_whole  # noqa: E402
from simulator.parts import INDEX, PartStore, read_index, run_key  # noqa: E402
from simulator.provenance import measured_on  # noqa: E402
from simulator.specs import RunSpec  # noqa: E402
from simulator.summaries import to_json  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
SHA = "ab" * 32


def written() -> int:
    """Bytes this process has handed to write() so far."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise RuntimeError("no wchar in /proc/self/io")


def entry(run, k: int) -> dict:
    rows = {"deals": {"rows": 172, "sha256": SHA}, "matches": {"rows": 30, "sha256": SHA}}
    return {"chunk": k, "bounds": list(run.bounds(k)), "tables": rows}


def new_scheme(chunks: int, where: Path) -> dict:
    run = RunSpec("rounds", unit="match", n=chunks * 30, chunk_size=30).build()
    w0, t0 = written(), time.perf_counter()
    store = PartStore(where, run, reuse=False)
    for k in range(chunks):
        e = entry(run, k)
        store._append(e)  # what PartStore.write does once a part's files are in place
        store.parts[k] = e
    t1, w1 = time.perf_counter(), written()
    found = read_index(where / "parts" / INDEX)
    t2 = time.perf_counter()
    assert found is not None and len(found[1]) == chunks
    store.finish()
    t3, w3 = time.perf_counter(), written()
    return {
        "chunks": chunks,
        "append_seconds": round(t1 - t0, 3),
        "append_bytes": w1 - w0,
        "resume_read_seconds": round(t2 - t1, 4),
        "finish_rewrite_seconds": round(t3 - t2, 4),
        "finish_rewrite_bytes": w3 - w1,
        "total_bytes": w3 - w0,
        "index_bytes": (where / "parts" / INDEX).stat().st_size,
        "bytes_per_chunk": round((w3 - w0) / chunks, 1),
        "microseconds_per_chunk": round((t1 - t0) / chunks * 1e6, 1),
    }


def old_scheme(chunks: int, where: Path, run_it: bool) -> dict:
    """The index.json of before: the whole index (indented JSON) written again after every part."""
    run = RunSpec("rounds", unit="match", n=chunks * 30, chunk_size=30).build()
    index: dict = {"run": run_key(run), "parts": {}}
    head = len(to_json(index).encode())
    index["parts"]["0"] = {k: v for k, v in entry(run, 0).items() if k != "chunk"}
    per = len(to_json(index).encode()) - head
    out = {"chunks": chunks, "estimated_bytes": chunks * head + per * chunks * (chunks + 1) // 2}
    if run_it:
        index["parts"] = {}
        where.mkdir(parents=True, exist_ok=True)
        w0, t0 = written(), time.perf_counter()
        for k in range(chunks):
            index["parts"][str(k)] = {kk: v for kk, v in entry(run, k).items() if kk != "chunk"}
            write_whole(where / "index.json", to_json(index))
        out["seconds"] = round(time.perf_counter() - t0, 3)
        out["bytes"] = written() - w0
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--old-up-to", type=int, default=2_000, help="run the old scheme up to this count")
    parser.add_argument(
        "-o", "--output", type=Path, help="default: benchmarks/results/bookkeeping-DATE-COMMIT.json"
    )
    args = parser.parse_args(argv)
    rows, old = [], []
    with tempfile.TemporaryDirectory(dir=os.environ.get("BOOKKEEPING_TMP")) as tmp:
        for c in args.chunks:
            rows.append(new_scheme(c, Path(tmp) / f"new-{c}"))
            print(json.dumps(rows[-1]))
        for c in sorted({*args.chunks, *(n for n in (1_000, 2_000) if n <= args.old_up_to)}):
            old.append(old_scheme(c, Path(tmp) / f"old-{c}", run_it=c <= args.old_up_to))
            print("old", json.dumps(old[-1]))
    d = {
        **measured_on(
            "python benchmarks/bookkeeping.py " + " ".join(argv if argv is not None else sys.argv[1:])
        ),
        "append_only_index": rows,
        "rewritten_index_before": old,
    }
    path = args.output or RESULTS / f"bookkeeping-{d['date'][:10]}-{d['commit']}.json"
    path.write_text(json.dumps(d, indent=1) + "\n")
    print(f"written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
