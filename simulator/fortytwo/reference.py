"""The scalar reference engine for Forty-two: `shared/rules/forty-two.md`, one decision at a time.

This module is the oracle the fast batched core is tested against, move for move, so it is written from the
rules file alone and says each rule the way the file says it, in plain Python. The only things it takes
from `dominoes` are the encoding (a domino's two ends, its id and its name) and the seat names; following,
trumps, ranking, count points and the trick winner are all worked out here.

Encodings (shared with the core and the strategies):
- domino id d = high*(high+1)//2 + low, so 0-0 is 0 and 6-6 is 27;
- seats 0=N 1=E 2=S 3=W, clockwise; the next seat is (s+1)%4; the side of a seat is s%2 (0 = N-S, 1 = E-W);
- call actions: 0 pass, 1..42 bid that many, 43 bid 84, 44 bid 168; trump actions: the pip 0..6;
  play actions: the domino id.

A strategy is any object with `decide(kind, view, legal, rng) -> np.ndarray of shape (1,)`, where `view`
is a one-row `FortyTwoView` and `legal` a (1, n_actions) bool mask. The engine never repairs a choice:
an action outside the mask raises `IllegalAction`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulator.errors import DealsimError, IllegalAction
from simulator.fortytwo.dominoes import HIGH, LOW, N_DOMINOES, SEATS, ids_to_bits, name
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import CALL, KIND_NAMES, MAX_CALLS, N_ACTIONS, PLAY, TRUMP, FortyTwoView

PASS = 0
BID_84 = 43
BID_168 = 44
TRUMPS_LED = 7  # the led "suit" of a trick whose first domino is a trump
N_TRICKS = 7
HAND_SIZE = 7
ALL_TRICKS_POINTS = 42  # 7 trick points + the five count dominoes; only all seven tricks give it

SIDE_NAMES = ("N-S", "E-W")
SUIT_NAMES = ("blanks", "aces", "deuces", "treys", "fours", "fives", "sixes")


# ---------------------------------------------------------------------------------------------------------
# Records


@dataclass
class Trick:
    """One completed trick."""

    leader: int                    # seat that led it
    plays: list[tuple[int, int]]   # (seat, domino) in the order played, the leader first
    winner: int                    # seat that took it
    points: int                    # 1 for the trick + the count dominoes in it


@dataclass
class HandRecord:
    """Everything that happened in one hand, thrown in or played out."""

    dealer: int
    hands: list[list[int]]          # the four hands as dealt, indexed by seat, each sorted
    calls: list[tuple[int, int]]    # (seat, call action) in the order called, from the dealer's left
    thrown_in: bool                 # four passes: no play, no score
    declarer: int | None            # the highest bidder; None if thrown in
    bid: int                        # the contract's value (30, 42, 84, ...); 0 if thrown in
    trump: int | None               # the pip named trump; None if thrown in
    tricks: list[Trick]             # the seven tricks in order; empty if thrown in
    points: tuple[int, int]         # points taken in play (N-S, E-W); they add up to 42
    score: tuple[int, int]          # what each side scores for the hand (N-S, E-W)
    made: bool | None               # whether the contract was made; None if thrown in
    moves: list[tuple[int, int, int]]  # (kind, seat, action) in the order decided


@dataclass
class MatchRecord:
    """A match: hands until a side wins (or the hand limit)."""

    hands: list[HandRecord]
    totals: tuple[int, int]         # final totals (N-S, E-W)
    winner: int | None              # the winning side; None if the hand limit came first
    first_dealer: int


# ---------------------------------------------------------------------------------------------------------
# Dominoes


def ends(d: int) -> tuple[int, int]:
    """The two pips of domino d, higher first."""
    return int(HIGH[d]), int(LOW[d])


def is_double(d: int) -> bool:
    high, low = ends(d)
    return high == low


def count_points(d: int, rules: FortyTwoRules) -> int:
    """Points a count domino is worth, 0 for any other domino.

    The count dominoes are those whose pips add up to 5 or 10: 5-0, 4-1, 3-2, 5-5, 6-4 (0-0 adds up to 0
    and is not one). Seed values: 7 each. Texas values: 5-0, 4-1, 3-2 are worth 5; 5-5 and 6-4 are worth 10.
    """
    high, low = ends(d)
    total = high + low
    if total not in (5, 10):
        return 0
    if rules.count_values == "seed":
        return 7
    if rules.count_values == "texas":
        return 5 if total == 5 else 10
    raise DealsimError(f"unknown count_values {rules.count_values!r}")


def bid_value(action: int) -> int:
    """The number of points a call action bids: 0 for a pass, 1..42 as such, 43 -> 84, 44 -> 168."""
    if action == BID_84:
        return 84
    if action == BID_168:
        return 168
    return action


def call_text(action: int) -> str:
    """'pass' or the bid's value as text ('30', '84')."""
    return "pass" if action == PASS else str(bid_value(action))


