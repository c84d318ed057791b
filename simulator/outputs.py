"""Output folders: checked before any work, emptied of dealsim's own files on request (and of nothing else),
and the command that wrote a folder recorded in it first, so that it can be resumed."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from simulator.errors import DealsimError
from simulator.files import write_whole
from simulator.lock import LOCK, locked
from simulator.runner import saving_parts
from simulator.summaries import to_json

# What dealsim writes into an output folder: with force these go first, and nothing else of the user's (a
# folder only when it holds dealsim's mark; CSV and PNG files only in a report folder, beside its provenance).
OUTPUT_FILES = {
    "manifest.json",
    "summary.json",
    "summary.csv",
    "provenance.json",
    "report.html",
    "deals.parquet",
    "matches.parquet",
    "games.parquet",
    "hands.parquet",
    "analyze.csv",
    "timings.json",
}
# a folder of dealsim's own, known by what it holds (the parts' index, or that of an earlier version)
OUTPUT_FOLDERS = {
    "parts": ("_index.jsonl", "index.json"),
    "runs": ("*/parts/_index.jsonl", "*/parts/index.json"),
    "report": ("report.html",),
}


def _writable(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise DealsimError(f"output {folder} exists and is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".dealsim-write-test-", dir=folder)  # its own: runs may race here
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise DealsimError(f"cannot write to the output folder {folder}: {exc.strerror or exc}") from None


def _emptied(folder: Path, force: bool) -> None:
    left = [p for p in folder.iterdir() if p.name != LOCK]
    if left and not force:
        raise DealsimError(
            f"output folder {folder} is not empty: force replaces what dealsim wrote there, resume goes on "
            "with the run in it"
        )
    report_folder = (folder / "provenance.json").is_file()  # written by compare, tune or report
    for p in left if force else ():
        if p.is_symlink():
            continue  # never follow a link out of the folder
        if p.is_dir() and p.name in OUTPUT_FOLDERS and any(any(p.glob(g)) for g in OUTPUT_FOLDERS[p.name]):
            shutil.rmtree(p)
        elif p.is_file() and (p.name in OUTPUT_FILES or (report_folder and p.suffix in (".csv", ".png"))):
            p.unlink()


def prepare_folder(folder: Path | str | None, force: bool = False, resume: bool = False) -> Path | None:
    """The output folder, checked before any work: not a file, creatable and writable, and empty unless
    `force` (its earlier outputs are removed) or `resume` (a run there goes on). It is not locked: see
    `claimed`."""
    if folder is None:
        return None
    folder = Path(folder)
    _writable(folder)
    if not resume:
        _emptied(folder, force)
    return folder


@contextlib.contextmanager
def claimed(folder: Path | str | None, force: bool = False, resume: bool = False) -> Iterator[Path | None]:
    """The output folder, prepared as by `prepare_folder`, and locked for this process until the block
    ends (see simulator.lock): a folder another run is writing is refused before anything in it changes."""
    if folder is None:
        yield None
        return
    folder = Path(folder)
    _writable(folder)
    with locked(folder):
        if not resume:
            _emptied(folder, force)
        yield folder


@contextlib.contextmanager
def saved(folder: Path | None, command: str, resume: bool) -> Iterator[None]:
    """With an output folder: the command recorded first (so that it can be resumed) and every run's chunks
    saved under folder/runs as they finish."""
    if folder is None:
        yield
        return
    if not resume:
        write_whole(folder / "provenance.json", to_json({"command": command, "complete": False}))
    with saving_parts(folder / "runs", reuse=resume):
        yield


def recorded_command(folder: Path | str) -> list[str]:
    """The words of the command that wrote `folder` (its provenance.json), without `dealsim`."""
    try:
        command = json.loads((Path(folder) / "provenance.json").read_text())["command"]
    except (OSError, ValueError, KeyError):
        raise DealsimError(
            f"nothing to resume in {folder}: it has no provenance.json of a compare, tune or report run"
        ) from None
    return shlex.split(command)[1:]
