"""Strategies by spec: a game's own strategies by name, and user strategies from `module:Class`.

A spec names a strategy and its parameters: `heuristic`, `heuristic:threshold=32,base=12`,
`mypackage.mymodule:MyStrategy:weight=2`. A game's own strategies are bound to it in one place, the game
registry (`simulator.registry`), as a `Roster`: the game folders never import their strategies, so each sits
in one layer below them.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from simulator.errors import DealsimError, StrategyError, exception_text
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
        raise DealsimError(f"cannot load strategy {module}:{cls}: {exception_text(exc)}") from exc
    except SystemExit as exc:
        raise StrategyError(
            f"cannot load strategy {module}:{cls}: importing {module} called {exception_text(exc)}"
        ) from exc
    if not (isinstance(found, type) and issubclass(found, Strategy)):
        raise DealsimError(f"{module}:{cls} is not a Strategy subclass")
    if found.decide is Strategy.decide:
        raise DealsimError(f"{module}:{cls} does not implement decide()")
    return found


def _split(spec: str, known: Mapping[str, type[Strategy]]) -> tuple[list[str], str]:
    """(name parts, parameter text): 'heuristic:a=1' -> (['heuristic'], 'a=1');
    'm.x:Cls:a=1' -> (['m.x', 'Cls'], 'a=1')."""
    parts = spec.strip().split(":")
    head_len = 2 if parts[0] not in known and len(parts) >= 2 and parts[1].isidentifier() else 1
    return parts[:head_len], ":".join(parts[head_len:])


@dataclass(frozen=True)
class Roster:
    """One game's strategies by name: what `--seat SEAT=SPEC` may name for it (besides `module:Class`)."""

    game: str  # the game's name, for errors
    known: Mapping[str, type[Strategy]]

    def make(self, spec: str) -> Strategy:
        """A strategy instance from its spec text; unknown names and parameters are clear errors."""
        head, params = _split(spec, self.known)
        if len(head) == 1 and head[0] in self.known:
            cls = self.known[head[0]]
        elif len(head) == 2:
            cls = _load_user_class(*head)
        else:
            raise DealsimError(
                f"unknown {self.game} strategy {head[0]!r}; known: {', '.join(self.known)} (or module:Class)"
            )
        what = f"{cls.name or cls.__name__} parameter"
        values = parse_pairs(what, [p for p in params.split(",") if p.strip()])
        try:
            return build(cls, what, values)
        except DealsimError:
            raise
        except Exception as exc:  # noqa: BLE001 - user code: a failing constructor is one line, not a traceback
            raise DealsimError(f"strategy {spec.strip()!r} could not be made: {exception_text(exc)}") from exc
        except SystemExit as exc:
            raise StrategyError(
                f"strategy {spec.strip()!r} could not be made: its constructor called {exception_text(exc)}"
            ) from exc

    def given(self, spec: str) -> list[str]:
        """The names of the parameters the spec sets: 'heuristic:margin=2,base=8' -> ['margin', 'base']."""
        _, params = _split(spec, self.known)
        return list(parse_pairs("strategy parameter", [p for p in params.split(",") if p.strip()]))

    def listing(self) -> list[dict[str, Any]]:
        """Name, summary and parameters (with defaults) of each strategy."""
        return [
            {"name": name, "summary": cls.summary, "params": describe(cls)}
            for name, cls in self.known.items()
        ]

    def with_params(self, spec: str, params: Mapping[str, str]) -> str:
        """The spec with these parameters set (replacing any it had):
        'heuristic' -> 'heuristic:threshold=30'."""
        return with_params(spec, params, self.known)

    def without(self, spec: str, names: Collection[str]) -> str:
        """The spec less these parameters: 'heuristic:count=false,ask=false' without count ->
        'heuristic:ask=false'."""
        head, tail = _split(spec, self.known)
        current = parse_pairs("strategy parameter", [p for p in tail.split(",") if p.strip()])
        text = ",".join(f"{k}={v}" for k, v in current.items() if k not in names)
        return ":".join(head) + (f":{text}" if text else "")


def with_params(
    spec: str, params: Mapping[str, str], known: Mapping[str, type[Strategy]] | None = None
) -> str:
    """The spec with these parameters set (replacing any it had); `known` names the game's own strategies,
    which tell a strategy's name from a user module's (`heuristic:a=1` against `mymod:Cls:a=1`)."""
    head, tail = _split(spec, known or {})
    current = parse_pairs("strategy parameter", [p for p in tail.split(",") if p.strip()])
    current.update(params)
    text = ",".join(f"{k}={v}" for k, v in current.items())
    return ":".join(head) + (f":{text}" if text else "")
