"""Strategies by spec: a game's own strategies by name, and user strategies from `module:Class`.

A spec names a strategy and its parameters: `heuristic`, `heuristic:threshold=32,base=12`,
`mypackage.mymodule:MyStrategy:weight=2`. Each game lists its strategies in its `Game` (from its module
here: `strategies.fortytwo`, `strategies.rounds`, `strategies.franks_zoo`).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Mapping

from simulator.errors import DealsimError
from simulator.options import build, describe, parse_pairs
from strategies.base import Strategy


def _load_user_class(module: str, cls: str) -> type[Strategy]:
    # The working directory is importable, as with `python -m`, so a strategy file beside the user's
    # data loads from the console script too.
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        found = getattr(importlib.import_module(module), cls)
    except Exception as exc:  # noqa: BLE001 - any failure of user code on import is the user's input error
        raise DealsimError(f"cannot load strategy {module}:{cls}: {type(exc).__name__}: {exc}") from None
    if not (isinstance(found, type) and issubclass(found, Strategy)):
        raise DealsimError(f"{module}:{cls} is not a Strategy subclass")
    if found.decide is Strategy.decide:
        raise DealsimError(f"{module}:{cls} does not implement decide()")
    return found


def _split(spec: str, known: Mapping[str, type[Strategy]]) -> tuple[list[str], str]:
    """(name parts, parameter text): 'heuristic:a=1' -> (['heuristic'], 'a=1'); 'm.x:Cls:a=1' -> (['m.x', 'Cls'], 'a=1')."""
    parts = spec.strip().split(":")
    head_len = 2 if parts[0] not in known and len(parts) >= 2 and parts[1].isidentifier() else 1
    return parts[:head_len], ":".join(parts[head_len:])


def make(game, spec: str) -> Strategy:
    """A strategy instance for `game` (a contract.Game) from its spec text; unknown names and parameters are
    clear errors."""
    known = game.strategies
    head, params = _split(spec, known)
    if len(head) == 1 and head[0] in known:
        cls = known[head[0]]
    elif len(head) == 2:
        cls = _load_user_class(*head)
    else:
        raise DealsimError(
            f"unknown {game.name} strategy {head[0]!r}; known: {', '.join(known)} (or module:Class)"
        )
    what = f"{cls.name or cls.__name__} parameter"
    return build(cls, what, parse_pairs(what, [p for p in params.split(",") if p.strip()]))


def listing(game) -> list[dict]:
    """Name, summary and parameters (with defaults) of each of `game`'s strategies."""
    return [
        {"name": name, "summary": cls.summary, "params": describe(cls)}
        for name, cls in game.strategies.items()
    ]


def with_params(spec: str, params: dict[str, str], game=None) -> str:
    """The spec with these parameters set (replacing any it had): 'heuristic' -> 'heuristic:threshold=30'."""
    head, tail = _split(spec, game.strategies if game is not None else {})
    current = parse_pairs("strategy parameter", [p for p in tail.split(",") if p.strip()])
    current.update(params)
    text = ",".join(f"{k}={v}" for k, v in current.items())
    return ":".join(head) + (f":{text}" if text else "")
