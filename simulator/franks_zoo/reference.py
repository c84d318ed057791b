"""The scalar reference engine for Frank's Zoo: `the Frank's Zoo rules`, one decision at a time.

This module is the oracle the fast batched core is tested against, move for move, so it is written from the
rules file alone and says each rule the way the file says it, in plain Python. From `cards` it takes only
the encoding: the kinds and their names, the deck, and the SETS / PARTIALS tables whose row numbers are the
action numbers. Who beats whom (table 2 of the rules), set sizes, which set beats which and which set
completes a junior's laid cards are all worked out here.

Conventions (shared with the batched core):
- seats 0..N-1 clockwise; the next seat is (s + 1) % N;
- a hand (and any group of cards) is a list of 13 counts, one per kind (cards.KINDS order);
- a set or partial "row" is (kind, real, chameleon, mosquito): `real` cards of `kind`, the chameleon (0/1)
  as one more card of that kind, a mosquito (0/1) counting as an elephant;
- standings ("order") are a list of seats, best first; before the first hand it is [0, 1, ..., N-1].

A strategy is any object with `decide(kind, view, legal, rng) -> np.ndarray of shape (1,)`, where kind is
EXCHANGE, PLAY or ANSWER, `view` a one-row `FranksZooView` and `legal` a (1, N_ACTIONS[kind]) bool mask.
The engine never repairs a choice: an action outside the mask raises `IllegalAction`.

Points the rules file leaves to the engine, decided here (the batched core does the same):
- while the senior decides his ANSWER, the junior's laid cards still count as his (in `counts`) and are not
  in `played`; `asked` names them. They leave his hand only if the senior completes the set;
- `played` counts every card of every set played face up this hand (a helped set in full);
- if a helped set takes the last cards of both partners and nobody else holds cards, the junior gets place
  N-1 and the senior place N (the order of going out); the table goes to the junior;
- a solo player who sets aside his whole hand (possible only with 7 players and exchange_cards = 8) is out
  at once, before the first lead, with the next place (1);
- the cards still on the table when the hand ends are recorded as a last trick (`ended_hand` = True) taken
  by the player of the last set;
- `taken` includes the solo player's set-aside cards (they count as cards he took); `set_aside` lists them
  again on their own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulator.errors import DealsimError
from simulator.franks_zoo.cards import (
    CHAMELEON,
    CROCODILE,
    DECK,
    ELEPHANT,
    FISH,
    FOX,
    HEDGEHOG,
    KINDS,
    LION,
    MOSQUITO,
    MOUSE,
    N_KINDS,
    N_PARTIALS,
    N_SETS,
    PARTIALS,
    PERCH,
    POLAR_BEAR,
    SEAL,
    SETS,
    WHALE,
    set_cards,
    set_name,
)
from simulator.franks_zoo.rules import FranksZooRules
from simulator.franks_zoo.view import (
    ALONE,
    ANSWER,
    ASK,
    EXCHANGE,
    JUNIOR,
    KIND_NAMES,
    MAX_PLAYERS,
    N_ACTIONS,
    PASS,
    PLAY,
    SENIOR,
    SOLO,
    FranksZooView,
    placement_points,
)
from simulator.scalar import MatchRecord, MatchRules, Referee
from simulator.scalar import play_match as play_deals_to_target

Row = Sequence[int]  # (kind, real, chameleon, mosquito)
Cards = Sequence[int]  # 13 counts, one per kind

DECK_COUNTS: list[int] = [int(c) for c in DECK]
N_CARDS = sum(DECK_COUNTS)  # 60
ROLE_NAMES = ("alone", "senior", "junior", "solo")

# Table 2 of the rules: the kind on the table -> the kinds that beat it at equal size.
# The relation is not an order (mouse > elephant > fox > mouse); no kind beats itself; the chameleon is
# never a kind of its own.
BEATEN_BY: dict[int, tuple[int, ...]] = {
    WHALE: (),
    ELEPHANT: (MOUSE,),
    CROCODILE: (ELEPHANT,),
    POLAR_BEAR: (ELEPHANT, WHALE),
    LION: (ELEPHANT,),
    SEAL: (POLAR_BEAR, WHALE),
    FOX: (ELEPHANT, CROCODILE, POLAR_BEAR, LION),
    PERCH: (SEAL, POLAR_BEAR, CROCODILE, WHALE),
    HEDGEHOG: (FOX,),
    FISH: (PERCH, SEAL, CROCODILE, WHALE),
    MOUSE: (CROCODILE, POLAR_BEAR, LION, SEAL, FOX, HEDGEHOG),
    MOSQUITO: (HEDGEHOG, FISH, MOUSE),
}


# ---------------------------------------------------------------------------------------------------------
# Records


@dataclass
class Trick:
    """One trick: who led it, every turn in it, and who took its cards."""

    leader: int  # the seat that led it (after any skipped leader)
    taker: int  # the seat that took its cards (the player of its last set)
    cards: list[int]  # the cards taken, 13 counts
    plays: list[tuple[int, int, int]]  # (seat, PLAY action, the senior's ANSWER action or -1), in order
    skipped: list[int]  # seats passed over for its lead (holding only the chameleon)
    ended_hand: bool = False  # the hand ended in it: its cards went to the last set's player


@dataclass
class HandRecord:
    """Everything that happened in one hand, and its score by source."""

    hand_no: int  # 0 for the first hand of the game
    dealer: int
    leader: int  # the seat that was to lead the first trick
    order: list[int]  # the standings before this hand, best first
    scores: list[int]  # the game totals before this hand, per seat
    hands: list[list[int]]  # the hands as dealt, per seat (13 counts)
    roles: list[int]  # ALONE, SENIOR, JUNIOR or SOLO per seat
    partners: list[int]  # each seat's partner, -1 for none
    exchanged: list[list[int]]  # the hands after the exchange (= as dealt in the first hand)
    set_aside: list[list[int]]  # cards each seat set aside (only the solo player's are not 0)
    moves: list[tuple[int, int, int]]  # (decision kind, seat, action) in decision order
    tricks: list[Trick]
    places: list[int]  # each seat's place, 1 = first out, N = last
    out_order: list[int]  # seats in the order they went out (the last player at the end)
    taken: list[list[int]]  # cards each seat took (tricks + set-aside cards), 13 counts
    held: list[list[int]]  # cards each seat still held when the hand ended
    placement: list[int]  # points by source, per seat: own placement points
    team: list[int]  # the partner's placement points
    solo_bonus: list[int]
    lions: list[int]  # +1 per lion taken, with at least lion_min of them
    hedgehog: list[int]  # -1 by the hedgehog rule in force
    last_lions: list[int]  # the last player: -1 per lion still in his hand
    total: list[int]  # the hand's score per seat (the sources added up)

    @property
    def points(self) -> dict[str, list[int]]:
        """The points per seat by source ('placement', 'team', 'solo_bonus', 'lions', 'hedgehog',
        'last_lions') and their 'total'."""
        return {source: list(getattr(self, source)) for source in (*POINT_SOURCES, "total")}

    def totals_added(self) -> tuple[int, ...]:
        return tuple(self.total)

    def outcome(self) -> tuple[int, ...]:
        """Each seat's place, then its points by source (placement, team, solo bonus, lions, hedgehog, last
        player's lions, total)."""
        return (*self.places, *[x for source in self.points.values() for x in source])

    def to_dict(self) -> dict[str, Any]:
        return hand_to_dict(self)

    def text(self, rules: Any = None) -> str:
        return format_hand(self)


