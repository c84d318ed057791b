"""The strategy registry: every game's strategies by name, and user strategies from `module:Class`.

A spec names a strategy and its parameters: `heuristic`, `heuristic:threshold=32,base=12`,
`mypackage.mymodule:MyStrategy:weight=2`.
"""

from __future__ import annotations

import importlib
import os
import sys

from simulator.errors import DealsimError
from simulator.options import build, describe, parse_pairs
from strategies import fortytwo, franks_zoo, rounds
from strategies.base import Strategy

REGISTRY: dict[str, dict[str, type[Strategy]]] = {
    "forty-two": fortytwo.STRATEGIES,
    "rounds": rounds.STRATEGIES,
    "franks-zoo": franks_zoo.STRATEGIES,
}


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


def make(game: str, spec: str) -> Strategy:
    """A strategy instance from its spec text; unknown names and parameters are clear errors."""
    known = REGISTRY.get(game, {})
    parts = spec.strip().split(":")
    if parts[0] in known:
        cls, params = known[parts[0]], ":".join(parts[1:])
    elif len(parts) >= 2 and parts[1].isidentifier():
        cls, params = _load_user_class(parts[0], parts[1]), ":".join(parts[2:])
    else:
        raise DealsimError(f"unknown {game} strategy {parts[0]!r}; known: {', '.join(known)} "
                           f"(or module:Class)")
    pairs = parse_pairs(f"{cls.name or cls.__name__} parameter", [p for p in params.split(",") if p.strip()])
    strategy = build(cls, f"{cls.name or cls.__name__} parameter", pairs)
    object.__setattr__(strategy, "_spec", spec.strip())
    return strategy


def listing(game: str) -> list[dict]:
    """Name, summary and parameters (with defaults) of each registered strategy of `game`."""
    return [{"name": name, "summary": cls.summary, "params": describe(cls)}
            for name, cls in REGISTRY.get(game, {}).items()]


def with_params(spec: str, params: dict[str, str]) -> str:
    """The spec with these parameters set (replacing any it had): 'heuristic' -> 'heuristic:threshold=30'."""
    parts = spec.strip().split(":")
    head_len = 2 if len(parts) >= 2 and parts[1].isidentifier() and parts[0] not in _all_names() else 1
    head, tail = parts[:head_len], ":".join(parts[head_len:])
    current = parse_pairs("strategy parameter", [p for p in tail.split(",") if p.strip()])
    current.update(params)
    text = ",".join(f"{k}={v}" for k, v in current.items())
    return ":".join(head) + (f":{text}" if text else "")


def _all_names() -> set[str]:
    return {name for strategies in REGISTRY.values() for name in strategies}
