"""Test-only strategies and helpers."""

from __future__ import annotations

import os
import signal
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simulator import driver, matches, registry, signals
from simulator.testing import ViewHash, kth_legal
from strategies.base import Strategy, uniform_choice


def stable_hash(text: str) -> int:
    """A hash that is the same in every process (Python's hash() of a str is salted per process)."""
    return zlib.crc32(text.encode())


def strategy(game: str, spec: str) -> Strategy:
    """A registered strategy of a game by its spec."""
    return registry.roster(game).make(spec)


def play_deals(
    game: str,
    rng: np.random.Generator,
    rngs: Sequence[np.random.Generator],
    deals: np.ndarray,
    rules: Any,
    strategies: Sequence[Any],
) -> Any:
    """Deal and play one deal per deal number through the batched core; the finished states in order."""
    g = registry.get(game)
    return driver.play(g, g.deal(rng, deals, rules), rules, strategies, rngs)


def play_matches(
    game: str,
    rng: np.random.Generator,
    rngs: Sequence[np.random.Generator],
    numbers: np.ndarray,
    rules: Any,
    strategies: Sequence[Any],
    on_deals: Callable[[np.ndarray, Any], None] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Whole matches through the one match loop: (deals table, matches table)."""
    return matches.play_matches(registry.get(game), rng, rngs, numbers, rules, strategies, on_deals)


@dataclass(frozen=True)
class Scrambled(Strategy):
    """Deterministic but random-looking: picks a legal action by a hash of what the seat sees.

    It reaches the states random play reaches (high bids, odd trumps, every follow case) while staying
    a pure function of the view, so the batched core and the reference engine must choose alike."""

    name = "scrambled"
    salt: int = 0

    def decide(self, kind, view, legal, rng):
        h = (
            view.hand.astype(np.uint64) * np.uint64(2654435761)
            + view.played.astype(np.uint64) * np.uint64(40503)
            + view.n_calls.astype(np.uint64) * np.uint64(7919)
            + view.n_played.astype(np.uint64) * np.uint64(104729)
            + view.seat.astype(np.uint64) * np.uint64(31)
            + np.uint64(self.salt + kind)
        )
        h ^= h >> np.uint64(13)
        counts = legal.sum(axis=1)
        k = (h % counts.astype(np.uint64)).astype(np.int64)
        return kth_legal(legal, k)


@dataclass(frozen=True)
class AlwaysBid168(Strategy):
    """Breaks the rules on purpose: bids 168 whatever came before."""

    def decide(self, kind, view, legal, rng):
        return np.full(len(view), 44 if kind == 0 else 0)


@dataclass(frozen=True)
class Fragile(Strategy):
    """ViewHash's play, with a bug that shows on some positions only: it raises on a view whose hash is 0
    modulo `every` (a pure function of the view, so a deal fails the same alone as in its batch)."""

    every: int = 5000

    def decide(self, kind, view, legal, rng):
        h = ViewHash.hashes(view)
        bad = h % np.uint64(self.every) == 0
        if bad.any():
            raise ValueError(f"cannot read position {int(h[bad][0]) % 997}\n(a two-line message)")
        return ViewHash.batched(view, legal)


@dataclass(frozen=True)
class Crowded(Strategy):
    """Fails only on a group of more than one row: no deal fails alone."""

    def decide(self, kind, view, legal, rng):
        if len(view) > 1:
            raise RuntimeError("too many rows")
        return kth_legal(legal, np.zeros(len(view), np.int64))


CALLS = {"n": 0}  # Interrupts' calls in this process (reset by the tests that use it)


@dataclass(frozen=True)
class Interrupts(Strategy):
    """Random play that presses Ctrl-C (raises KeyboardInterrupt) on its call number `after` here."""

    after: int = 100

    def decide(self, kind, view, legal, rng):
        CALLS["n"] += 1
        if CALLS["n"] == self.after:
            raise KeyboardInterrupt
        return uniform_choice(legal, rng)


@dataclass(frozen=True)
class Slow(Strategy):
    """Random play at a crawl that writes into the file named by $DEALSIM_TEST_MARKER how its process handles
    SIGINT (so a test knows that a worker is playing, and whether Ctrl-C would reach it)."""

    def decide(self, kind, view, legal, rng):
        marker = os.environ.get("DEALSIM_TEST_MARKER")
        if marker:
            handler = signal.getsignal(signal.SIGINT)
            mine = Path(f"{marker}.{os.getpid()}")
            mine.write_text("ignored" if handler == signal.SIG_IGN else "handled")
            mine.replace(marker)  # whole or not at all, whoever reads it and whenever this process is stopped
        time.sleep(0.01)
        return uniform_choice(legal, rng)


@dataclass(frozen=True)
class HiddenStop(Strategy):
    """Random play until its call number `after`, where it fails as a compiled kernel does when SIGTERM
    arrives while it runs: numba's dispatcher returns with the handler's exception set, and CPython reports
    a SystemError whose context is the stop."""

    after: int = 20

    def decide(self, kind, view, legal, rng):
        CALLS["n"] += 1
        if CALLS["n"] == self.after:
            try:
                signals._raise(signal.SIGTERM)
            except signals.Stop:
                raise SystemError("CPUDispatcher(<function kernel>) returned a result with an exception set")  # noqa: B904
        return uniform_choice(legal, rng)


@dataclass(frozen=True)
class Dies(Strategy):
    """A strategy whose process ends at once in its first decision (as a crash or the kernel's OOM killer
    would end it): nothing is raised, the worker is simply gone."""

    def decide(self, kind, view, legal, rng):
        os._exit(9)


@dataclass(frozen=True)
class Exits(Strategy):
    """A strategy that calls sys.exit in its first decision."""

    def decide(self, kind, view, legal, rng):
        raise SystemExit(3)


@dataclass(frozen=True)
class BrokenConstructor(Strategy):
    """A strategy whose constructor raises something else than a bad parameter would."""

    def __post_init__(self):
        raise RuntimeError("no table for this one")

    def decide(self, kind, view, legal, rng):
        return uniform_choice(legal, rng)
