"""The scalar reference engine for Forty-two: the Forty-two rules, one decision at a time.

This module is the oracle the fast batched core is tested against, move for move, so it is written from the
rules file alone and says each rule the way the file says it, in plain Python. The only things it takes
from `dominoes` are the encoding (a domino's two ends, its id and its name), the seat names and the numbers
of the play contexts (`context_of`); following, trumps, ranking, count points and the trick winner are all
worked out here.

Encodings (shared with the core and the strategies, see `view`):
- domino id d = high*(high+1)//2 + low, so 0-0 is 0 and 6-6 is 27;
- seats 0=N 1=E 2=S 3=W, clockwise; the next seat is (s+1)%4; the side of a seat is s%2 (0 = NS, 1 = EW);
- call actions: 0 pass, 1..42 bid that many, 43 bid 84, 44 bid 168, 45 bid 126, 46 plunge, 47 splash,
  48 bid 210;
- trump actions (what is named): the pip 0..6, 7 doubles, 8 no-trump, 9 nello, 10 sevens;
- play actions: the domino id.
What was named sets the play context (`dominoes.context_of`): 0..6 that pip is trumps, 7 the doubles are
trumps, 8 no-trump (doubles high), 9 no-trump with doubles low, 10 nello with the doubles a suit of their own,
11 sevens (nello with `nello_doubles` high or low plays as no-trump 8 or 9). The trick rules below take that
context.

A strategy is any object with `decide(kind, view, legal, rng) -> np.ndarray of shape (1,)`, where `view`
is a one-row `FortyTwoView` and `legal` a (1, n_actions) bool mask. The engine never repairs a choice:
an action outside the mask raises `IllegalAction`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulator.errors import DealsimError
from simulator.fortytwo.dominoes import (
    DOUBLES_TRUMP,
    HIGH,
    LOW,
    N_DOMINOES,
    NELLO_SUIT,
    NO_TRUMP_LOW,
    SEATS,
    SEVENS_CTX,
    SIDES,
    context_of,
    ids_to_bits,
    name,
)
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import (
    CALL,
    DECLARATION_NAMES,
    DOUBLES,
    KIND_NAMES,
    MAX_CALLS,
    N_ACTIONS,
    NELLO,
    NO_TRUMP,
    PLAY,
    SEVENS,
    TRUMP,
    FortyTwoView,
    bid_marks,
    special_value,
)
from simulator.scalar import MatchRecord, MatchRules, Referee
from simulator.scalar import play_match as play_deals_to_target

PASS = 0
BID_84 = 43
BID_168 = 44
BID_126 = 45  # three marks: only under marks
PLUNGE = 46
SPLASH = 47
BID_210 = 48  # five marks: only under marks
FIVE_MARKS = 210  # no bid of any kind is worth more
TRUMPS_LED = 7  # the led "suit" of a trick whose first domino is a trump
DOUBLES_LED = 7  # under nello with the doubles as their own suit: the led "suit" of a double
SEVENS_LED = 0  # under sevens there is no suit to follow; every lead shows as 0
N_TRICKS = 7
HAND_SIZE = 7
MAX_HANDS = 10_000  # a game still undecided after this many hands is abandoned (no winner)
ALL_TRICKS_POINTS = 42  # 7 trick points + the five count dominoes; only all seven tricks give it

SIDE_NAMES = SIDES  # NS, EW: written as the tables, summaries and --seat write them
SUIT_NAMES = DECLARATION_NAMES[:7]
_DEFAULT_RULES = FortyTwoRules()


# ---------------------------------------------------------------------------------------------------------
# Records


@dataclass
class Trick:
    """One completed trick."""

    leader: int  # seat that led it
    plays: list[tuple[int, int]]  # (seat, domino) in the order played, the leader first (3 under nello)
    winner: int  # seat that took it
    points: int  # 1 for the trick + the count dominoes in it


@dataclass
class HandRecord:
    """Everything that happened in one hand, thrown in or played out."""

    dealer: int
    hands: list[list[int]]  # the four hands as dealt, indexed by seat, each sorted
    calls: list[tuple[int, int]]  # (seat, call action) in the order called, from the dealer's left
    thrown_in: bool  # four passes: no play, no score
    declarer: int | None  # the highest bidder; None if thrown in
    bid: int  # the contract's value (30, 42, 84, 168 for a plunge, 210 ...); 0 if thrown in
    trump: int | None  # what was named (TRUMP action: pip 0..6, 7..10); None if thrown in
    tricks: list[Trick]  # the tricks in order (fewer than 7 if the hand stopped early)
    points: tuple[int, int]  # points taken in the tricks played (NS, EW)
    score: tuple[int, int]  # what each side scores for the hand (NS, EW): points, or marks
    made: bool | None  # whether the contract was made; None if thrown in
    moves: list[tuple[int, int, int]]  # (kind, seat, action) in the order decided
    named_by: int | None = None  # the seat that named (the declarer's partner after a plunge or splash)
    scoring: str = "points"  # what `score` counts: points or marks

    def totals_added(self) -> tuple[int, ...]:
        return tuple(self.score)

    def outcome(self) -> tuple[int, ...]:
        """Points taken, the score and made (1/0, -1 thrown in): what the batched core must agree on."""
        return (*self.points, *self.score, -1 if self.made is None else int(self.made))

    def to_dict(self) -> dict[str, Any]:
        return hand_to_dict(self)

    def text(self, rules: Any = None) -> str:
        return format_hand(self)


# ---------------------------------------------------------------------------------------------------------
# Dominoes


def ends(d: int) -> tuple[int, int]:
    """The two pips of domino d, higher first."""
    return int(HIGH[d]), int(LOW[d])


def is_double(d: int) -> bool:
    high, low = ends(d)
    return high == low


def n_doubles(hand: Sequence[int]) -> int:
    return sum(1 for d in hand if is_double(d))


def pips(d: int) -> int:
    """The pips on both ends together."""
    high, low = ends(d)
    return high + low


def count_points(d: int, rules: FortyTwoRules) -> int:
    """Points a count domino is worth, 0 for any other domino.

    The count dominoes are those whose pips add up to 5 or 10: 5-0, 4-1, 3-2, 5-5, 6-4 (0-0 adds up to 0
    and is not one). Seed values: 7 each. Texas values: 5-0, 4-1, 3-2 are worth 5; 5-5 and 6-4 are worth 10.
    """
    total = pips(d)
    if total not in (5, 10):
        return 0
    if rules.count_values == "seed":
        return 7
    if rules.count_values == "texas":
        return 5 if total == 5 else 10
    raise DealsimError(f"unknown count_values {rules.count_values!r}")


# ---------------------------------------------------------------------------------------------------------
# Auction


def marks_of(value: int) -> int:
    """Marks a bid is worth: 1 for 30..42, 84 two, 126 three, 168 four, 210 five (`view.bid_marks`)."""
    return int(bid_marks(value))


def bid_value(action: int) -> int:
    """The number of points a numeric call action bids: 0 for a pass, 1..42 as such, 43 -> 84, 44 -> 168,
    45 -> 126, 48 -> 210. A plunge's or splash's value depends on the bid it overcalls: see `call_value`."""
    if action in (PLUNGE, SPLASH):
        raise DealsimError("a plunge or splash is worth what it overcalls: use call_value")
    return {BID_84: 84, BID_168: 168, BID_126: 126, BID_210: 210}.get(action, action)


def call_value(action: int, high_before: int) -> int:
    """The value of a bid made over a highest bid worth `high_before` (0: none).

    A plunge is worth four marks, a splash two, or one mark more than the current bid when that is higher
    (in the points game a mark is 42 points: a splash over 84 is 126, a plunge or splash over 168 is 210).
    """
    if action in (PLUNGE, SPLASH):
        return int(special_value(action, high_before))
    return bid_value(action)


def call_text(action: int) -> str:
    """'pass', 'plunge', 'splash' or the bid's value as text ('30', '84')."""
    return {PASS: "pass", PLUNGE: "plunge", SPLASH: "splash"}.get(action) or str(bid_value(action))


