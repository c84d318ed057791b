"""Finished chunks of a run on disk, so that no stop loses work and a run can be resumed or extended.

Each finished chunk k is written as FOLDER/parts/{table}-{k:06d}.parquet under a temporary name and then
renamed (a rename is atomic), so a run stopped by Ctrl-C, SIGKILL or a crash leaves only whole parts. The
parts' index, FOLDER/parts/index.json (also replaced atomically, after each part), records the run's
definition and, per chunk, the deals it covers, each table's rows and the SHA-256 of each file. A part is
reused only when the index knows it, its bounds are the chunk's bounds in the run asked for (so extending a
run to a larger -n redoes only its last, shorter chunk), and its file's rows, checksum and embedded chunk id
all agree; anything else is redone.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.errors import DealsimError
from simulator.files import write_whole, written_whole
from simulator.summaries import to_json

if TYPE_CHECKING:
    import pandas as pd

INDEX = "index.json"


def run_key(run: Any) -> dict[str, Any]:
    """What decides a chunk's content: everything of the run's definition but its size."""
    return {k: v for k, v in json.loads(to_json(run.describe())).items() if k != "deals"}


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class PartStore:
    """The parts of one run in `folder/parts`."""

    def __init__(self, folder: Path, run: Any, reuse: bool) -> None:
        """With `reuse`, valid parts of the same run already there are kept; otherwise the parts folder
        starts empty. Parts of a different run are refused rather than mixed in."""
        self.folder = Path(folder) / "parts"
        self.run = run
        self.key = run_key(run)
        index = self._read_index() if reuse else None
        if index is not None and index.get("run") != self.key:
            raise DealsimError(
                f"{self.folder} holds the parts of a different run; resume it with the options it "
                "was started with, or use --force to start over"
            )
        if not reuse and self.folder.exists():
            shutil.rmtree(self.folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        for tmp in self.folder.glob(".*.tmp"):  # the half-written file of a run stopped mid-write
            tmp.unlink()
        self.index: dict[str, Any] = index or {"run": self.key, "parts": {}}
        self._write_index()

    def _read_index(self) -> dict[str, Any] | None:
        try:
            return json.loads((self.folder / INDEX).read_text())
        except (OSError, ValueError):
            return None

    def _write_index(self) -> None:
        write_whole(self.folder / INDEX, to_json(self.index))

    def path(self, k: int, table: str) -> Path:
        return self.folder / f"{table}-{k:06d}.parquet"

    def valid(self, k: int) -> bool:
        """Whether chunk k's part is whole and belongs to this run's chunk k."""
        import pyarrow.parquet

        entry = self.index["parts"].get(str(k))
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
        """Chunk k's tables as whole parts, then the index that vouches for them."""
        import pyarrow.parquet

        written: dict[str, dict[str, Any]] = {}
        entry = {"bounds": list(self.run.bounds(k)), "tables": written}
        for name, frame in tables.items():
            table = pyarrow.Table.from_pandas(frame, preserve_index=False)
            table = table.replace_schema_metadata(
                {**(table.schema.metadata or {}), b"dealsim_chunk": str(k).encode()}
            )
            path = self.path(k, name)
            with written_whole(path) as tmp:
                pyarrow.parquet.write_table(table, tmp)
            written[name] = {"rows": len(frame), "sha256": _sha256(path)}
        self.index["parts"][str(k)] = entry
        self._write_index()

    def read(self, k: int) -> dict[str, pd.DataFrame]:
        import pandas as pd

        return {name: pd.read_parquet(self.path(k, name)) for name in self.index["parts"][str(k)]["tables"]}

    def table_names(self) -> list[str]:
        first = self.index["parts"].get("0")
        return list(first["tables"]) if first else []

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
