"""Matches: deals played in a row until the rules' target, as every game plays them, and what every game's
matches table comes to.

A game fills `TargetSeries` with its own dealing (who deals the next deal, what it is dealt with) and its
winner rule; the bookkeeping (totals, running totals, winners, the guard against endless matches, the
matches table) is done here once. The standard matches table has one row per match:

    match, first_dealer, deals, winner, final_<side>...

`first_dealer` is a category of seat names; `winner` a category of side names, missing while undecided (a
match abandoned at the guard). Sides are the game's seat groups (Forty-two's NS and EW), else its seats;
`<side>` is the side's name in lower case (`final_ns`, `final_0`). Match measures and the match summary
read only this table, so they are the same for every game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import numpy as np

from simulator.stats import Measure
from simulator.summaries import fmt_mean, fmt_rate, table
from simulator.tallies import mean, rate

if TYPE_CHECKING:
    import pandas as pd

    from simulator.contract import Game

StateT = TypeVar("StateT")


class TargetSeries(ABC, Generic[StateT]):
    """The bookkeeping of a chunk's matches, for the one match loop (`simulator.matches`). Built for the
    chunk's match numbers; every call covers the matches still going (`active`, indices into them)."""

    # a match still undecided after this many deals is abandoned (no winner)
    max_deals: ClassVar[int] = 1000
    # a match abandoned after this many idle deals in a row (deals that leave every total as it was and
    # cannot decide the match: Forty-two's thrown-in hands, which no rule forces to end); None: none are idle
    max_idle_in_a_row: ClassVar[int | None] = None

    def __init__(self, game: Game[Any, Any, Any, Any], matches: np.ndarray, rules: Any):
        n = len(matches)
        self.game, self.matches, self.rules = game, matches, rules
        self.sides = game.side_names(rules)
        self.totals = np.zeros((n, len(self.sides)), np.int32)
        self.winner = np.full(n, -1, np.int8)
        self.first_dealer = self.first_dealers()
        self.idle_run = np.zeros(n, np.int32)

    # --- the game's hooks ------------------------------------------------------------------------------
    def first_dealers(self) -> np.ndarray:
        """Who deals each match's first deal: match k by seat k mod the number of seats."""
        return (self.matches % len(self.game.seat_names(self.rules))).astype(np.int8)

    @abstractmethod
    def deal(self, rng: np.random.Generator, active: np.ndarray, played: np.ndarray) -> StateT:
        """The next deal of each active match, as fresh states. It draws for *every* match of the chunk,
        finished or not, so that deal j of match k is the same whatever happened elsewhere: arms of a
        comparison share their deals. `played` counts the deals each match has played."""

    @abstractmethod
    def winners(self, active: np.ndarray, out: StateT) -> np.ndarray:
        """After the finished deals `out` are booked into `totals`: per active match the side that has now
        won it, or -1 while it goes on."""

    def idle(self, out: StateT) -> np.ndarray | None:
        """Which finished deals were idle (see `max_idle_in_a_row`); None when no deal ever is."""
        return None

    def booked(self, active: np.ndarray, out: StateT) -> None:
        """Called once the deals' scores are in `totals`, before the winners: the game's own bookkeeping
        (standings, say)."""

    def running_totals(self, active: np.ndarray, deals: pd.DataFrame) -> None:
        """Write each side's total after the deal into the deals table: `total_<side>`."""
        for i, side in enumerate(self.sides):
            deals[f"total_{side.lower()}"] = self.totals[active, i]

    # --- shared ---------------------------------------------------------------------------------------
    def record(self, active: np.ndarray, out: StateT, deals: pd.DataFrame) -> np.ndarray:
        """Book the finished deals (adding the running totals to their table in place); True where the
        match is over."""
        self.totals[active] += self.game.scores(out, self.rules)
        self.booked(active, out)
        self.running_totals(active, deals)
        won = self.winners(active, out)
        decided = won >= 0
        self.winner[active[decided]] = won[decided]
        idle = self.idle(out)
        if idle is None or self.max_idle_in_a_row is None:
            return decided
        self.idle_run[active] = np.where(idle, self.idle_run[active] + 1, 0)
        return decided | (self.idle_run[active] >= self.max_idle_in_a_row)

    def table(self, played: np.ndarray) -> pd.DataFrame:
        """One row per match: the standard matches table (see the module's docstring)."""
        import pandas as pd

        seats = list(self.game.seat_names(self.rules))
        return pd.DataFrame(
            {
                "match": self.matches,
                "first_dealer": pd.Categorical.from_codes(self.first_dealer, categories=seats),
                "deals": played,
                "winner": pd.Categorical.from_codes(self.winner, categories=list(self.sides)),
                **{f"final_{side.lower()}": self.totals[:, i] for i, side in enumerate(self.sides)},
            }
        )