def _bids(calls: Sequence[int]) -> list[tuple[int, int]]:
    """(position in the auction, call action) of every bid (non-pass) in order."""
    return [(i, c) for i, c in enumerate(calls) if c != PASS]


def high_bid(calls: Sequence[int]) -> tuple[int, int | None]:
    """(value of the highest bid, its position in `calls`), or (0, None) if nobody has bid.

    Every bid must beat the current highest (a plunge or splash always does: it is worth at least one mark
    more), so the highest bid is simply the last one made; its value is worked out bid by bid because a
    plunge's or splash's value depends on the bid before it.
    """
    bids = _bids(calls)
    value = 0
    for _, action in bids:
        value = call_value(action, value)
    return value, (bids[-1][0] if bids else None)


def winning_call(calls: Sequence[int]) -> int | None:
    """The call action of the highest bid (the contract), None if nobody has bid."""
    bids = _bids(calls)
    return bids[-1][1] if bids else None


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


def raises_above_42(highest: int, rules: FortyTwoRules) -> list[int]:
    """The call actions of the bids above 42 open over a highest bid worth `highest`.

    - 84: over a 42 only (jump_bids = false); whenever the highest is below 84 (jump_bids = true), the
      opening bid included.
    - points game: 168 over an 84 only.
    - marks: after 84 each raise is one mark more: 126 over an 84 only, 168 over a 126 only, 210 over a 168
      only; nothing over a 210 (five marks, the most a bid is worth).
    The ladder reads the value of the highest bid, whatever made it (a splash worth 84 is an 84, a plunge
    worth 168 a 168).
    """
    raises = []
    if highest == 42 or (rules.jump_bids and highest < 84):
        raises.append(BID_84)
    if rules.scoring == "marks":
        if highest == 84:
            raises.append(BID_126)
        if highest == 126:
            raises.append(BID_168)
        if highest == 168:
            raises.append(BID_210)
    elif highest == 84:
        raises.append(BID_168)
    return raises