# ---------------------------------------------------------------------------------------------------------
# Cards and sets


def beats_kind(a: int, b: int) -> bool:
    """Whether kind `a` beats kind `b` at equal size (table 2 of the rules)."""
    return a in BEATEN_BY.get(b, ())


def set_kind(row: Row) -> int:
    """The kind a set counts as: its animal (elephants with a mosquito are elephants)."""
    return int(row[0])


def set_size(row: Row) -> int:
    """How many cards a set (or partial) is: its real cards, the chameleon and a mosquito all count."""
    return int(row[1]) + int(row[2]) + int(row[3])


def is_set(row: Row) -> bool:
    """Whether (kind, real, chameleon, mosquito) is a set that can be played.

    One kind (not the chameleon), at least one real card of it (the chameleon is never alone; a mosquito
    counts as an elephant only beside a real elephant), at most the deck's cards of it, at most one
    chameleon, and at most one mosquito, only in an elephant set.
    """
    kind, real, chameleon, mosquito = (int(x) for x in row)
    if not 0 <= kind < N_KINDS or kind == CHAMELEON:
        return False
    if not 1 <= real <= DECK_COUNTS[kind]:
        return False
    if chameleon not in (0, 1) or mosquito not in (0, 1):
        return False
    return mosquito == 0 or kind == ELEPHANT


def beats(table_row: Row, row: Row) -> bool:
    """Whether set `row` may be played on set `table_row`.

    Either (a) the same kind with exactly one card more, or (b) exactly the same number of cards of a kind
    that beats the table's kind. Nothing else: not two more, not a larger set of a predator.
    """
    same_kind_one_more = set_kind(row) == set_kind(table_row) and set_size(row) == set_size(table_row) + 1
    predator_same_size = set_size(row) == set_size(table_row) and beats_kind(
        set_kind(row), set_kind(table_row)
    )
    return same_kind_one_more or predator_same_size


def completes(partial_row: Row, set_row: Row) -> bool:
    """Whether set `set_row` can be made from the laid cards `partial_row` plus at least one more card.

    Same kind, at least as many real cards, the chameleon and a mosquito each at least as in the partial,
    and strictly more cards in all.
    """
    return (
        set_kind(set_row) == set_kind(partial_row)
        and set_row[1] >= partial_row[1]
        and set_row[2] >= partial_row[2]
        and set_row[3] >= partial_row[3]
        and set_size(set_row) > set_size(partial_row)
    )


def holds(hand: Cards, cards: Cards) -> bool:
    """Whether `hand` holds every card of `cards` (both 13 counts)."""
    return all(hand[k] >= cards[k] for k in range(N_KINDS))


def row_cards(row: Row) -> list[int]:
    """The 13 counts a set or partial row takes from a hand."""
    return [int(c) for c in set_cards(np.asarray(row))]


def difference(set_row: Row, partial_row: Row) -> list[int]:
    """The cards the senior adds: the completed set minus the junior's laid cards (13 counts)."""
    full, laid = row_cards(set_row), row_cards(partial_row)
    return [full[k] - laid[k] for k in range(N_KINDS)]