# ---------------------------------------------------------------------------------------------------------
# Auction


def _bids(calls: Sequence[int]) -> list[tuple[int, int]]:
    """(position in the auction, call action) of every bid (non-pass) in order."""
    return [(i, c) for i, c in enumerate(calls) if c != PASS]


def high_bid(calls: Sequence[int]) -> tuple[int, int | None]:
    """(value of the highest bid, its position in `calls`), or (0, None) if nobody has bid.

    Every bid must beat the current highest, so the highest bid is simply the last one made.
    """
    bids = _bids(calls)
    if not bids:
        return 0, None
    position, action = bids[-1]
    return bid_value(action), position


def auction_over(calls: Sequence[int], rules: FortyTwoRules) -> bool:
    """Whether the auction has ended, given the call actions so far in order from the dealer's left.

    seed: it ends after three passes in a row following a bid; four passes at the start end it too (the
    hand is thrown in). one-lap: it ends when each of the four players has called once.
    """
    if rules.auction == "one-lap":
        return len(calls) == 4
    if rules.auction != "seed":
        raise DealsimError(f"unknown auction {rules.auction!r}")
    bids = _bids(calls)
    if not bids:
        return len(calls) == 4
    last_bid_position = bids[-1][0]
    passes_since = len(calls) - 1 - last_bid_position
    return passes_since >= 3


def is_thrown_in(calls: Sequence[int]) -> bool:
    """An auction of four passes: the hand is thrown in (never with all_pass = dealer_forced, where the
    dealer may not make the fourth pass)."""
    return len(calls) == 4 and all(c == PASS for c in calls)


def legal_calls(calls: Sequence[int], rules: FortyTwoRules) -> list[int]:
    """The call actions open to the next player, given the call actions so far (from the dealer's left).

    Call i is made by the i-th player from the dealer's left, so the next player is the one who made
    calls[len(calls) - 4], calls[len(calls) - 8], ... The auction must not be over.
    - A pass is allowed, except to a stuck dealer: with all_pass = dealer_forced, when the first three
      players have passed, the dealer (the fourth to call) may not pass; he must bid, at least min_bid.
    - seed auction: a player who has already bid can only pass (a pass does not bar a later bid).
    - A numeric bid must beat the current highest: min_bid..42 above it.
    - 84: over a 42 only (jump_bids = false); whenever the highest is below 84 (jump_bids = true),
      the opening bid included.
    - 168: over an 84 only.
    """
    if auction_over(calls, rules):
        raise DealsimError("the auction is over: nobody may call")
    first_three_passed = len(calls) == 3 and all(c == PASS for c in calls)
    if rules.all_pass == "dealer_forced" and first_three_passed:
        legal = []
    elif rules.all_pass in ("redeal", "dealer_forced"):
        legal = [PASS]
    else:
        raise DealsimError(f"unknown all_pass {rules.all_pass!r}")
    my_earlier_calls = calls[len(calls) % 4::4]
    if rules.auction == "seed" and any(c != PASS for c in my_earlier_calls):
        return legal
    highest, _ = high_bid(calls)
    legal.extend(v for v in range(rules.min_bid, 43) if v > highest)
    if highest == 42 or (rules.jump_bids and highest < 84):
        legal.append(BID_84)
    if highest == 84:
        legal.append(BID_168)
    return legal


# ---------------------------------------------------------------------------------------------------------
# Play


def is_trump(d: int, trump: int) -> bool:
    """Every domino carrying the trump pip is a trump (and nothing else)."""
    return trump in ends(d)