def special_bids(hand: Sequence[int], rules: FortyTwoRules, highest: int = 0) -> list[int]:
    """Plunge (rule on, at least four doubles in hand) and splash (rule on, at least three doubles), over a
    highest bid worth `highest`. Each is worth one mark more than the bid it overcalls (at least four and
    two marks), and no bid is worth more than five marks: over a 210 neither may be bid."""
    if highest >= FIVE_MARKS:
        return []
    special = []
    if rules.plunge and n_doubles(hand) >= 4:
        special.append(PLUNGE)
    if rules.splash and n_doubles(hand) >= 3:
        special.append(SPLASH)
    return special


def legal_calls(calls: Sequence[int], rules: FortyTwoRules, hand: Sequence[int] = ()) -> list[int]:
    """The call actions open to the next player, given the call actions so far (from the dealer's left)
    and his hand (which only plunge and splash look at).

    Call i is made by the i-th player from the dealer's left, so the next player is the one who made
    calls[len(calls) - 4], calls[len(calls) - 8], ... The auction must not be over.
    - A pass is allowed, except to a stuck dealer: with all_pass = dealer_forced, when the first three
      players have passed, the dealer (the fourth to call) may not pass; he must bid, at least min_bid (a
      plunge or splash is a bid he may make).
    - seed auction: a player who has already bid (plunge and splash are bids) can only pass (a pass does not
      bar a later bid).
    - A numeric bid must beat the current highest: min_bid..42 above it, then the ladder above 42.
    - A plunge or splash is always worth more than the current bid; over a 210 (five marks, the most any
      bid is worth) neither is left, so only a pass remains.
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
    my_earlier_calls = calls[len(calls) % 4 :: 4]
    if rules.auction == "seed" and any(c != PASS for c in my_earlier_calls):
        return legal
    highest, _ = high_bid(calls)
    legal.extend(v for v in range(rules.min_bid, 43) if v > highest)
    legal.extend(raises_above_42(highest, rules))
    legal.extend(special_bids(hand, rules, highest))
    return sorted(legal)


# ---------------------------------------------------------------------------------------------------------
# Naming trumps (or nello, or sevens)


def is_special(call: int | None) -> bool:
    """A plunge or a splash: the declarer's partner names trumps and leads."""
    return call in (PLUNGE, SPLASH)


def naming_seat(declarer: int, call: int) -> int:
    """Who names: the declarer, or his partner after a plunge or splash."""
    return (declarer + 2) % 4 if is_special(call) else declarer


def legal_declarations(bid: int, call: int, rules: FortyTwoRules) -> list[int]:
    """What may be named (TRUMP actions) for a contract worth `bid` won by the call action `call`.

    A pip suit always; doubles and no-trump when `declarations` holds them; nello and sevens (named in place
    of trumps) when their rule is on, the contract is worth at least 42 and it is not a plunge or splash
    (those promise every trick with trumps named by the partner).
    """
    legal = list(range(7))
    if rules.declares("doubles"):
        legal.append(DOUBLES)
    if rules.declares("no-trump"):
        legal.append(NO_TRUMP)
    if bid >= 42 and not is_special(call):
        if rules.nello:
            legal.append(NELLO)
        if rules.sevens:
            legal.append(SEVENS)
    return legal


def declaration_text(trump: int) -> str:
    """'sixes', 'doubles', 'no-trump', 'nello', 'sevens'."""
    return DECLARATION_NAMES[trump]


# ---------------------------------------------------------------------------------------------------------
# Play: every rule takes the play context (what was named, `dominoes.context_of`)


