"""Frank's Zoo runs: first hands, the per-player-per-hand table, and whole games to the target."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.contract import BatchCore
from simulator.franks_zoo import cards as C
from simulator.franks_zoo import core
from simulator.franks_zoo.rules import FranksZooRules
from simulator.franks_zoo.view import ASK, DONE, KIND_NAMES

ROLE_NAMES = ("alone", "senior", "junior", "solo")
SOURCES = ("placement", "team", "solo_bonus", "lions", "hedgehog", "last_lions")


def _action_name(kind: int, action: int) -> str:
    if kind == 0:
        return f"give {C.KINDS[action]}"
    if action == 0:
        return "pass" if kind == 1 else "decline"
    if kind == 1 and action >= ASK:
        return f"ask for help with {C.set_name(C.PARTIALS[action - ASK])}"
    return C.set_name(C.SETS[action - 1])


def seat_names(rules: FranksZooRules) -> tuple[str, ...]:
    return tuple(str(i) for i in range(rules.players))


def first_hands(rng: np.random.Generator, deals: np.ndarray, rules: FranksZooRules) -> core.HandState:
    """The first hand of a game for each deal number (dealer: deal k % players), about to start."""
    p = rules.players
    dealer = (deals % p).astype(np.int8)
    order = np.tile(np.arange(p, dtype=np.int8), (len(deals), 1))
    return core.new_hands(
        deals,
        np.zeros(len(deals), np.int16),
        dealer,
        core.shuffled_hands(rng, dealer, p),
        order,
        np.zeros((len(deals), p), np.int32),
        rules,
    )


def hand_table(s: core.HandState, rules: FranksZooRules) -> pd.DataFrame:
    """One row per player per finished hand: place, role, partner and points by source."""
    n, p = len(s), rules.players
    points = core.hand_points(s, rules)
    help_asked = (s.move_kind == 1) & (s.move_action >= ASK)
    answered = s.move_kind == 2
    helped = answered & (s.move_action > 0)
    frame = pd.DataFrame(
        {
            "deal": np.repeat(s.deal.astype(np.int32), p),
            "player": np.tile(np.arange(p, dtype=np.int8), n),
            "place": s.place.ravel(),
            "role": pd.Categorical.from_codes(s.role.ravel(), categories=list(ROLE_NAMES)),
            "partner": s.partner.ravel(),
            "dealer": np.repeat(s.dealer, p),
            **{f"points_{k}": points[k].ravel() for k in SOURCES},
            "points": points["total"].ravel(),
            "lions_taken": s.taken[:, :, C.LION].ravel(),
            "hedgehogs_taken": s.taken[:, :, C.HEDGEHOG].ravel(),
            "help_asked": _per_seat(s, help_asked, p).ravel(),
            "help_given": _per_seat(s, helped, p).ravel(),
            "help_declined": _per_seat(s, answered & (s.move_action == 0), p).ravel(),
            "help_won": s.help_won.ravel(),
            "dealt_chameleon": (s.dealt[:, :, C.CHAMELEON] > 0).ravel(),
            "led_first": (np.arange(p)[None, :] == s.first_leader[:, None]).ravel(),
            "total_before": s.scores.ravel(),
        }
    )
    return frame


CORE = BatchCore(
    deal=first_hands,
    inputs=core.inputs,
    packed_inputs=core.packed_inputs,
    apply=core.apply,
    table=hand_table,
    done=DONE,
    kind_names=KIND_NAMES,
    action_name=_action_name,
    phased=False,
)


def _per_seat(s: core.HandState, mask: np.ndarray, p: int) -> np.ndarray:
    """(n, P) how many of the recorded moves in `mask` each seat made."""
    counts = np.zeros((len(s), p), np.int16)
    rows, cols = np.nonzero(mask)
    np.add.at(counts, (rows, s.move_seat[rows, cols].astype(np.intp)), 1)
    return counts


class Games:
    """Frank's Zoo games (the contract's matches): game k's first hand is dealt by seat k % players, each
    next hand by the player first in the standings; a game ends when `end_players` players reach the target,
    won by the first in the standings."""

    max_deals = 200  # a guard only: games end within about a dozen hands

    def __init__(self, games: np.ndarray, rules: FranksZooRules):
        n, p = len(games), rules.players
        self.games, self.rules = games, rules
        self.totals = np.zeros((n, p), np.int32)
        self.order = np.tile(np.arange(p, dtype=np.int8), (n, 1))
        self.winner = np.full(n, -1, np.int8)
        self.first_dealer = (games % p).astype(np.int8)

    def deal(self, rng: np.random.Generator, active: np.ndarray, played: np.ndarray) -> core.HandState:
        hand_no = played[active].astype(np.int16)
        dealer = np.where(hand_no == 0, self.first_dealer[active], self.order[active, 0]).astype(np.int8)
        all_dealers = np.zeros(len(self.games), np.int8)
        all_dealers[active] = dealer
        dealt = core.shuffled_hands(rng, all_dealers, self.rules.players)[active]
        return core.new_hands(
            self.games[active], hand_no, dealer, dealt, self.order[active], self.totals[active], self.rules
        )

    def record(self, active: np.ndarray, out: core.HandState, table: pd.DataFrame) -> np.ndarray:
        self.totals[active] += core.hand_points(out, self.rules)["total"]
        self.order[active] = core.standings(self.totals[active], self.order[active])
        table["total_after"] = self.totals[active].ravel()
        over = (self.totals[active] >= self.rules.target).sum(axis=1) >= self.rules.end_players
        self.winner[active[over]] = self.order[active[over], 0]
        return over

    def table(self, played: np.ndarray) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "match": self.games,
                "first_dealer": self.first_dealer,
                "deals": played,
                "winner": self.winner,
                **{f"final_{i}": self.totals[:, i] for i in range(self.rules.players)},
            }
        )