def led_suit(d: int, trump: int) -> int:
    """The suit a led domino calls for: 7 (trumps) for a trump, else its higher end (5-3 leads fives)."""
    if is_trump(d, trump):
        return TRUMPS_LED
    high, _ = ends(d)
    return high


def follows(d: int, suit: int, trump: int) -> bool:
    """Whether domino d follows the led suit.

    On a trump lead (suit 7) a trump follows. Otherwise a domino follows if it carries the led pip and is
    not a trump: on 5-3, 5-6 is a five when sixes are not trump; 3-6 is not a five.
    """
    if suit == TRUMPS_LED:
        return is_trump(d, trump)
    return suit in ends(d) and not is_trump(d, trump)


def rank_in_suit(d: int, pip: int) -> int:
    """Rank of domino d among those carrying `pip`: the double is highest (7), then by the other end."""
    high, low = ends(d)
    if high == low:
        return 7
    return low if high == pip else high


def legal_plays(hand: Sequence[int], trick_so_far: Sequence[int], trump: int) -> list[int]:
    """The dominoes of `hand` that may be played to the current trick (its dominoes so far, in order).

    Leading: any domino. Otherwise the player must follow the led suit if he can (on a trump lead, play a
    trump); if he cannot he may play any domino, trump or not.
    """
    if not trick_so_far:
        return sorted(hand)
    suit = led_suit(trick_so_far[0], trump)
    following = [d for d in hand if follows(d, suit, trump)]
    return sorted(following) if following else sorted(hand)


def winning_play(plays: Sequence[tuple[int, int]], trump: int) -> tuple[int, int]:
    """The (seat, domino) now winning a trick, given its (seat, domino) plays so far (at least the lead).

    The highest trump in it wins (trumps rank by their non-trump end, the double highest); with no trump
    in it, the highest domino of the led suit (ranked by its non-suit end, the double highest).
    """
    trumps = [(seat, d) for seat, d in plays if is_trump(d, trump)]
    if trumps:
        return max(trumps, key=lambda play: rank_in_suit(play[1], trump))
    suit = led_suit(plays[0][1], trump)
    in_suit = [(seat, d) for seat, d in plays if follows(d, suit, trump)]
    return max(in_suit, key=lambda play: rank_in_suit(play[1], suit))


def trick_winner(plays: Sequence[tuple[int, int]], trump: int) -> int:
    """The seat that takes (or is so far taking) a trick of (seat, domino) plays."""
    seat, _ = winning_play(plays, trump)
    return seat


def trick_points(dominoes: Sequence[int], rules: FortyTwoRules) -> int:
    """1 point for the trick plus the count dominoes in it."""
    return 1 + sum(count_points(d, rules) for d in dominoes)


# ---------------------------------------------------------------------------------------------------------
# Scoring


def hand_score(bid: int, declarer_side: int, points: Sequence[int]) -> tuple[tuple[int, int], bool]:
    """((score N-S, score E-W), made) for a played hand with contract `bid` (its value).

    - A bid below 42 is made if the declarers took at least `bid` points; then each side scores the
      points it took.
    - 42, 84 and 168 are made only with all seven tricks (the only way to take all 42 points); then the
      declarers score 42 and the defenders 0.
    - A contract that fails: the declarers score 0, the defenders the points they took + `bid`.
    """
    defender_side = 1 - declarer_side
    declarer_points = points[declarer_side]
    defender_points = points[defender_side]
    all_tricks_contract = bid in (42, 84, 168)
    if all_tricks_contract:
        made = declarer_points == ALL_TRICKS_POINTS
    else:
        made = declarer_points >= bid
    score = [0, 0]
    if made and all_tricks_contract:
        score[declarer_side] = 42
    elif made:
        score[declarer_side] = declarer_points
        score[defender_side] = defender_points
    else:
        score[defender_side] = defender_points + bid
    return (score[0], score[1]), made


def match_winner(totals: Sequence[int], declarer_side: int | None, target: int) -> int | None:
    """The side that has won after a hand, or None.

    A side that has reached `target` wins; if both have, the higher total wins; on equal totals the
    declaring side of that hand wins.
    """
    ns, ew = totals
    if ns < target and ew < target:
        return None
    if ns >= target and ew < target:
        return 0
    if ew >= target and ns < target:
        return 1
    if ns != ew:
        return 0 if ns > ew else 1
    return declarer_side