def is_pip_context(ctx: int) -> bool:
    """A pip suit 0..6 is trumps."""
    return 0 <= ctx < 7


def is_trump(d: int, ctx: int) -> bool:
    """Whether d is a trump.

    A pip suit named: every domino carrying the trump pip is a trump (and nothing else). Doubles named: the
    seven doubles are the trumps. No-trump, nello and sevens have no trumps.
    """
    if is_pip_context(ctx):
        return ctx in ends(d)
    if ctx == DOUBLES_TRUMP:
        return is_double(d)
    return False


def doubles_own_suit(ctx: int) -> bool:
    """The doubles form a suit of their own: as trumps (doubles named) or under nello's doubles suit."""
    return ctx in (DOUBLES_TRUMP, NELLO_SUIT)


def led_suit(d: int, ctx: int) -> int:
    """The suit a led domino calls for.

    7 for a trump (a pip suit named: a domino carrying it; doubles named: a double), or for a double under
    nello with the doubles their own suit; otherwise its higher end (5-3 leads fives; under no-trump a double
    leads its pip). Sevens has no suit: 0.
    """
    if ctx == SEVENS_CTX:
        return SEVENS_LED
    if is_trump(d, ctx):
        return TRUMPS_LED
    if ctx == NELLO_SUIT and is_double(d):
        return DOUBLES_LED
    high, _ = ends(d)
    return high


def follows(d: int, suit: int, ctx: int) -> bool:
    """Whether domino d follows the led suit (not under sevens, which has no following).

    On a trump lead (suit 7) a trump follows; under nello's doubles suit, on a double led a double follows.
    Otherwise a domino follows if it carries the led pip and belongs to no other suit: not a trump (on 5-3,
    5-6 is a five when sixes are not trump; 3-6 is not a five) and not a double when the doubles are their
    own suit (with doubles trump, on 6-4 the 6-6 is not a six).
    """
    if ctx == SEVENS_CTX:
        raise DealsimError("sevens has no suit to follow")
    if suit == TRUMPS_LED:  # == DOUBLES_LED
        return is_double(d) if doubles_own_suit(ctx) else is_trump(d, ctx)
    belongs_elsewhere = is_trump(d, ctx) or (doubles_own_suit(ctx) and is_double(d))
    return suit in ends(d) and not belongs_elsewhere


def rank_in_suit(d: int, pip: int, doubles_low: bool = False) -> int:
    """Rank of domino d among those carrying `pip`: the double is highest (7), or lowest (-1) with doubles
    low (no-trump with `doubles_low`, nello with `nello_doubles = low`), then by the other end."""
    high, low = ends(d)
    if high == low:
        return -1 if doubles_low else 7
    return low if high == pip else high


def rank_of_double(d: int) -> int:
    """Where the doubles are a suit of their own they rank by their pip: 6-6 high down to 0-0."""
    high, _ = ends(d)
    return high


def distance_from_seven(d: int) -> int:
    return abs(pips(d) - 7)


def legal_plays(hand: Sequence[int], trick_so_far: Sequence[int], ctx: int) -> list[int]:
    """The dominoes of `hand` that may be played to the current trick (its dominoes so far, in order).

    Sevens: every player, the leader too, must play his domino whose pips total closest to seven (of equals,
    his choice). Otherwise: leading, any domino; following, the player must follow the led suit if he can
    (on a trump lead, play a trump); if he cannot he may play any domino, trump or not.
    """
    if ctx == SEVENS_CTX:
        closest = min(distance_from_seven(d) for d in hand)
        return sorted(d for d in hand if distance_from_seven(d) == closest)
    if not trick_so_far:
        return sorted(hand)
    suit = led_suit(trick_so_far[0], ctx)
    following = [d for d in hand if follows(d, suit, ctx)]
    return sorted(following) if following else sorted(hand)


