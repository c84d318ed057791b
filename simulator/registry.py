"""The registry: every game, and each game's strategies. A new game is its folder, its strategies module
and one line here."""

from __future__ import annotations

from simulator.contract import Game
from simulator.errors import DealsimError
from simulator.fortytwo.game import GAME as FORTY_TWO
from simulator.franks_zoo.game import GAME as FRANKS_ZOO
from simulator.rounds.game import GAME as ROUNDS
from strategies import Roster, fortytwo, franks_zoo, rounds, rounds_expert
from strategies.fortytwo_expert import Expert
from strategies.fortytwo_learned import Learned
from strategies.franks_zoo_expert import Expert as ZooExpert

_ENTRIES = (
    (FORTY_TWO, {**fortytwo.STRATEGIES, Expert.name: Expert, Learned.name: Learned}),
    (ROUNDS, {**rounds.STRATEGIES, **rounds_expert.STRATEGIES}),
    (FRANKS_ZOO, {**franks_zoo.STRATEGIES, ZooExpert.name: ZooExpert}),
)
GAMES: dict[str, Game] = {g.name: g for g, _ in _ENTRIES}
ROSTERS: dict[str, Roster] = {g.name: Roster(g.name, known) for g, known in _ENTRIES}


def get(game: str | Game) -> Game:
    """The game of that name (a Game passes through)."""
    if isinstance(game, Game):
        return game
    if game not in GAMES:
        raise DealsimError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    return GAMES[game]


def roster(game: str | Game) -> Roster:
    """The strategies of a game, by name."""
    name = get(game).name
    if name not in ROSTERS:
        raise DealsimError(f"{name} has no strategies registered")
    return ROSTERS[name]
