"""The parameter objects of the application layer: what a run is (`RunSpec`), how its chunks are run
(`Execution`) and where its outputs go (`Output`). Every use case of `simulator.app` takes them:

    from simulator.app import Execution, RunSpec, simulate
    sim = simulate(RunSpec("rounds", n=10_000, seats={"1": "greedy"}), Execution(jobs=2))
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simulator import registry
from simulator.contract import Game
from simulator.errors import DealsimError
from simulator.options import build
from simulator.outputs import claimed, prepare_folder
from simulator.runner import MAX_DEALS, Run, check

Assignments = Mapping[str, str] | Sequence[str] | None  # {"NS": "heuristic"} or ["NS=heuristic"]
RuleValues = Mapping[str, Any] | Sequence[str] | None  # {"min_bid": 31} or ["min_bid=31"]


@dataclass(frozen=True)
class RunSpec:
    """What defines a run's numbers. `n` and `unit` left None take the use case's defaults (100,000 deals
    for `simulate`; whole matches for `tune`; a study's own size for `report`); `rules` override the
    `preset` and the TOML `rules_files`; `seats` map seats, sides or `all` to strategy specs; `measures`
    add per-deal columns such as "play-quality"."""

    game: str | Game
    n: int | None = None
    seed: int = 1
    seats: Assignments = None
    rules: RuleValues = None
    preset: str = "seed"
    rules_files: Sequence[str] = ()
    unit: str | None = None
    chunk_size: int | None = None
    measures: Sequence[str] = ()

    def build(self, n: int = 100_000, unit: str | None = None, study: bool = False) -> Run:
        """The checked run: `n` and `unit` where the spec leaves them open; each seat's strategy over the
        game's default (with `study`, the game's study strategy where it has one); the chunk size by default
        per game and unit."""
        g = registry.get(self.game)
        n = whole("n", n if self.n is None else self.n, 1)
        if n > MAX_DEALS:
            raise DealsimError(f"n (the number of deals or matches) must be at most {MAX_DEALS:,}, not {n:,}")
        whole("seed", self.seed, 0)
        chosen = g.unit(self.unit or unit)
        ruleset = g.rules(self.preset, self.rules_files, self.rules or ())
        size = g.default_chunk[chosen] if self.chunk_size is None else whole("chunk_size", self.chunk_size, 1)
        run = Run(
            game=g,
            n=n,
            seed=int(self.seed),
            rules=ruleset,
            seats=g.seat_specs(self.seats or (), ruleset, study=study),
            unit=chosen,
            chunk_size=size,
            measures=tuple(dict.fromkeys(self.measures)),
        )
        check(run)
        return run

    def refuse(self, use: str, **fixed: Any) -> None:
        """Refuse the fields that `use` sets itself, where they are given with another value than `fixed`
        holds: an option that would be ignored is an error, not a silent no-op."""

        def given(name: str) -> bool:
            value = getattr(self, name)
            return (
                value is not None
                and value != fixed[name]
                and not (isinstance(value, (list, tuple)) and not value)
            )

        named = [name for name in fixed if given(name)]
        if named:
            raise DealsimError(
                f"{use} sets {', '.join(named)} itself: leave {'it' if len(named) == 1 else 'them'} out"
            )


@dataclass(frozen=True)
class Execution:
    """How the chunks run (never what they give): `jobs` workers (0 or less: every core) on the joblib
    `backend` loky or threading, or on Dask (`scheduler` an address, or None for a local cluster), with a
    progress bar on stderr."""

    jobs: int = 0
    backend: str = "loky"
    scheduler: str | None = None
    progress: bool = False

    def __post_init__(self) -> None:
        if self.scheduler is not None and self.backend != "dask":
            raise DealsimError("a scheduler is used only with the dask backend")

    def local(self, use: str) -> None:
        """Refuse a backend that `use` would not read: only simulate hands its chunks to a backend; the
        other use cases run theirs on local worker processes."""
        if self.backend != "loky" or self.scheduler is not None:
            raise DealsimError(
                f"{use} runs its chunks on local worker processes (backend loky); "
                f"the {self.backend} backend is for simulate"
            )


# A simulate run of up to this many deals (or matches) also gets its tables as one file each unless told
# otherwise: above it, the parts alone hold them, so that a big run does not take its disk space twice.
COMBINE_UP_TO = 2_000_000
KEEP = ("tables", "summary")


@dataclass(frozen=True)
class Output:
    """Where the outputs go: `folder` (None: nowhere, the results stay in memory); `force` replaces
    dealsim's outputs in a non-empty folder; `resume` goes on with the run saved there.

    For simulate only: `keep` is "tables" (the parts, FOLDER/parts/deals/..., and the summary) or "summary"
    (only the summary and the manifest, for runs too big to store; without a folder, no table is kept in
    memory either); `combine` also joins each table's parts into one file (FOLDER/deals.parquet), by default
    for runs of up to COMBINE_UP_TO deals."""

    folder: Path | str | None = None
    force: bool = False
    resume: bool = False
    combine: bool | None = None
    keep: str = "tables"

    def __post_init__(self) -> None:
        if self.folder is None and (self.force or self.resume):
            raise DealsimError("force and resume need an output folder")
        if self.force and self.resume:
            raise DealsimError("force replaces a folder's outputs and resume goes on with them: choose one")
        if self.keep not in KEEP:
            raise DealsimError(f"keep is tables or summary, not {self.keep!r}")
        if self.combine and self.keep == "summary":
            raise DealsimError(
                "--combine joins the tables' parts into one file; --keep summary keeps no tables"
            )
        if self.combine is not None and self.folder is None:
            raise DealsimError("--combine and --no-combine say how the -o folder holds the tables: give -o")

    def prepare(self) -> Path | None:
        """The folder, checked (and with force, emptied of dealsim's outputs) before any work; not locked
        (see `claim`)."""
        return prepare_folder(self.folder, self.force, self.resume)

    def claim(self) -> contextlib.AbstractContextManager[Path | None]:
        """The folder prepared as by `prepare` and locked against another run until the block ends."""
        return claimed(self.folder, self.force, self.resume)

    def simulate_only(self, use: str) -> None:
        """Refuse the options of simulate's folder in a use case that does not store its tables that way."""
        if self.combine is not None or self.keep != "tables":
            raise DealsimError(f"combine and keep are simulate's; {use} writes its own files")


def whole(name: str, value: Any, least: int) -> int:
    """`value` as a whole number at least `least`, or an error that names the option."""
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < least:
        raise DealsimError(f"{name} must be a whole number >= {least}, not {value!r}")
    return int(value)


def run_from_manifest(folder: Path | str, game: str | Game | None = None) -> Run:
    """The run recorded in `folder/manifest.json` (written by simulate with an output folder)."""
    folder = Path(folder)
    try:
        m = json.loads((folder / "manifest.json").read_text())
        g = registry.get(m["game"])
        if game is not None and registry.get(game) is not g:
            raise DealsimError(f"{folder} holds a {m['game']} run, not {registry.get(game).name}")
        rules: Any = build(g.rules_cls, "rule", m["rules"], trusted=1)
        run = Run(
            game=g,
            n=int(m["deals"]),
            seed=int(m["seed"]),
            rules=rules,
            seats=tuple(m["seats"][name] for name in g.seat_names(rules)),
            unit=g.unit(m["unit"]),
            chunk_size=int(m["chunk_size"]),
            measures=tuple(m.get("measures", ())),
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DealsimError(f"cannot read the run in {folder}: {type(exc).__name__}: {exc}") from None
    check(run)
    return run