def winning_play(plays: Sequence[tuple[int, int]], ctx: int) -> tuple[int, int]:
    """The (seat, domino) now winning a trick, given its (seat, domino) plays so far (at least the lead).

    Sevens: the domino closest to seven, of equals the first played. Otherwise the highest trump in it wins
    (pip trumps rank by their non-trump end, the double highest; doubles as trumps by their pip); with no
    trump in it, the highest domino of the led suit (a pip suit by its non-suit end, the double highest, or
    lowest with doubles low; nello's doubles suit by pip). A domino off the led suit never wins.
    """
    if ctx == SEVENS_CTX:
        return min(plays, key=lambda play: distance_from_seven(play[1]))  # min keeps the first of equals
    trumps = [(seat, d) for seat, d in plays if is_trump(d, ctx)]
    if trumps:
        if ctx == DOUBLES_TRUMP:
            return max(trumps, key=lambda play: rank_of_double(play[1]))
        return max(trumps, key=lambda play: rank_in_suit(play[1], ctx))
    suit = led_suit(plays[0][1], ctx)
    in_suit = [(seat, d) for seat, d in plays if follows(d, suit, ctx)]
    if suit == DOUBLES_LED:  # nello's doubles suit (a trump lead was handled above)
        return max(in_suit, key=lambda play: rank_of_double(play[1]))
    return max(in_suit, key=lambda play: rank_in_suit(play[1], suit, doubles_low=ctx == NO_TRUMP_LOW))


def trick_winner(plays: Sequence[tuple[int, int]], ctx: int) -> int:
    """The seat that takes (or is so far taking) a trick of (seat, domino) plays."""
    seat, _ = winning_play(plays, ctx)
    return seat


def trick_points(dominoes: Sequence[int], rules: FortyTwoRules) -> int:
    """1 point for the trick plus the count dominoes in it."""
    return 1 + sum(count_points(d, rules) for d in dominoes)


def sitting_out(declarer: int, trump: int) -> int | None:
    """Under nello the declarer's partner takes no part; nobody else ever sits out."""
    return (declarer + 2) % 4 if trump == NELLO else None


def trick_order(leader: int, out: int | None) -> list[int]:
    """The seats that play to a trick, clockwise from the leader, skipping the one sitting out."""
    return [seat for seat in ((leader + i) % 4 for i in range(4)) if seat != out]


# ---------------------------------------------------------------------------------------------------------
# Scoring


def is_all_tricks(bid: int) -> bool:
    """42 and above (84, 126, 168, 210, plunge, splash, sevens) promise all seven tricks."""
    return bid >= 42


def outcome_so_far(
    bid: int,
    trump: int,
    declarer: int,
    tricks: Sequence[Trick],
    points: Sequence[int],
) -> bool | None:
    """True once the contract is made, False once it is set, None while the tricks played leave it open.

    - nello: set by the first trick the declarer takes; made when he has taken none of the seven.
    - 42 or more (plunge, splash, sevens included): set by the defenders' first trick (a trick the declarer's
      partner takes is his side's); made with all seven tricks.
    - below 42: made once the declarers hold the bid, set once the defenders hold more than 42 - bid.
    After seven tricks of four dominoes it is always decided (the points add up to 42).
    """
    side = declarer % 2
    if trump == NELLO:
        if any(t.winner == declarer for t in tricks):
            return False
        return True if len(tricks) == N_TRICKS else None
    if is_all_tricks(bid):
        if any(t.winner % 2 != side for t in tricks):
            return False
        return True if len(tricks) == N_TRICKS else None
    if points[side] >= bid:
        return True
    if points[1 - side] > ALL_TRICKS_POINTS - bid:
        return False
    return None


def stops_early(rules: FortyTwoRules) -> bool:
    """Under marks with play_out = false a hand stops as soon as it is made or set; the points game always
    plays all seven tricks."""
    return rules.scoring == "marks" and not rules.play_out


def hand_score(
    bid: int,
    declarer_side: int,
    points: Sequence[int],
    rules: FortyTwoRules | None = None,
    *,
    nello: bool = False,
    made: bool | None = None,
) -> tuple[tuple[int, int], bool]:
    """((score NS, score EW), made) for a played hand with contract `bid` (its value).

    made: whether the contract was made (`outcome_so_far`); when not given it is read off the points of seven
    tricks of four dominoes: a bid below 42 is made if the declarers took at least `bid` points; 42 and
    above only with all seven tricks (the only way to take all 42 points).

    Points game (the seed):
    - a bid below 42, made: each side scores the points it took;
    - 42 and above (84, 168, plunge, splash, sevens; a special bid's 126 and 210), made: the declarers score
      42 and the defenders 0;
    - a contract that fails: the declarers score 0, the defenders the points they took + `bid`;
    - nello: made, the declaring side scores the bid itself; set, the defenders score the bid itself.
    Marks: a made contract wins its marks (`marks_of(bid)`) for the declaring side, a set one gives them to
    the defenders; points taken do not count.
    """
    rules = rules or _DEFAULT_RULES
    defender_side = 1 - declarer_side
    declarer_points = points[declarer_side]
    defender_points = points[defender_side]
    if made is None:
        made = declarer_points == ALL_TRICKS_POINTS if is_all_tricks(bid) else declarer_points >= bid
    winner = declarer_side if made else defender_side
    score = [0, 0]
    if rules.scoring == "marks":
        score[winner] = marks_of(bid)
    elif rules.scoring != "points":
        raise DealsimError(f"unknown scoring {rules.scoring!r}")
    elif nello:
        score[winner] = bid
    elif made and is_all_tricks(bid):
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
    declaring side of that hand wins. (Under marks only one side scores in a hand, so only one can reach it.)
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