# ---------------------------------------------------------------------------------------------------------
# Views and decisions


def _padded(values: Sequence[int], width: int) -> np.ndarray:
    row = np.full((1, width), -1, dtype=np.int8)
    row[0, : len(values)] = values
    return row


def make_view(
    *,
    seat: int,
    dealer: int,
    hand: Sequence[int],
    calls: Sequence[int],
    trump: int | None,
    plays: Sequence[int],
    leader: int | None,
    trick: Sequence[tuple[int, int]],
    points: Sequence[int],
    scores: Sequence[int],
    rules: FortyTwoRules | None = None,
) -> FortyTwoView:
    """A one-row `FortyTwoView` of the hand as `seat` sees it.

    hand: the seat's dominoes still held; calls: the call actions so far; plays: every domino played so
    far in order; leader: the seat that leads the current trick (None during the auction); trick: the
    (seat, domino) plays of the current trick; points: points taken in completed tricks (N-S, E-W).
    """
    contract, bidder_position = high_bid(calls)
    bidder = -1 if bidder_position is None else (dealer + 1 + bidder_position) % 4
    if trick:
        led = led_suit(trick[0][1], trump)
        winner, winning = winning_play(trick, trump)
    else:
        led = winner = winning = -1
    return FortyTwoView(
        seat=np.array([seat], dtype=np.int8),
        dealer=np.array([dealer], dtype=np.int8),
        hand=np.array([ids_to_bits(hand)], dtype=np.uint32),
        calls=_padded(calls, MAX_CALLS),
        n_calls=np.array([len(calls)], dtype=np.int8),
        high_bid=np.array([contract], dtype=np.int16),
        high_bidder=np.array([bidder], dtype=np.int8),
        trump=np.array([-1 if trump is None else trump], dtype=np.int8),
        plays=_padded(plays, N_DOMINOES),
        n_played=np.array([len(plays)], dtype=np.int8),
        leader=np.array([-1 if leader is None else leader], dtype=np.int8),
        led=np.array([led], dtype=np.int8),
        winner=np.array([winner], dtype=np.int8),
        winning=np.array([winning], dtype=np.int8),
        played=np.array([ids_to_bits(plays)], dtype=np.uint32),
        points=np.array([points], dtype=np.int16),
        scores=np.array([scores], dtype=np.int32),
        rules=rules,
    )


def strategy_name(strategy: Any) -> str:
    """A strategy's `spec` if it has one, else its class name."""
    spec = getattr(strategy, "spec", None)
    return str(spec) if spec is not None else type(strategy).__name__


def describe_move(kind: int, action: int) -> str:
    """A move in words: 'call pass', 'call 84', 'trump 4', 'play 6-4'."""
    if not 0 <= action < N_ACTIONS[kind]:
        return f"{KIND_NAMES[kind]} action {action} (out of range 0..{N_ACTIONS[kind] - 1})"
    if kind == CALL:
        return f"call {call_text(action)}"
    if kind == TRUMP:
        return f"trump {action}"
    return f"play {name(action)}"


def _decide(strategy: Any, kind: int, seat: int, view: FortyTwoView, legal_actions: list[int],
            rng: np.random.Generator | None) -> int:
    """Ask `strategy` for its action and check it against the legal actions."""
    mask = np.zeros((1, N_ACTIONS[kind]), dtype=bool)
    mask[0, legal_actions] = True
    chosen = np.asarray(strategy.decide(kind, view, mask, rng))
    who = f"strategy {strategy_name(strategy)} at seat {SEATS[seat]}"
    if chosen.shape != (1,) or not np.issubdtype(chosen.dtype, np.integer):
        raise IllegalAction(f"{who} returned {chosen!r} for a {KIND_NAMES[kind]} decision; "
                            f"expected an integer array of shape (1,)")
    action = int(chosen[0])
    if action not in legal_actions:
        raise IllegalAction(f"{who} made an illegal move: {describe_move(kind, action)}")
    return action