SET_ROWS: list[tuple[int, int, int, int]] = [tuple(int(x) for x in row) for row in SETS]
PARTIAL_ROWS: list[tuple[int, int, int, int]] = [tuple(int(x) for x in row) for row in PARTIALS]
SET_INDEX = {row: s for s, row in enumerate(SET_ROWS)}
PARTIAL_INDEX = {row: p for p, row in enumerate(PARTIAL_ROWS)}
_SET_CARDS = [row_cards(row) for row in SET_ROWS]
_PARTIAL_CARDS = [row_cards(row) for row in PARTIAL_ROWS]
_SET_NEEDS = [[(k, c) for k, c in enumerate(cards) if c] for cards in _SET_CARDS]
_PARTIAL_NEEDS = [[(k, c) for k, c in enumerate(cards) if c] for cards in _PARTIAL_CARDS]
# Lookups built once from the rule functions above, only to keep the loops short.
_BEATERS_LIST = [[s for s in range(N_SETS) if beats(SET_ROWS[t], SET_ROWS[s])] for t in range(N_SETS)]
_BEATERS_OF = [set(beaters) for beaters in _BEATERS_LIST]
_COMPLETIONS_OF = [
    [s for s in range(N_SETS) if completes(PARTIAL_ROWS[p], SET_ROWS[s])] for p in range(N_PARTIALS)
]


def set_index(kind: int, real: int, chameleon: int = 0, mosquito: int = 0) -> int:
    """The cards.SETS row number of a set (PLAY action 1 + it)."""
    key = (kind, real, chameleon, mosquito)
    if key not in SET_INDEX:
        raise DealsimError(f"no such set: {key}")
    return SET_INDEX[key]


def partial_index(kind: int, real: int, chameleon: int = 0, mosquito: int = 0) -> int:
    """The cards.PARTIALS row number of laid cards (PLAY action ASK + it)."""
    key = (kind, real, chameleon, mosquito)
    if key not in PARTIAL_INDEX:
        raise DealsimError(f"no such partial: {key}")
    return PARTIAL_INDEX[key]


# ---------------------------------------------------------------------------------------------------------
# Legal decisions


def legal_exchanges(hand: Cards) -> list[int]:
    """EXCHANGE actions: any kind the player holds (one card of it is given or set aside)."""
    return [k for k in range(N_KINDS) if hand[k] > 0]


def _holds_needs(hand: Cards, needs: list[tuple[int, int]]) -> bool:
    """`holds` for cards given as their non-zero (kind, count) pairs (a set has at most three)."""
    return all(hand[k] >= count for k, count in needs)


def legal_plays(hand: Cards, table: int, can_ask: bool = False) -> list[int]:
    """PLAY actions open to a player holding `hand`, with set `table` (SETS index) on the table, -1 on a lead.

    On a lead: any set he holds (no pass, no help). Otherwise: pass; any set he holds that beats the table;
    and, if he may ask for help (`can_ask`), any partial he holds that some set completes and that set
    beats the table.
    """
    if table < 0:
        return [1 + s for s in range(N_SETS) if _holds_needs(hand, _SET_NEEDS[s])]
    legal = [PASS]
    legal.extend(1 + s for s in _BEATERS_LIST[table] if _holds_needs(hand, _SET_NEEDS[s]))
    if can_ask:
        legal.extend(
            ASK + p
            for p in range(N_PARTIALS)
            if _holds_needs(hand, _PARTIAL_NEEDS[p])
            and any(s in _BEATERS_OF[table] for s in _COMPLETIONS_OF[p])
        )
    return legal


def legal_answers(hand: Cards, table: int, asked: int) -> list[int]:
    """ANSWER actions of a senior holding `hand` whose junior laid partial `asked` on set `table`.

    Decline (0), or 1 + s for each set s that completes the laid cards, beats the table, and whose
    remaining cards (s minus the laid cards) the senior holds.
    """
    legal = [0]
    for s in _COMPLETIONS_OF[asked]:
        if s in _BEATERS_OF[table] and holds(hand, difference(SET_ROWS[s], PARTIAL_ROWS[asked])):
            legal.append(1 + s)
    return legal


def may_ask_help(
    seat: int,
    hand_no: int,
    roles: Sequence[int],
    partners: Sequence[int],
    held: Sequence[Cards],
    rules: FranksZooRules,
) -> bool:
    """Whether `seat`, on his turn with a set to beat, may ask for help: from the second hand on, with
    `help` on, a junior whose senior still holds cards."""
    if hand_no < 1 or not rules.help or roles[seat] != JUNIOR:
        return False
    return sum(held[partners[seat]]) > 0


def has_set(hand: Cards) -> bool:
    """Whether a hand holds any set (a hand of only the chameleon holds none)."""
    return any(hand[k] > 0 for k in range(N_KINDS) if k != CHAMELEON)


# ---------------------------------------------------------------------------------------------------------
# Deal, standings, teams


