"""Files written whole or not at all, and a failed write names the file it was writing."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from simulator import files
from tests.cli_helpers import run_cli


def test_a_file_is_replaced_whole_or_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    files.write_whole(path, "old")
    with pytest.raises(RuntimeError), files.written_whole(path) as tmp:
        tmp.write_text("half")
        raise RuntimeError("killed")
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["a.json"]


def test_a_full_disk_names_the_file(tmp_path: Path, monkeypatch) -> None:
    write_bytes = Path.write_bytes

    def full(self: Path, data: bytes) -> int:  # the disk fills up when the manifest is written
        if self.name.startswith(".manifest.json"):
            raise OSError(errno.ENOSPC, "No space left on device")  # what a write says: no file named
        return write_bytes(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(OSError) as caught:
        files.write_whole(tmp_path / "manifest.json", "{}")
    assert caught.value.filename == str(tmp_path / "manifest.json")
    code, _, err = run_cli("simulate", "rounds", "-n", "10", "-j", "1", "-o", tmp_path / "run")
    assert code == 1
    assert err.strip() == f"error: {tmp_path / 'run' / 'manifest.json'}: No space left on device"
