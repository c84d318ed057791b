"""Frank's Zoo runs: a chunk of first hands or of whole games, and their per-hand tables."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from simulator import driver
from simulator.franks_zoo import cards as C
from simulator.franks_zoo import core
from simulator.franks_zoo.rules import FranksZooRules
from simulator.franks_zoo.view import ASK, DONE, KIND_NAMES

ROLE_NAMES = ("alone", "senior", "junior", "solo")
SOURCES = ("placement", "team", "solo_bonus", "lions", "hedgehog", "last_lions")
MAX_HANDS_PER_GAME = 200  # a guard only: games end within about a dozen hands


def _action_name(kind: int, action: int) -> str:
    if kind == 0:
        return f"give {C.KINDS[action]}"
    if action == 0:
        return "pass" if kind == 1 else "decline"
    if kind == 1 and action >= ASK:
        return f"ask for help with {C.set_name(C.PARTIALS[action - ASK])}"
    return C.set_name(C.SETS[action - 1])


CORE = driver.CoreSpec(inputs=core.inputs, apply=core.apply, done=DONE, kind_names=KIND_NAMES,
                       seat_names=[str(i) for i in range(7)], action_name=_action_name, phased=False)


def seat_names(rules: FranksZooRules) -> tuple[str, ...]:
    return tuple(str(i) for i in range(rules.players))


def play_first_hands(rng: np.random.Generator, rngs: list[np.random.Generator], deals: np.ndarray,
                     rules: FranksZooRules, strategies: list) -> core.HandState:
    """The first hand of a game for each deal number (dealer: deal k % players); finished states in order."""
    p = rules.players
    dealer = (deals % p).astype(np.int8)
    order = np.tile(np.arange(p, dtype=np.int8), (len(deals), 1))
    state = core.new_hands(deals, np.zeros(len(deals), np.int16), dealer, core.shuffled_hands(rng, dealer, p), order,
                           np.zeros((len(deals), p), np.int32), rules)
    return driver.play(CORE, state, rules, strategies, rngs)


def hand_table(s: core.HandState, rules: FranksZooRules) -> pd.DataFrame:
    """One row per player per finished hand: place, role, partner and points by source."""
    n, p = len(s), rules.players
    points = core.hand_points(s, rules)
    help_asked = (s.move_kind == 1) & (s.move_action >= ASK)
    answered = s.move_kind == 2
    helped = answered & (s.move_action > 0)
    frame = pd.DataFrame({
        "deal": np.repeat(s.deal.astype(np.int32), p), "hand": np.repeat(s.hand_no, p),
        "player": np.tile(np.arange(p, dtype=np.int8), n),
        "place": s.place.ravel(), "role": pd.Categorical.from_codes(s.role.ravel(), categories=list(ROLE_NAMES)),
        "partner": s.partner.ravel(), "dealer": np.repeat(s.dealer, p),
        **{f"points_{k}": points[k].ravel() for k in SOURCES}, "points": points["total"].ravel(),
        "lions_taken": s.taken[:, :, C.LION].ravel(), "hedgehogs_taken": s.taken[:, :, C.HEDGEHOG].ravel(),
        "help_asked": _per_seat(s, help_asked, p).ravel(), "help_given": _per_seat(s, helped, p).ravel(),
        "help_declined": _per_seat(s, answered & (s.move_action == 0), p).ravel(),
        "help_won": s.help_won.ravel(),
        "total_before": s.scores.ravel(),
    })
    return frame


def _per_seat(s: core.HandState, mask: np.ndarray, p: int) -> np.ndarray:
    """(n, P) how many of the recorded moves in `mask` each seat made."""
    counts = np.zeros((len(s), p), np.int16)
    rows, cols = np.nonzero(mask)
    np.add.at(counts, (rows, s.move_seat[rows, cols].astype(np.intp)), 1)
    return counts


def play_games(rng: np.random.Generator, rngs: list[np.random.Generator], games: np.ndarray, rules: FranksZooRules,
               strategies: list, on_hands: Callable[[np.ndarray, core.HandState], None] | None = None,
               ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Whole games, one per game number: the per-player-per-hand table and the per-game table. Each round of
    hands deals to every game of the chunk, finished or not, so hand j of game k is the same in every arm."""
    n, p = len(games), rules.players
    totals = np.zeros((n, p), np.int32)
    order = np.tile(np.arange(p, dtype=np.int8), (n, 1))
    hand_no = np.zeros(n, np.int16)
    winner = np.full(n, -1, np.int8)
    first_dealer = (games % p).astype(np.int8)
    active = np.arange(n)
    parts = []
    while len(active):
        dealer = np.where(hand_no[active] == 0, first_dealer[active], order[active, 0]).astype(np.int8)
        all_dealers = np.zeros(n, np.int8)
        all_dealers[active] = dealer
        dealt = core.shuffled_hands(rng, all_dealers, p)[active]
        state = core.new_hands(games[active], hand_no[active], dealer, dealt, order[active], totals[active], rules)
        out = driver.play(CORE, state, rules, strategies, rngs)
        if on_hands is not None:
            on_hands(games[active], out)
        points = core.hand_points(out, rules)["total"]
        table = hand_table(out, rules).rename(columns={"deal": "game"})
        totals[active] += points
        order[active] = core.standings(totals[active], order[active])
        table["total_after"] = totals[active].ravel()
        parts.append(table)
        hand_no[active] += 1
        over = (totals[active] >= rules.target).sum(axis=1) >= rules.end_players
        winner[active[over]] = order[active[over], 0]
        active = active[~over & (hand_no[active] < MAX_HANDS_PER_GAME)]
    hands = pd.concat(parts, ignore_index=True).sort_values(["game", "hand", "player"], ignore_index=True)
    per_game = pd.DataFrame({"game": games, "first_dealer": first_dealer, "hands": hand_no, "winner": winner,
                             **{f"total_{i}": totals[:, i] for i in range(p)}})
    return hands, per_game