def deal_sizes(n: int, dealer: int) -> list[int]:
    """Cards each seat is dealt: 60 // N each, one more for the first 60 % N seats after the dealer."""
    sizes = [N_CARDS // n] * n
    for i in range(N_CARDS % n):
        sizes[(dealer + 1 + i) % n] += 1
    return sizes


def standings(totals: Sequence[int], before: Sequence[int]) -> list[int]:
    """Seats best first: by total, highest first; on equal totals the seat that stood worse in `before`
    (the standings before this hand) ranks higher."""
    position = {seat: i for i, seat in enumerate(before)}
    return sorted(range(len(totals)), key=lambda seat: (-totals[seat], -position[seat]))


def team_size_k(n: int) -> int:
    """K = ceil(N/2): rank i partners rank i + K."""
    return math.ceil(n / 2)


def team_pairs(order: Sequence[int], n: int) -> list[tuple[int, int]]:
    """(senior, junior) seats of each team, the team of the best-ranked senior first.

    With 1-based ranks, rank i partners rank i + K (K = ceil(N/2)); the better-ranked is the senior.
    """
    k = team_size_k(n)
    return [(order[i], order[i + k]) for i in range(n - k)]


def solo_seat(order: Sequence[int], n: int) -> int | None:
    """The seat playing solo (the middle rank K with an odd number of players), else None."""
    if n % 2 == 0:
        return None
    return order[team_size_k(n) - 1]


def teams(order: Sequence[int], n: int) -> tuple[list[int], list[int]]:
    """(roles, partners) per seat from the standings: SENIOR / JUNIOR / SOLO, partner seat or -1."""
    roles = [ALONE] * n
    partners = [-1] * n
    for senior, junior in team_pairs(order, n):
        roles[senior], roles[junior] = SENIOR, JUNIOR
        partners[senior], partners[junior] = junior, senior
    solo = solo_seat(order, n)
    if solo is not None:
        roles[solo] = SOLO
    return roles, partners


def game_over(totals: Sequence[int], rules: FranksZooRules) -> bool:
    """After a hand: at least `end_players` players have at least `target` points."""
    return sum(1 for t in totals if t >= rules.target) >= rules.end_players


# ---------------------------------------------------------------------------------------------------------
# Scoring


POINT_SOURCES = ("placement", "team", "solo_bonus", "lions", "hedgehog", "last_lions")


def hand_points(
    places: Sequence[int],
    taken: Sequence[Cards],
    held: Sequence[Cards],
    roles: Sequence[int],
    partners: Sequence[int],
    hand_no: int,
    rules: FranksZooRules,
) -> dict[str, list[int]]:
    """A hand's points per seat by source, and their "total".

    Placement points: N for the first out, one less for each next, 0 for the last. The first hand scores
    only those. From the second hand: a team member also scores his partner's placement points; the solo
    player scores `solo_bonus`; each player individually, from the cards he took (tricks and set-aside
    cards): +1 per lion with at least `lion_min` lions; hedgehog_penalty "captured": -1 with at least one
    hedgehog, "missing": -1 with none; the last player -1 per lion still in his hand.
    """
    n = len(places)
    own = [int(placement_points(places[seat], n)) for seat in range(n)]
    points = {source: [0] * n for source in POINT_SOURCES}
    points["placement"] = own
    if hand_no >= 1:
        for seat in range(n):
            if roles[seat] in (SENIOR, JUNIOR):
                points["team"][seat] = own[partners[seat]]
            if roles[seat] == SOLO:
                points["solo_bonus"][seat] = rules.solo_bonus
            lions = taken[seat][LION]
            if lions >= rules.lion_min:
                points["lions"][seat] = lions
            hedgehogs = taken[seat][HEDGEHOG]
            if rules.hedgehog_penalty == "captured":
                points["hedgehog"][seat] = -1 if hedgehogs >= 1 else 0
            elif rules.hedgehog_penalty == "missing":
                points["hedgehog"][seat] = -1 if hedgehogs == 0 else 0
            else:
                raise DealsimError(f"unknown hedgehog_penalty {rules.hedgehog_penalty!r}")
            if places[seat] == n:
                points["last_lions"][seat] = -held[seat][LION]
    points["total"] = [sum(points[source][seat] for source in POINT_SOURCES) for seat in range(n)]
    return points


# ---------------------------------------------------------------------------------------------------------
# Views and decisions


def _padded(values: Sequence[int], fill: int, dtype: Any) -> np.ndarray:
    """One row of per-seat values padded to MAX_PLAYERS seats."""
    row = np.full((1, MAX_PLAYERS), fill, dtype=dtype)
    row[0, : len(values)] = values
    return row


@dataclass(frozen=True)
class HandInPlay:
    """The hand outside the trick, as the views are made from it: its number (0 for the game's first),
    every seat's cards (a count per kind; a view shows the deciding seat's own, the others only as counts),
    each seat's place (0 while it holds cards), role and partner (-1 for none), the game totals before this
    hand and the cards of each kind played face up so far."""

    hand_no: int
    held: Sequence[Cards]
    places: Sequence[int]
    roles: Sequence[int]
    partners: Sequence[int]
    scores: Sequence[int]
    played: Cards


@dataclass(frozen=True)
class TrickInPlay:
    """The trick in progress: the set on the table (cards.SETS index, -1 for none) and who played it (-1),
    who led (-1 during the exchange), the passes in a row since, and the partial the junior laid
    (cards.PARTIALS index) for the senior's answer, else -1."""

    table: int
    table_player: int
    leader: int
    passes: int
    asked: int


def make_view(
    *,
    seat: int,
    hand: HandInPlay,
    trick: TrickInPlay,
    given: Cards,
    received: Cards,
    rules: FranksZooRules,
) -> FranksZooView:
    """A one-row `FranksZooView` of the hand as `seat` sees it (given and received: the cards the seat gave
    or set aside and received in this hand's exchange). Per-seat fields are padded to 7 seats with 0, the
    partners with -1."""
    held = hand.held
    n = len(held)
    return FranksZooView(
        rules=rules,
        seat=np.array([seat], dtype=np.int8),
        players=np.array([n], dtype=np.int8),
        hand_no=np.array([hand.hand_no], dtype=np.int16),
        hand=np.array([list(held[seat])], dtype=np.int8),
        counts=_padded([sum(h) for h in held], 0, np.int8),
        table=np.array([trick.table], dtype=np.int16),
        table_player=np.array([trick.table_player], dtype=np.int8),
        leader=np.array([trick.leader], dtype=np.int8),
        passes=np.array([trick.passes], dtype=np.int8),
        asked=np.array([trick.asked], dtype=np.int16),
        place=_padded(hand.places, 0, np.int8),
        role=_padded(hand.roles, 0, np.int8),
        partner=_padded(hand.partners, -1, np.int8),
        scores=_padded(hand.scores, 0, np.int32),
        played=np.array([list(hand.played)], dtype=np.int8),
        given=np.array([list(given)], dtype=np.int8),
        received=np.array([list(received)], dtype=np.int8),
    )


def describe_move(kind: int, action: int) -> str:
    """A decision in words: 'give mouse', 'pass', 'play 2 mouse', 'ask for help laying 1 hedgehog',
    'decline', 'complete to 2 hedgehog'."""
    if not 0 <= kind < len(N_ACTIONS) or not 0 <= action < N_ACTIONS[kind]:
        name = KIND_NAMES[kind] if 0 <= kind < len(KIND_NAMES) else f"kind {kind}"
        limit = N_ACTIONS[kind] - 1 if 0 <= kind < len(N_ACTIONS) else "?"
        return f"{name} action {action} (out of range 0..{limit})"
    if kind == EXCHANGE:
        return f"give {KINDS[action]}"
    if kind == PLAY:
        if action == PASS:
            return "pass"
        if action <= N_SETS:
            return f"play {set_name(SET_ROWS[action - 1])}"
        return f"ask for help laying {set_name(PARTIAL_ROWS[action - ASK])}"
    if action == 0:
        return "decline"
    return f"complete to {set_name(SET_ROWS[action - 1])}"


REFEREE = Referee(KIND_NAMES, N_ACTIONS, describe_move, lambda seat: f"at seat {seat}")


def _check_deal(hands: Sequence[Cards], n: int) -> list[list[int]]:
    """The dealt hands as lists of ints: N hands of 13 counts, each holding a card, 60 cards in all."""
    if len(hands) != n:
        raise DealsimError(f"a Frank's Zoo deal for {n} players is {n} hands, got {len(hands)}")
    dealt = [[int(c) for c in hand] for hand in hands]
    if any(len(hand) != N_KINDS or min(hand) < 0 for hand in dealt):
        raise DealsimError("a Frank's Zoo hand is 13 non-negative counts, one per kind")
    if any(sum(hand) == 0 for hand in dealt):
        raise DealsimError("every player must be dealt at least one card")
    per_kind = [sum(hand[k] for hand in dealt) for k in range(N_KINDS)]
    if per_kind != DECK_COUNTS:
        raise DealsimError(
            f"a Frank's Zoo deal holds each card of the deck once: per kind {DECK_COUNTS}, got {per_kind}"
        )
    return dealt


# ---------------------------------------------------------------------------------------------------------
# A hand and a game


class _Hand:
    """The state of a hand in play, and the moves that change it."""

    def __init__(
        self,
        dealt: list[list[int]],
        hand_no: int,
        scores: list[int],
        roles: list[int],
        partners: list[int],
        rules: FranksZooRules,
        strategies: Sequence[Any],
        rng: np.random.Generator | None,
    ):
        n = len(dealt)
        self.n = n
        self.hand_no = hand_no
        self.scores = scores
        self.roles = roles
        self.partners = partners
        self.rules = rules
        self.strategies = strategies
        self.rng = rng
        self.held = [list(hand) for hand in dealt]
        self.taken = [[0] * N_KINDS for _ in range(n)]
        self.set_aside = [[0] * N_KINDS for _ in range(n)]
        self.given = [[0] * N_KINDS for _ in range(n)]
        self.received = [[0] * N_KINDS for _ in range(n)]
        self.played = [0] * N_KINDS
        self.places = [0] * n
        self.out_order: list[int] = []
        self.moves: list[tuple[int, int, int]] = []
        # The trick in progress (what the views show).
        self.leader = -1
        self.table = -1
        self.table_player = -1
        self.passes = 0

    # -- who holds cards

    def holds_cards(self, seat: int) -> bool:
        return sum(self.held[seat]) > 0

    def holders(self) -> list[int]:
        return [seat for seat in range(self.n) if self.holds_cards(seat)]

    def next_holder(self, seat: int) -> int:
        """The first seat clockwise after `seat` that holds cards."""
        for step in range(1, self.n + 1):
            other = (seat + step) % self.n
            if self.holds_cards(other):
                return other
        raise DealsimError("internal error: nobody holds cards")

    def go_out_if_empty(self, seat: int) -> None:
        """A player who has played his last card is out: he gets the next place."""
        if not self.holds_cards(seat) and self.places[seat] == 0:
            self.out_order.append(seat)
            self.places[seat] = len(self.out_order)

    # -- decisions

    def decide(self, kind: int, seat: int, legal: list[int], asked: int = -1) -> int:
        hand = HandInPlay(
            hand_no=self.hand_no,
            held=self.held,
            places=self.places,
            roles=self.roles,
            partners=self.partners,
            scores=self.scores,
            played=self.played,
        )
        trick = TrickInPlay(
            table=self.table,
            table_player=self.table_player,
            leader=self.leader,
            passes=self.passes,
            asked=asked,
        )
        view = make_view(
            seat=seat,
            hand=hand,
            trick=trick,
            given=self.given[seat],
            received=self.received[seat],
            rules=self.rules,
        )
        action = REFEREE.decide(self.strategies[seat], kind, seat, view, legal, self.rng)
        self.moves.append((kind, seat, action))
        return action

    # -- the exchange

    def give(self, seat: int, count: int) -> list[int]:
        """`seat` gives (or sets aside) `count` cards, one EXCHANGE decision each; returns them."""
        cards = [0] * N_KINDS
        for _ in range(count):
            kind = self.decide(EXCHANGE, seat, legal_exchanges(self.held[seat]))
            self.held[seat][kind] -= 1
            self.given[seat][kind] += 1
            cards[kind] += 1
        return cards

    def receive(self, seat: int, cards: list[int]) -> None:
        for k in range(N_KINDS):
            self.held[seat][k] += cards[k]
            self.received[seat][k] += cards[k]

    def exchange(self, order: Sequence[int]) -> None:
        """Team by team (best senior first): the junior gives his cards, the senior takes them, gives his,
        the junior takes them. Then the solo player sets his aside (they count as taken)."""
        x = self.rules.exchange_cards
        for senior, junior in team_pairs(order, self.n):
            self.receive(senior, self.give(junior, x))
            self.receive(junior, self.give(senior, x))
        solo = solo_seat(order, self.n)
        if solo is not None:
            cards = self.give(solo, x)
            for k in range(N_KINDS):
                self.set_aside[solo][k] += cards[k]
                self.taken[solo][k] += cards[k]

    # -- play

    def lay(self, seat: int, cards: Sequence[int], trick_cards: list[int]) -> None:
        """Cards leave `seat`'s hand face up onto the trick."""
        for k in range(N_KINDS):
            self.held[seat][k] -= cards[k]
            trick_cards[k] += cards[k]
            self.played[k] += cards[k]

    def play_trick(self, lead_from: int) -> Trick:
        """Play one trick, led by `lead_from` or, if he is out, the next player clockwise holding cards;
        a leader holding only the chameleon is passed over without a decision."""
        seat = lead_from if self.holds_cards(lead_from) else self.next_holder(lead_from)
        skipped = []
        while not has_set(self.held[seat]):
            skipped.append(seat)
            seat = self.next_holder(seat)
        trick_cards = [0] * N_KINDS
        plays: list[tuple[int, int, int]] = []
        self.leader, self.table, self.table_player, self.passes = seat, -1, -1, 0

        action = self.decide(PLAY, seat, legal_plays(self.held[seat], -1))
        self.lay(seat, _SET_CARDS[action - 1], trick_cards)
        self.go_out_if_empty(seat)
        self.table, self.table_player = action - 1, seat
        plays.append((seat, action, -1))

        while True:
            if len(self.holders()) <= 1:  # the hand ends at once; the table goes to the last set's player
                return Trick(
                    leader=self.leader,
                    taker=self.table_player,
                    cards=trick_cards,
                    plays=plays,
                    skipped=skipped,
                    ended_hand=True,
                )
            seat = self.next_holder(seat)
            can_ask = may_ask_help(seat, self.hand_no, self.roles, self.partners, self.held, self.rules)
            action = self.decide(PLAY, seat, legal_plays(self.held[seat], self.table, can_ask))
            answer = -1
            if action == PASS:
                self.passes += 1
            elif action <= N_SETS:
                self.lay(seat, _SET_CARDS[action - 1], trick_cards)
                self.go_out_if_empty(seat)
                self.table, self.table_player, self.passes = action - 1, seat, 0
            else:
                asked = action - ASK
                senior = self.partners[seat]
                answer = self.decide(
                    ANSWER, senior, legal_answers(self.held[senior], self.table, asked), asked=asked
                )
                if answer == 0:  # declined: the junior takes his cards back; his turn is a pass
                    self.passes += 1
                else:
                    s = answer - 1
                    self.lay(seat, _PARTIAL_CARDS[asked], trick_cards)
                    self.lay(senior, difference(SET_ROWS[s], PARTIAL_ROWS[asked]), trick_cards)
                    self.go_out_if_empty(seat)  # the junior first
                    self.go_out_if_empty(senior)
                    self.table, self.table_player, self.passes = s, seat, 0
            plays.append((seat, action, answer))
            if action == PASS or answer == 0:
                others = [h for h in self.holders() if h != self.table_player]
                if self.passes == len(others):
                    return Trick(
                        leader=self.leader,
                        taker=self.table_player,
                        cards=trick_cards,
                        plays=plays,
                        skipped=skipped,
                    )


def play_hand(
    hands: Sequence[Cards],
    hand_no: int,
    dealer: int,
    order: Sequence[int],
    scores: Sequence[int],
    rules: FranksZooRules,
    strategies: Sequence[Any],
    rng: np.random.Generator | None = None,
) -> HandRecord:
    """Play one hand: the exchange (from the second hand on), the tricks until one player holds cards, and
    the score.

    hands: N lists of 13 counts as dealt (the 60 cards, each hand non-empty; `play_match` also checks the
    sizes against `deal_sizes`); hand_no: 0 for the first hand; dealer: `first_dealer` in the first hand,
    the first in the standings after it; order: the standings before this hand ([0..N-1] before the
    first); scores: the totals before it; strategies: indexed by seat; rng is handed to every `decide`
    unchanged.
    """
    n = rules.players
    dealt = _check_deal(hands, n)
    order = [int(seat) for seat in order]
    if sorted(order) != list(range(n)):
        raise DealsimError(f"the standings must list each of the {n} seats once, got {order}")
    scores = [int(s) for s in scores]
    if len(scores) != n or len(strategies) != n:
        raise DealsimError(f"{n} players need {n} scores and {n} strategies")
    if not 0 <= dealer < n:
        raise DealsimError(f"dealer {dealer} is not a seat of {n}")

    if hand_no == 0:  # everyone alone; the player left of the dealer leads
        roles, partners = [ALONE] * n, [-1] * n
        first_leader = (dealer + 1) % n
    else:  # teams from the standings; the first deals, the last leads
        if dealer != order[0]:
            raise DealsimError(
                f"from the second hand on the first in the standings ({order[0]}) deals, not {dealer}"
            )
        roles, partners = teams(order, n)
        first_leader = order[-1]

    hand = _Hand(dealt, hand_no, scores, roles, partners, rules, strategies, rng)
    if hand_no >= 1:
        hand.exchange(order)
    exchanged = [list(h) for h in hand.held]
    for seat in range(n):  # a solo player who set aside his whole hand is out at once
        hand.go_out_if_empty(seat)

    tricks: list[Trick] = []
    lead_from = first_leader
    while len(hand.holders()) > 1:
        trick = hand.play_trick(lead_from)
        for k in range(N_KINDS):
            hand.taken[trick.taker][k] += trick.cards[k]
        tricks.append(trick)
        lead_from = trick.taker
    for seat in hand.holders():  # the last player, still holding cards, gets place N
        hand.out_order.append(seat)
        hand.places[seat] = len(hand.out_order)

    if sorted(hand.places) != list(range(1, n + 1)):
        raise DealsimError(f"internal error: places {hand.places} are not 1..{n}")
    for k in range(N_KINDS):
        accounted = sum(hand.held[seat][k] + hand.taken[seat][k] for seat in range(n))
        if accounted != DECK_COUNTS[k]:
            raise DealsimError(
                f"internal error: {accounted} {KINDS[k]} cards accounted for, not {DECK_COUNTS[k]}"
            )

    points = hand_points(hand.places, hand.taken, hand.held, roles, partners, hand_no, rules)
    return HandRecord(
        hand_no=hand_no,
        dealer=dealer,
        leader=first_leader,
        order=order,
        scores=scores,
        hands=dealt,
        roles=roles,
        partners=partners,
        exchanged=exchanged,
        set_aside=hand.set_aside,
        moves=hand.moves,
        tricks=tricks,
        places=hand.places,
        out_order=hand.out_order,
        taken=hand.taken,
        held=hand.held,
        placement=points["placement"],
        team=points["team"],
        solo_bonus=points["solo_bonus"],
        lions=points["lions"],
        hedgehog=points["hedgehog"],
        last_lions=points["last_lions"],
        total=points["total"],
    )


def play_match(
    deal: Callable[[int, int], Sequence[Cards]],
    first_dealer: int,
    rules: FranksZooRules,
    strategies: Sequence[Any],
    rng: np.random.Generator | None = None,
    max_hands: int = 200,
) -> MatchRecord[HandRecord]:
    """Play hands until, after a hand, at least `end_players` players have `target` points; the first in
    the standings wins. After `max_hands` hands the game stops with winner None.

    deal(hand_no, dealer) gives the hand's N lists of 13 counts (hand_no from 0), sized as `deal_sizes`.
    The first hand is dealt by `first_dealer`, every later one by the first in the standings. Totals add
    hand by hand; the standings are recomputed after every hand, ties broken against the standings before.
    """
    n = rules.players
    if not 0 <= first_dealer < n:
        raise DealsimError(f"first_dealer {first_dealer} is not a seat of {n}")
    last: list[HandRecord] = []  # the hand before: its standings and score give the next standings

    def play_next(hand_no: int, totals: list[int]) -> HandRecord:
        order = standings(totals, last[0].order) if last else list(range(n))
        dealer = first_dealer if hand_no == 0 else order[0]
        hands = deal(hand_no, dealer)
        sizes = [int(sum(h)) for h in hands]
        if sizes != deal_sizes(n, dealer):
            raise DealsimError(
                f"hand {hand_no}: dealer {dealer} deals {deal_sizes(n, dealer)} cards, got {sizes}"
            )
        last[:] = [play_hand(hands, hand_no, dealer, order, totals, rules, strategies, rng)]
        return last[0]

    def winner(totals: list[int], record: HandRecord) -> int | None:
        return standings(totals, record.order)[0] if game_over(totals, rules) else None

    match = MatchRules(play_next, HandRecord.totals_added, winner, max_deals=max_hands)
    return play_deals_to_target(match, first_dealer, n_sides=n)


# ---------------------------------------------------------------------------------------------------------
# Reading a hand


def cards_text(cards: Cards) -> str:
    """Cards by kind in full, strongest first, as sets are written: '2 whale, 1 elephant, 1 mosquito, 1
    chameleon'; '-' for none."""
    return ", ".join(f"{int(cards[k])} {KINDS[k]}" for k in range(N_KINDS) if cards[k]) or "-"


def _cards_list(cards: Cards) -> list[str]:
    return [KINDS[k] for k in range(N_KINDS) for _ in range(int(cards[k]))]


def _seat_role(record: HandRecord, seat: int) -> str:
    role = record.roles[seat]
    return f"seat {seat}" if role == ALONE else f"seat {seat} ({ROLE_NAMES[role]})"


def format_hand(record: HandRecord) -> str:
    """A readable trace of a hand: standings and teams, the hands as dealt, the exchange, every set, pass,
    help request and answer, who took each trick, the order of going out and each player's score by
    source."""
    n = len(record.hands)
    lines = [
        f"Hand {record.hand_no + 1} ({n} players): seat {record.dealer} deals, "
        + f"seat {record.leader} leads"
    ]
    lines.append(
        "Standings before: "
        + ", ".join(
            f"{rank}. seat {seat} ({record.scores[seat]})" for rank, seat in enumerate(record.order, 1)
        )
    )
    if record.hand_no == 0:
        lines.append("Teams: none (first hand, everyone alone)")
    else:
        parts = [
            f"seat {senior} (senior) + seat {junior} (junior)"
            for senior, junior in team_pairs(record.order, n)
        ]
        solo = solo_seat(record.order, n)
        if solo is not None:
            parts.append(f"seat {solo} solo")
        lines.append("Teams: " + "; ".join(parts))
    lines.append("Hands as dealt:")
    for seat in range(n):
        mark = " (dealer)" if seat == record.dealer else ""
        lines.append(f"  seat {seat}{mark}: {cards_text(record.hands[seat])} ({sum(record.hands[seat])})")

    exchange = [(seat, action) for kind, seat, action in record.moves if kind == EXCHANGE]
    if exchange:
        lines.append("Exchange:")
        by_seat: dict[int, list[int]] = {}
        for seat, action in exchange:
            by_seat.setdefault(seat, []).append(action)
        for seat in dict.fromkeys(seat for seat, _ in exchange):  # in the order they gave
            text = cards_text(np.bincount(by_seat[seat], minlength=N_KINDS))
            if record.roles[seat] == SOLO:
                lines.append(f"  seat {seat} (solo) sets aside: {text}")
            else:
                lines.append(f"  {_seat_role(record, seat)} gives seat {record.partners[seat]}: {text}")
        lines.append("Hands after the exchange:")
        for seat in range(n):
            hand = record.exchanged[seat]
            lines.append(f"  seat {seat}: {cards_text(hand)} ({sum(hand)})")

    counts = [sum(h) for h in record.exchanged]
    for seat in range(n):
        if counts[seat] == 0:
            lines.append(f"  seat {seat} is out at once (place {record.places[seat]})")
    for number, trick in enumerate(record.tricks, 1):
        lines.append(f"Trick {number}:")
        for seat in trick.skipped:
            lines.append(f"  seat {seat} holds only the chameleon: skipped on the lead")
        for i, (seat, action, answer) in enumerate(trick.plays):
            out = []
            if action == PASS:
                text = f"  seat {seat} passes"
            elif action <= N_SETS:
                cards = _SET_CARDS[action - 1]
                counts[seat] -= sum(cards)
                verb = "leads" if i == 0 else "plays"
                text = f"  seat {seat} {verb} {set_name(SET_ROWS[action - 1])}"
                out = [seat] if counts[seat] == 0 else []
            else:
                asked = action - ASK
                senior = record.partners[seat]
                text = f"  seat {seat} lays {set_name(PARTIAL_ROWS[asked])} and asks seat {senior} for help: "
                if answer == 0:
                    text += "declined (a pass)"
                else:
                    s = answer - 1
                    counts[seat] -= sum(_PARTIAL_CARDS[asked])
                    counts[senior] -= set_size(SET_ROWS[s]) - set_size(PARTIAL_ROWS[asked])
                    added = cards_text(difference(SET_ROWS[s], PARTIAL_ROWS[asked]))
                    text += f"seat {senior} adds {added}; seat {seat} plays {set_name(SET_ROWS[s])}"
                    out = [p for p in (seat, senior) if counts[p] == 0]
            for p in out:
                text += f"; seat {p} is out (place {record.places[p]})"
            lines.append(text)
        ending = " (the hand ends: the table goes to the last set's player)" if trick.ended_hand else ""
        lines.append(f"  -> seat {trick.taker} takes {cards_text(trick.cards)}{ending}")
    lines.append(
        "Order of going out: "
        + ", ".join(f"{place}. seat {seat}" for place, seat in enumerate(record.out_order, 1))
    )
    last = record.out_order[-1]
    lines.append(f"Seat {last} is last, holding {cards_text(record.held[last])}")
    lines.append("Score:")
    for seat in range(n):
        parts = [f"placement {record.placement[seat]}"]
        if record.hand_no >= 1:
            parts += [
                f"team {record.team[seat]}",
                f"solo {record.solo_bonus[seat]}",
                f"lions {record.lions[seat]}",
                f"hedgehog {record.hedgehog[seat]}",
                f"last lions {record.last_lions[seat]}",
            ]
        lines.append(
            f"  {_seat_role(record, seat)}, place {record.places[seat]}, took "
            f"{cards_text(record.taken[seat])}: {' + '.join(parts)} = {record.total[seat]}"
        )
    return "\n".join(lines)


def hand_to_dict(record: HandRecord) -> dict:
    """The hand as plain JSON-ready data: cards as lists of kind names, sets by name, moves in words."""

    def cards(counts: Cards) -> list[str]:
        return _cards_list(counts)

    def play_entry(seat: int, action: int, answer: int) -> dict:
        entry: dict[str, Any] = {"seat": seat, "action": action, "move": describe_move(PLAY, action)}
        if answer >= 0:
            entry["answer"] = answer
            entry["answer_move"] = describe_move(ANSWER, answer)
        return entry

    return {
        "hand_no": record.hand_no,
        "dealer": record.dealer,
        "leader": record.leader,
        "order": list(record.order),
        "scores": list(record.scores),
        "roles": [ROLE_NAMES[r] for r in record.roles],
        "partners": list(record.partners),
        "hands": [cards(h) for h in record.hands],
        "exchanged": [cards(h) for h in record.exchanged],
        "set_aside": [cards(h) for h in record.set_aside],
        "moves": [
            [KIND_NAMES[kind], seat, action, describe_move(kind, action)]
            for kind, seat, action in record.moves
        ],
        "tricks": [
            {
                "leader": t.leader,
                "taker": t.taker,
                "cards": cards(t.cards),
                "plays": [play_entry(*play) for play in t.plays],
                "skipped": list(t.skipped),
                "ended_hand": t.ended_hand,
            }
            for t in record.tricks
        ],
        "places": list(record.places),
        "out_order": list(record.out_order),
        "taken": [cards(h) for h in record.taken],
        "held": [cards(h) for h in record.held],
        "points": record.points,
    }