def match_target(rules: FortyTwoRules) -> int:
    """What a side must reach: `target_marks` marks under marks, else `target` points."""
    return rules.target_marks if rules.scoring == "marks" else rules.target


# ---------------------------------------------------------------------------------------------------------
# Views and decisions


def _padded(values: Sequence[int], width: int) -> np.ndarray:
    row = np.full((1, width), -1, dtype=np.int8)
    row[0, : len(values)] = values
    return row


@dataclass(frozen=True)
class HandSoFar:
    """What every seat has seen of the hand so far.

    calls: the call actions so far; trump: what was named (TRUMP action), None before; plays: every domino
    played so far in order; leader: the seat that leads the current trick (None during the auction); trick:
    the (seat, domino) plays of the current trick, which begins at trick_start = len(plays) - len(trick)
    (0 before play); points: points taken in completed tricks (NS, EW).
    """

    calls: Sequence[int]
    trump: int | None
    plays: Sequence[int]
    leader: int | None
    trick: Sequence[tuple[int, int]]
    points: Sequence[int]


def make_view(
    *,
    seat: int,
    dealer: int,
    hand: Sequence[int],
    so_far: HandSoFar,
    scores: Sequence[int],
    rules: FortyTwoRules | None = None,
) -> FortyTwoView:
    """A one-row `FortyTwoView` of the hand as `seat` sees it.

    hand: the seat's dominoes still held; so_far: the public record of the hand (see HandSoFar); scores:
    the match totals before this hand. high_bid is the value of the highest bid (a plunge's or splash's
    worked out); ctx the play context of what was named (-1 before).
    """
    calls, trump, plays, leader = so_far.calls, so_far.trump, so_far.plays, so_far.leader
    trick, points = so_far.trick, so_far.points
    contract, bidder_position = high_bid(calls)
    bidder = -1 if bidder_position is None else (dealer + 1 + bidder_position) % 4
    ctx = -1 if trump is None else context_of(trump, rules or _DEFAULT_RULES)
    if trick:
        led = led_suit(trick[0][1], ctx)
        winner, winning = winning_play(trick, ctx)
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
        ctx=np.array([ctx], dtype=np.int8),
        plays=_padded(plays, N_DOMINOES),
        n_played=np.array([len(plays)], dtype=np.int8),
        trick_start=np.array([len(plays) - len(trick)], dtype=np.int8),
        leader=np.array([-1 if leader is None else leader], dtype=np.int8),
        led=np.array([led], dtype=np.int8),
        winner=np.array([winner], dtype=np.int8),
        winning=np.array([winning], dtype=np.int8),
        played=np.array([ids_to_bits(plays)], dtype=np.uint32),
        points=np.array([points], dtype=np.int16),
        scores=np.array([scores], dtype=np.int32),
        rules=rules,
    )


def describe_move(kind: int, action: int) -> str:
    """A move in words: 'call pass', 'call 84', 'call plunge', 'trump 4', 'trump 7 (doubles)', 'play 6-4'."""
    if not 0 <= action < N_ACTIONS[kind]:
        return f"{KIND_NAMES[kind]} action {action} (out of range 0..{N_ACTIONS[kind] - 1})"
    if kind == CALL:
        return f"call {call_text(action)}"
    if kind == TRUMP:
        return f"trump {action}" if action < 7 else f"trump {action} ({declaration_text(action)})"
    return f"play {name(action)}"


REFEREE = Referee(KIND_NAMES, N_ACTIONS, describe_move, lambda seat: f"at seat {SEATS[seat]}")


def _check_hands(hands: Sequence[Sequence[int]]) -> list[list[int]]:
    if len(hands) != 4 or any(len(h) != HAND_SIZE for h in hands):
        raise DealsimError(
            f"a Forty-two deal is 4 hands of {HAND_SIZE} dominoes, got sizes {[len(h) for h in hands]}"
        )
    ids = [int(d) for h in hands for d in h]
    if sorted(ids) != list(range(N_DOMINOES)):
        raise DealsimError("a Forty-two deal must hold each of the 28 dominoes exactly once")
    return [sorted(int(d) for d in h) for h in hands]