def _check_hands(hands: Sequence[Sequence[int]]) -> list[list[int]]:
    if len(hands) != 4 or any(len(h) != HAND_SIZE for h in hands):
        raise DealsimError(f"a Forty-two deal is 4 hands of {HAND_SIZE} dominoes, got sizes "
                           f"{[len(h) for h in hands]}")
    ids = [int(d) for h in hands for d in h]
    if sorted(ids) != list(range(N_DOMINOES)):
        raise DealsimError("a Forty-two deal must hold each of the 28 dominoes exactly once")
    return [sorted(int(d) for d in h) for h in hands]


# ---------------------------------------------------------------------------------------------------------
# A hand and a match


def play_hand(hands: Sequence[Sequence[int]], dealer: int, rules: FortyTwoRules, strategies: Sequence[Any],
              rng: np.random.Generator | None = None, scores: tuple[int, int] = (0, 0)) -> HandRecord:
    """Play one hand: the auction, trump, seven tricks and the score.

    hands: 4 lists of 7 domino ids indexed by seat; strategies: 4 strategies indexed by seat; rng is handed
    to every `decide` call unchanged; scores: the match totals before this hand (shown in the views).
    """
    dealt = _check_hands(hands)
    held = [list(h) for h in dealt]
    moves: list[tuple[int, int, int]] = []

    # Auction: from the dealer's left, clockwise.
    calls: list[tuple[int, int]] = []
    call_actions: list[int] = []
    while not auction_over(call_actions, rules):
        seat = (dealer + 1 + len(call_actions)) % 4
        legal = legal_calls(call_actions, rules)
        view = make_view(seat=seat, dealer=dealer, hand=held[seat], calls=call_actions, trump=None, plays=[],
                         leader=None, trick=[], points=(0, 0), scores=scores, rules=rules)
        action = _decide(strategies[seat], CALL, seat, view, legal, rng)
        calls.append((seat, action))
        call_actions.append(action)
        moves.append((CALL, seat, action))

    if is_thrown_in(call_actions):
        return HandRecord(dealer=dealer, hands=dealt, calls=calls, thrown_in=True, declarer=None, bid=0,
                          trump=None, tricks=[], points=(0, 0), score=(0, 0), made=None, moves=moves)

    # The highest bidder declares, names trump and leads the first trick.
    bid, position = high_bid(call_actions)
    declarer = calls[position][0]
    view = make_view(seat=declarer, dealer=dealer, hand=held[declarer], calls=call_actions, trump=None,
                     plays=[], leader=declarer, trick=[], points=(0, 0), scores=scores, rules=rules)
    trump = _decide(strategies[declarer], TRUMP, declarer, view, list(range(7)), rng)
    moves.append((TRUMP, declarer, trump))

    # Seven tricks; the winner of each leads the next.
    points = [0, 0]
    plays: list[int] = []
    tricks: list[Trick] = []
    leader = declarer
    for _ in range(N_TRICKS):
        trick: list[tuple[int, int]] = []
        for i in range(4):
            seat = (leader + i) % 4
            legal = legal_plays(held[seat], [d for _, d in trick], trump)
            view = make_view(seat=seat, dealer=dealer, hand=held[seat], calls=call_actions, trump=trump,
                             plays=plays, leader=leader, trick=trick, points=points, scores=scores, rules=rules)
            domino = _decide(strategies[seat], PLAY, seat, view, legal, rng)
            held[seat].remove(domino)
            trick.append((seat, domino))
            plays.append(domino)
            moves.append((PLAY, seat, domino))
        winner = trick_winner(trick, trump)
        taken = trick_points([d for _, d in trick], rules)
        points[winner % 2] += taken
        tricks.append(Trick(leader=leader, plays=trick, winner=winner, points=taken))
        leader = winner

    score, made = hand_score(bid, declarer % 2, points)
    return HandRecord(dealer=dealer, hands=dealt, calls=calls, thrown_in=False, declarer=declarer, bid=bid,
                      trump=trump, tricks=tricks, points=(points[0], points[1]), score=score, made=made,
                      moves=moves)


