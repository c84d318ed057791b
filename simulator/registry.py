"""The registry of games: a new game is its folder (and its strategies module) plus one line here."""

from __future__ import annotations

from simulator.contract import Game
from simulator.errors import DealsimError
from simulator.fortytwo.game import GAME as FORTY_TWO
from simulator.franks_zoo.game import GAME as FRANKS_ZOO
from simulator.rounds.game import GAME as ROUNDS

GAMES: dict[str, Game] = {g.name: g for g in (FORTY_TWO, ROUNDS, FRANKS_ZOO)}


def get(game: str | Game) -> Game:
    """The game of that name (a Game passes through)."""
    if isinstance(game, Game):
        return game
    if game not in GAMES:
        raise DealsimError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    return GAMES[game]