# ---------------------------------------------------------------------------------------------------------
# A hand and a match


def play_hand(
    hands: Sequence[Sequence[int]],
    dealer: int,
    rules: FortyTwoRules,
    strategies: Sequence[Any],
    rng: np.random.Generator | None = None,
    scores: tuple[int, int] = (0, 0),
) -> HandRecord:
    """Play one hand: the auction, naming trumps (or nello, or sevens), the tricks and the score.

    hands: 4 lists of 7 domino ids indexed by seat; strategies: 4 strategies indexed by seat; rng is handed
    to every `decide` call unchanged; scores: the match totals before this hand (shown in the views).
    """
    dealt = _check_hands(hands)
    held = [list(h) for h in dealt]
    moves: list[tuple[int, int, int]] = []

    def view(seat: int, **public: Any) -> FortyTwoView:
        so_far = HandSoFar(**public)
        return make_view(seat=seat, dealer=dealer, hand=held[seat], so_far=so_far, scores=scores, rules=rules)

    # Auction: from the dealer's left, clockwise.
    calls: list[tuple[int, int]] = []
    call_actions: list[int] = []
    while not auction_over(call_actions, rules):
        seat = (dealer + 1 + len(call_actions)) % 4
        legal = legal_calls(call_actions, rules, held[seat])
        seen = view(seat, calls=call_actions, trump=None, plays=[], leader=None, trick=[], points=(0, 0))
        action = REFEREE.decide(strategies[seat], CALL, seat, seen, legal, rng)
        calls.append((seat, action))
        call_actions.append(action)
        moves.append((CALL, seat, action))

    if is_thrown_in(call_actions):
        return HandRecord(
            dealer=dealer,
            hands=dealt,
            calls=calls,
            thrown_in=True,
            declarer=None,
            bid=0,
            trump=None,
            tricks=[],
            points=(0, 0),
            score=(0, 0),
            made=None,
            moves=moves,
            scoring=rules.scoring,
        )

    # The highest bidder declares; he (his partner after a plunge or splash) names and leads the first trick.
    bid, position = high_bid(call_actions)
    declarer = calls[position][0]
    call = call_actions[position]
    namer = naming_seat(declarer, call)
    seen = view(namer, calls=call_actions, trump=None, plays=[], leader=namer, trick=[], points=(0, 0))
    trump = REFEREE.decide(strategies[namer], TRUMP, namer, seen, legal_declarations(bid, call, rules), rng)
    moves.append((TRUMP, namer, trump))
    ctx = context_of(trump, rules)
    out = sitting_out(declarer, trump)

    # Up to seven tricks; the winner of each leads the next. Under marks with play_out = false the hand
    # stops once the contract is made or set.
    points = [0, 0]
    plays: list[int] = []
    tricks: list[Trick] = []
    leader = namer
    made = None
    while len(tricks) < N_TRICKS:
        trick: list[tuple[int, int]] = []
        for seat in trick_order(leader, out):
            legal = legal_plays(held[seat], [d for _, d in trick], ctx)
            seen = view(
                seat, calls=call_actions, trump=trump, plays=plays, leader=leader, trick=trick, points=points
            )
            domino = REFEREE.decide(strategies[seat], PLAY, seat, seen, legal, rng)
            held[seat].remove(domino)
            trick.append((seat, domino))
            plays.append(domino)
            moves.append((PLAY, seat, domino))
        winner = trick_winner(trick, ctx)
        taken = trick_points([d for _, d in trick], rules)
        points[winner % 2] += taken
        tricks.append(Trick(leader=leader, plays=trick, winner=winner, points=taken))
        leader = winner
        made = outcome_so_far(bid, trump, declarer, tricks, points)
        if made is not None and stops_early(rules):
            break
    if made is None:
        raise DealsimError("seven tricks played and the contract neither made nor set")  # cannot happen

    score, made = hand_score(bid, declarer % 2, points, rules, nello=trump == NELLO, made=made)
    return HandRecord(
        dealer=dealer,
        hands=dealt,
        calls=calls,
        thrown_in=False,
        declarer=declarer,
        bid=bid,
        trump=trump,
        tricks=tricks,
        points=(points[0], points[1]),
        score=score,
        made=made,
        moves=moves,
        named_by=namer,
        scoring=rules.scoring,
    )