def first_dealer_sides(game: Game[Any, Any, Any, Any], matches: pd.DataFrame) -> np.ndarray:
    """The side of each match's first dealer, as an index into the sides (the winner's categories)."""
    seat = matches["first_dealer"].cat.codes.to_numpy().astype(np.intp)
    if not game.groups:
        return seat
    side_of_seat = np.zeros(len(matches["first_dealer"].cat.categories), np.intp)
    for i, seats in enumerate(game.groups.values()):
        side_of_seat[list(seats)] = i
    return side_of_seat[seat]


def match_measures(game: Game[Any, Any, Any, Any], matches: pd.DataFrame, side: int) -> list[Measure]:
    """The measures every game's matches have, for tune and compare: their length, the side's wins, and the
    first dealer's wins."""
    winner = matches["winner"].cat.codes.to_numpy()
    decided = (winner >= 0).astype(float)
    name = matches["winner"].cat.categories[side]
    return [
        Measure(f"{game.plural('deal')} per {game.words['match']}", matches["deals"].to_numpy(float)),
        Measure(
            f"{game.side_label(name)} wins",
            (winner == side).astype(float),
            decided,
            binary=True,
            better="higher",
        ),
        Measure(
            f"{game.first_dealer_words()} wins",
            (winner == first_dealer_sides(game, matches)).astype(float),
            decided,
            binary=True,
        ),
    ]


def match_summary(game: Game[Any, Any, Any, Any], matches: pd.DataFrame) -> dict[str, Any]:
    """The partial summary (tallies) of a matches table: counts, length, wins by side, the first dealer's
    wins and the final totals."""
    winner = matches["winner"].cat.codes.to_numpy()
    decided = int((winner >= 0).sum())
    sides = list(matches["winner"].cat.categories)
    return {
        "matches": len(matches),
        "undecided": len(matches) - decided,
        "deals_per_match": mean(matches["deals"]),
        "wins": {s: rate(int((winner == i).sum()), decided) for i, s in enumerate(sides)},
        "first_dealer_wins": rate(int((winner == first_dealer_sides(game, matches)).sum()), decided),
        "final": {s: mean(matches[f"final_{s.lower()}"]) for s in sides},
    }


def render_matches(game: Game[Any, Any, Any, Any], summary: dict[str, Any]) -> Any:
    """The table of a finished match summary, in the game's words."""
    deal, match = game.words["deal"], game.words["match"]
    rows = [
        [game.plural("match"), f"{summary['matches']:,}"],
        [f"undecided ({deal} limit)", summary["undecided"]],
        [f"{game.plural('deal')} per {match}", fmt_mean(summary["deals_per_match"])],
    ]
    labels = {s: game.side_label(s) for s in summary["wins"]}
    rows += [[f"{labels[s]} wins", fmt_rate(r)] for s, r in summary["wins"].items()]
    rows += [[f"{game.first_dealer_words()} wins", fmt_rate(summary["first_dealer_wins"])]]
    rows += [[f"final score, {labels[s]}", fmt_mean(m)] for s, m in summary["final"].items()]
    return table(game.plural("match").capitalize(), ["", "value"], rows)