def play_match(deal: Callable[[int, int], Sequence[Sequence[int]]], first_dealer: int, rules: FortyTwoRules,
               strategies: Sequence[Any], rng: np.random.Generator | None = None,
               max_thrown_in: int = 100) -> MatchRecord:
    """Play hands until a side wins the match; after `max_thrown_in` hands in a row thrown in, the game is
    abandoned with winner None (under all_pass = redeal no rule forces a bid, so strategies that always pass
    never finish; under dealer_forced no hand is thrown in).

    deal(hand_no, dealer) gives the hand's 4 lists of dominoes (hand_no counts from 0). The deal passes
    clockwise every hand, thrown-in hands included; those score nothing. Each hand's views show the totals
    before it.
    """
    totals = [0, 0]
    records: list[HandRecord] = []
    winner: int | None = None
    thrown_in_a_row = 0
    hand_no = 0
    while thrown_in_a_row < max_thrown_in:
        dealer = (first_dealer + hand_no) % 4
        record = play_hand(deal(hand_no, dealer), dealer, rules, strategies, rng,
                           scores=(totals[0], totals[1]))
        records.append(record)
        hand_no += 1
        if record.thrown_in:
            thrown_in_a_row += 1
            continue
        thrown_in_a_row = 0
        totals[0] += record.score[0]
        totals[1] += record.score[1]
        winner = match_winner(totals, record.declarer % 2, rules.target)
        if winner is not None:
            break
    return MatchRecord(hands=records, totals=(totals[0], totals[1]), winner=winner, first_dealer=first_dealer)


# ---------------------------------------------------------------------------------------------------------
# Reading a hand


def _dominoes_text(dominoes: Sequence[int]) -> str:
    return " ".join(name(d) for d in sorted(dominoes, reverse=True))


def format_hand(record: HandRecord) -> str:
    """A readable trace of a hand: the deal, the auction, the contract, each trick and the score."""
    lines = ["Hands:"]
    for seat in range(4):
        mark = " (dealer)" if seat == record.dealer else ""
        lines.append(f"  {SEATS[seat]}{mark}: {_dominoes_text(record.hands[seat])}")
    auction = ", ".join(f"{SEATS[seat]} {call_text(action)}" for seat, action in record.calls)
    lines.append(f"Auction: {auction}")
    if record.thrown_in:
        lines.append("Four passes: thrown in. No score; the next dealer deals.")
        return "\n".join(lines)
    side = record.declarer % 2
    lines.append(f"Contract: {record.bid} by {SEATS[record.declarer]} ({SIDE_NAMES[side]}), "
                 f"trumps: {SUIT_NAMES[record.trump]} ({record.trump})")
    for number, trick in enumerate(record.tricks, 1):
        played = ", ".join(f"{SEATS[seat]} {name(d)}" for seat, d in trick.plays)
        lines.append(f"Trick {number}: {SEATS[trick.leader]} leads: {played} -> {SEATS[trick.winner]} "
                     f"wins {trick.points} point{'s' if trick.points != 1 else ''}")
    ns, ew = record.points
    lines.append(f"Points taken: N-S {ns}, E-W {ew}")
    outcome = "made" if record.made else "set"
    lines.append(f"Score: N-S {record.score[0]}, E-W {record.score[1]} (contract {record.bid} {outcome})")
    return "\n".join(lines)


def hand_to_dict(record: HandRecord) -> dict:
    """The hand as plain JSON-ready data: dominoes as '6-4', seats as letters, calls as 'pass'/'30'/'84'."""

    def action_text(kind: int, action: int) -> str:
        if kind == CALL:
            return call_text(action)
        if kind == TRUMP:
            return str(action)
        return name(action)

    return {
        "dealer": SEATS[record.dealer],
        "hands": {SEATS[seat]: [name(d) for d in record.hands[seat]] for seat in range(4)},
        "calls": [[SEATS[seat], call_text(action)] for seat, action in record.calls],
        "thrown_in": record.thrown_in,
        "declarer": None if record.declarer is None else SEATS[record.declarer],
        "bid": record.bid,
        "trump": record.trump,
        "tricks": [
            {
                "leader": SEATS[t.leader],
                "plays": [[SEATS[seat], name(d)] for seat, d in t.plays],
                "winner": SEATS[t.winner],
                "points": t.points,
            }
            for t in record.tricks
        ],
        "points": list(record.points),
        "score": list(record.score),
        "made": record.made,
        "moves": [[KIND_NAMES[kind], SEATS[seat], action_text(kind, action)]
                  for kind, seat, action in record.moves],
    }

