"""The catalog's snapshot (simulator/catalog.json), which the listings and helps read so that they import
no game, is what the registries say: a game, strategy, option or study changed without writing it again
fails here."""

from __future__ import annotations

import json

from simulator import catalog
from tests.cli_helpers import run_cli


def test_the_snapshot_is_what_the_registries_say() -> None:
    live = json.loads(json.dumps(catalog.collect(), ensure_ascii=False))
    assert catalog.snapshot() == live, (
        "the catalog changed: run `python -m simulator.catalog` to write it again"
    )


def test_the_listings_read_it() -> None:
    code, out, _ = run_cli("strategies", "rounds")
    assert code == 0 and "duck_margin" in out and "forty-two" not in out
    code, _, err = run_cli("strategies", "")
    assert code == 2 and err.strip() == "error: unknown game ''; known: forty-two, rounds, franks-zoo"
    assert "play-quality (forty-two, rounds)" in catalog.measure_names()
    assert "help-value (franks-zoo)" in catalog.study_names()
