"""Files written whole or not at all: a reader, or a run resumed after a kill, finds the old file or the
new one, never half of one."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def written_whole(path: Path) -> Iterator[Path]:
    """A temporary path beside `path` to write to; when the block ends without an error it replaces `path` in
    one step (os.replace), otherwise it is removed and `path` stays as it was."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as exc:  # a full disk says only "No space left on device": name the file being written
        if exc.filename in (None, str(tmp)):
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc
        raise
    finally:
        tmp.unlink(missing_ok=True)


def write_whole(path: Path, data: bytes | str) -> None:
    """`data` as the whole of `path` (text as UTF-8)."""
    with written_whole(path) as tmp:
        tmp.write_bytes(data.encode() if isinstance(data, str) else data)
