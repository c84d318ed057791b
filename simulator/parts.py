"""Finished chunks of a run on disk, so that no stop loses work and a run can be resumed or extended.

FOLDER/parts is the run's tables as Parquet datasets, one folder per table: chunk k of the deals is
FOLDER/parts/deals/part-{k:08d}.parquet (and matches/..., for a match run), so that
`pandas.read_parquet("FOLDER/parts/deals")` or `pyarrow.dataset.dataset(...)` reads a table whole. Each
part is written under a temporary name and then renamed (a rename is atomic), so a run stopped by Ctrl-C,
SIGKILL or a crash leaves only whole parts.

The parts' index, FOLDER/parts/_index.jsonl (its leading underscore keeps it out of a dataset read), is a log
that only grows: its first line is the run's definition, then one line per finished part, appended and
fsync'd after the part's files are in place: the chunk, the deals it covers, and per table its rows and the
SHA-256 of its file. A run of C chunks thus writes O(C) bytes of index, and a resume reads it in one pass
(the last line for a chunk counts; a line torn by a kill is ignored). At the end of a run the log is
rewritten in chunk order, one line per chunk, so that a resumed run's folder is byte for byte an
uninterrupted run's. A part is reused only when the index knows it, its bounds are the chunk's bounds in the
run asked for (so extending a run to a larger -n redoes only its last, shorter chunk), and its file's rows,
checksum and embedded chunk id all agree; anything else is redone.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.errors import DealsimError
from simulator.files import write_whole, written_whole
from simulator.summaries import to_json

if TYPE_CHECKING:
    import pandas as pd

INDEX = "_index.jsonl"
TABLES = ("deals", "matches")


def run_key(run: Any) -> dict[str, Any]:
    """What decides a chunk's content: everything of the run's definition but its size."""
    return {k: v for k, v in json.loads(to_json(run.describe())).items() if k != "deals"}


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _line(record: dict[str, Any]) -> bytes:
    return json.dumps(record, sort_keys=True, separators=(",", ":")).encode() + b"\n"


@dataclass(frozen=True)
class Encoded:
    """One table of one chunk as the bytes of its part file."""

    rows: int
    data: bytes


def encode(k: int, tables: dict[str, pd.DataFrame]) -> dict[str, Encoded]:
    """Chunk k's tables as Parquet files in memory, each with the chunk's id in its metadata. Encoding costs
    more than the play of a fast game's chunk takes to be handed over, so a run made of workers encodes where
    the chunk was played and the writing process only saves the bytes."""
    import pyarrow
    import pyarrow.parquet

    out = {}
    for name, frame in tables.items():
        table = pyarrow.Table.from_pandas(frame, preserve_index=False)
        table = table.replace_schema_metadata(
            {**(table.schema.metadata or {}), b"dealsim_chunk": str(k).encode()}
        )
        sink = pyarrow.BufferOutputStream()
        pyarrow.parquet.write_table(table, sink)
        out[name] = Encoded(len(frame), sink.getvalue().to_pybytes())
    return out


def part_name(k: int) -> str:
    return f"part-{k:08d}.parquet"


def read_index(path: Path) -> tuple[dict[str, Any], dict[int, dict[str, Any]]] | None:
    """The run's definition and the last entry of each chunk in the index at `path`, in one pass; None when
    there is no readable index. Lines that do not parse (the last one, torn by a kill) are skipped."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    lines = data.split(b"\n")
    try:
        head = json.loads(lines[0])
        key = head["run"]
    except (ValueError, KeyError, TypeError):
        return None
    parts: dict[int, dict[str, Any]] = {}
    for raw in lines[1:]:
        try:
            entry = json.loads(raw)
            parts[int(entry["chunk"])] = entry
        except (ValueError, KeyError, TypeError):
            continue
    return key, parts


