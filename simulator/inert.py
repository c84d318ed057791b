"""Settings a run would ignore, refused before any work: a strategy parameter that only some rules let the
strategy use (the heuristic's `plunge_doubles` where the rules have no plunge), and a rule or parameter that
acts only in whole matches given to a run of single deals (`target` with unit deal). Settings that another
option of the same object switches off (`threshold` under `bidder=ladder`) are refused where they are built,
by `simulator.options.build`."""

from __future__ import annotations

from typing import Any

from simulator import registry
from simulator.contract import Game
from simulator.errors import DealsimError
from simulator.options import match_only, refuse_unread


def refuse_inert(game: Game, rules: Any, unit: str, seats: tuple[str, ...]) -> None:
    """One clear error for the first setting of the run that nothing in it reads."""
    if unit == "deal":
        defaults = type(rules)()
        for name in match_only(type(rules)):
            if getattr(rules, name) != getattr(defaults, name):
                raise DealsimError(_match_only(game, f"rule {name}", name))
    roster = registry.roster(game)
    for spec in dict.fromkeys(seats):
        strategy = roster.make(spec)
        given = roster.given(spec)
        what = f"{strategy.name or type(strategy).__name__} parameter"
        refuse_unread(what, given, strategy, "rules_need", rules)
        if unit == "deal":
            for name in set(given) & set(match_only(type(strategy))):
                raise DealsimError(_match_only(game, what + f" {name}", name))


def _match_only(game: Game, what: str, name: str) -> str:
    match = game.words["match"]
    return (
        f"{what} acts only in whole {game.plural('match')} (unit {match}); this run plays single "
        f"{game.plural('deal')}: leave {name} out or play {game.plural('match')}"
    )