def play_match(
    deal: Callable[[int, int], Sequence[Sequence[int]]],
    first_dealer: int,
    rules: FortyTwoRules,
    strategies: Sequence[Any],
    rng: np.random.Generator | None = None,
    max_thrown_in: int = 100,
) -> MatchRecord[HandRecord]:
    """Play hands until a side wins the match; after `max_thrown_in` hands in a row thrown in, the game is
    abandoned with winner None (under all_pass = redeal no rule forces a bid, so strategies that always pass
    never finish; under dealer_forced no hand is thrown in).

    deal(hand_no, dealer) gives the hand's 4 lists of dominoes (hand_no counts from 0). The deal passes
    clockwise every hand, thrown-in hands included; those score nothing. Each hand's views show the totals
    before it. The totals are points (game to `target`), or marks under marks scoring (game to
    `target_marks`).
    """

    def play_next(hand_no: int, totals: list[int]) -> HandRecord:
        dealer = (first_dealer + hand_no) % 4
        return play_hand(deal(hand_no, dealer), dealer, rules, strategies, rng, scores=(totals[0], totals[1]))

    def winner(totals: list[int], record: HandRecord) -> int | None:
        if record.declarer is None:  # thrown in: nothing changed
            return None
        return match_winner(totals, record.declarer % 2, match_target(rules))

    match = MatchRules(
        play_next,
        HandRecord.totals_added,
        winner,
        max_deals=MAX_HANDS,
        idle=lambda record: record.thrown_in,
        max_idle_in_a_row=max_thrown_in,
    )
    return play_deals_to_target(match, first_dealer, n_sides=2)


# ---------------------------------------------------------------------------------------------------------
# Reading a hand


def _dominoes_text(dominoes: Sequence[int]) -> str:
    return " ".join(name(d) for d in sorted(dominoes, reverse=True))


def contract_text(record: HandRecord) -> str:
    """The contract in words: '30 by W (EW), trumps: sixes (6)', '168 (plunge) by N (NS), S names trumps:
    doubles (7)', '42 by E (EW), nello (W sits out)', '42 by S (NS), no-trump (8)'."""
    call = winning_call([c for _, c in record.calls])
    kind = f" ({call_text(call)})" if is_special(call) else ""
    who = f"{SEATS[record.declarer]} ({SIDE_NAMES[record.declarer % 2]})"
    named = declaration_text(record.trump)
    if record.trump < 7:
        named = f"trumps: {named}"
    elif record.trump == DOUBLES:
        named = "trumps: doubles"
    if record.trump == NELLO:
        named += f" ({SEATS[sitting_out(record.declarer, NELLO)]} sits out)"
    else:
        named += f" ({record.trump})"
    if record.named_by is not None and record.named_by != record.declarer:
        named = f"{SEATS[record.named_by]} names {named}"
    return f"{record.bid}{kind} by {who}, {named}"


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
    lines.append(f"Contract: {contract_text(record)}")
    for number, trick in enumerate(record.tricks, 1):
        played = ", ".join(f"{SEATS[seat]} {name(d)}" for seat, d in trick.plays)
        lines.append(
            f"Trick {number}: {SEATS[trick.leader]} leads: {played} -> {SEATS[trick.winner]} "
            f"wins {trick.points} point{'s' if trick.points != 1 else ''}"
        )
    outcome = "made" if record.made else "set"
    if len(record.tricks) < N_TRICKS:
        lines.append(f"The hand stops after trick {len(record.tricks)}: the contract is {outcome}.")
    ns, ew = record.points
    lines.append(f"Points taken: NS {ns}, EW {ew}")
    if record.scoring == "marks":
        lines.append(
            f"Score: NS {record.score[0]}, EW {record.score[1]} marks (contract {record.bid}, "
            f"{marks_of(record.bid)} mark{'s' if marks_of(record.bid) != 1 else ''}, {outcome})"
        )
    else:
        lines.append(
            f"Score: NS {record.score[0]}, EW {record.score[1]} points (contract {record.bid} {outcome})"
        )
    return "\n".join(lines)


def hand_to_dict(record: HandRecord) -> dict:
    """The hand as plain JSON-ready data: dominoes as '6-4', seats as letters, calls as 'pass'/'30'/'84'/
    'plunge', what was named both as its action ('trump') and in words ('declaration')."""

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
        "declaration": None if record.trump is None else declaration_text(record.trump),
        "named_by": None if record.named_by is None else SEATS[record.named_by],
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
        "scoring": record.scoring,
        "made": record.made,
        "moves": [
            [KIND_NAMES[kind], SEATS[seat], action_text(kind, action)] for kind, seat, action in record.moves
        ],
    }