class PartStore:
    """The parts of one run in `folder/parts`."""

    def __init__(self, folder: Path, run: Any, reuse: bool) -> None:
        """With `reuse`, valid parts of the same run already there are kept; otherwise the parts folder
        starts empty. Parts of a different run are refused (before anything is written) rather than mixed
        in."""
        self.folder = Path(folder) / "parts"
        self.run = run
        self.key = run_key(run)
        found = read_index(self.folder / INDEX) if reuse else None
        if found is not None and found[0] != self.key:
            raise DealsimError(
                f"{self.folder} holds the parts of a different run; resume it with the options it "
                "was started with, or use --force to start over"
            )
        if found is None and self.folder.exists():  # nothing reusable there (or a fresh start)
            shutil.rmtree(self.folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        for tmp in self.folder.glob("**/.*.tmp"):  # the half-written file of a run stopped mid-write
            tmp.unlink()
        self.parts: dict[int, dict[str, Any]] = found[1] if found else {}
        if found is None:
            write_whole(self.folder / INDEX, _line({"run": self.key}))
        else:
            self._cut_torn_line()

    def resize(self, run: Any) -> None:
        """The store taken on by the same run at another size (a precision target's pilot grown to its
        decided size): its parts stay, checked against the new run's chunk bounds."""
        if run_key(run) != self.key:
            raise ValueError("resize: the parts of a different run")
        self.run = run

    def _cut_torn_line(self) -> None:
        """An index whose last line a kill tore is cut back to its last whole line, so appends start on a
        line of their own."""
        path = self.folder / INDEX
        data = path.read_bytes()
        if not data.endswith(b"\n"):
            with open(path, "r+b") as f:
                f.truncate(data.rfind(b"\n") + 1)

    def _append(self, record: dict[str, Any]) -> None:
        with open(self.folder / INDEX, "ab") as f:
            f.write(_line(record))
            f.flush()
            os.fsync(f.fileno())

    def path(self, k: int, table: str) -> Path:
        return self.folder / table / part_name(k)

    def valid(self, k: int) -> bool:
        """Whether chunk k's part is whole and belongs to this run's chunk k."""
        import pyarrow.parquet

        entry = self.parts.get(k)
        if entry is None or list(entry["bounds"]) != list(self.run.bounds(k)):
            return False
        for table, want in entry["tables"].items():
            path = self.path(k, table)
            try:
                if _sha256(path) != want["sha256"]:
                    return False
                meta = pyarrow.parquet.read_metadata(path)
                if (
                    meta.num_rows != want["rows"]
                    or (meta.metadata or {}).get(b"dealsim_chunk") != str(k).encode()
                ):
                    return False
            except (OSError, pyarrow.ArrowException):
                return False
        return True

    def write(self, k: int, tables: dict[str, pd.DataFrame]) -> None:
        """Chunk k's tables as whole parts, then the index line that vouches for them."""
        self.save(k, encode(k, tables))

    def save(self, k: int, parts: dict[str, Encoded]) -> None:
        """Chunk k's parts already encoded (`encode`, in the worker that played it), then the index line."""
        written: dict[str, dict[str, Any]] = {}
        for name, part in parts.items():
            path = self.path(k, name)
            path.parent.mkdir(exist_ok=True)
            write_whole(path, part.data)
            written[name] = {"rows": part.rows, "sha256": hashlib.sha256(part.data).hexdigest()}
        entry = {"chunk": k, "bounds": list(self.run.bounds(k)), "tables": written}
        self._append(entry)
        self.parts[k] = entry

    def read(self, k: int) -> dict[str, pd.DataFrame]:
        import pandas as pd

        return {name: pd.read_parquet(self.path(k, name)) for name in self.parts[k]["tables"]}

    def table_names(self) -> list[str]:
        first = self.parts.get(0)
        return list(first["tables"]) if first else []

    def finish(self) -> None:
        """The folder tidied at the end of a run: the parts past the run's last chunk (a run cut to a smaller
        -n) and entries that are not this run's removed, and the index rewritten in chunk order."""
        chunks = self.run.n_chunks
        for table in self.folder.iterdir():
            if table.is_dir():
                for part in table.glob("part-*.parquet"):
                    if int(part.stem.split("-")[1]) >= chunks:
                        part.unlink()
        self.parts = {
            k: e
            for k, e in sorted(self.parts.items())
            if k < chunks and list(e["bounds"]) == list(self.run.bounds(k))
        }
        lines = [_line({"run": self.key}), *(_line(e) for e in self.parts.values())]
        write_whole(self.folder / INDEX, b"".join(lines))

    def combine(self, out: Path, chunks: int, metadata: dict[bytes, bytes]) -> list[Path]:
        """Each table of chunks 0..chunks-1 as one Parquet file in `out` (one row group per part, streamed:
        memory holds one part at a time), with `metadata` in its schema; the paths written."""
        import pyarrow.parquet

        written = []
        for name in self.table_names():
            target = Path(out) / f"{name}.parquet"
            with written_whole(target) as tmp:
                writer = None
                try:
                    for k in range(chunks):
                        table = pyarrow.parquet.read_table(self.path(k, name))
                        meta = {
                            key: v
                            for key, v in (table.schema.metadata or {}).items()
                            if key != b"dealsim_chunk"
                        }
                        table = table.replace_schema_metadata({**meta, **metadata})
                        if writer is None:
                            writer = pyarrow.parquet.ParquetWriter(tmp, table.schema)
                        writer.write_table(table.cast(writer.schema))
                finally:
                    if writer is not None:
                        writer.close()
            written.append(target)
        return written


def read_parts(folder: Path, chunks: int) -> dict[str, pd.DataFrame]:
    """The tables of chunks 0..chunks-1 in `folder/parts` (each table's parts read as one dataset)."""
    import pandas as pd

    parts = Path(folder) / "parts"
    return {
        name: pd.read_parquet([str(parts / name / part_name(k)) for k in range(chunks)])
        for name in TABLES
        if (parts / name).is_dir()
    }
