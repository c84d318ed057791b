"""Yardstick for Forty-two throughput: one compiled loop per hand (numba), the same rule work dealsim's
batched core (simulator/fortytwo/core.py) does under random play with the seed rules (the defaults of
simulator/fortytwo/rules.py: 7-point count, the seed auction from 30, 84 only over 42 and 168 only over 84,
pip trumps, points scoring, four passes throw the hand in, game to 250).

One deal of `dealsim bench forty-two`'s default unit is a hand (unit `deal`), and so it is here (`--unit
hand`, the default). `--unit game` plays whole games to 250 (the unit `match`).

A hand, as the core plays it:
- the 28 dominoes shuffled, 7 to each seat; hand k (first hand of game k) is dealt by seat k % 4;
- the auction from the dealer's left, clockwise: a call is a pass or a bid above the highest so far (30..42,
  84 over a 42, 168 over an 84); a seat that has bid only passes; it ends after three passes in a row
  following a bid, or after four passes (the hand is thrown in: no play, no score);
- the declarer (the highest bidder) names a pip 0..6 as trumps and leads; the dominoes carrying it are the
  trumps, a led domino's suit is its higher end (a trump: trumps led); a player follows the led suit when
  he can, else plays anything; the highest trump, or else the highest domino of the led suit, takes the
  trick (the double first, then by the other end); the winner leads; all seven tricks are played;
- a trick is worth 1 point plus its count (5-0, 4-1, 3-2, 5-5, 6-4: 7 each), 42 in all; the score: a bid of
  30..41 made (the declarers took at least the bid) scores each side its points, a bid of 42 or more made
  (every trick) scores the declarers 42, a set bid scores the defenders their points + the bid.
Random play: every decision is uniform over the legal actions of dealsim's encoding (simulator/fortytwo/
view.py): a call uniform over pass and the legal bids, trumps uniform over the 7 pips, a play uniform over
the legal dominoes (dealsim's `random` strategy over its legal mask).
A game: the deal passes to the left after each hand (thrown-in hands too), game k's first dealer is seat
k % 4; each hand's score adds to its side's total; a side at 250 wins (both: the higher total; equal: the
side that declared the hand); a game with 100 hands thrown in in a row, or still undecided after 10,000
hands, is abandoned (no winner), as dealsim does.

Left out: the rule options off by default (the Texas presets, special contracts, marks); the per-hand table
the core builds afterwards (what the declaring side held) and the move record. Counted per hand: thrown-in
hands, bids, made contracts, calls, each side's points and scores (printed as means, comparable with
dealsim's).

Run: python yardstick42.py [DEALS] [--unit hand|game] [--check]  (needs numba). Prints `deals_per_s=` (per
hand with --unit hand, per game with --unit game) and `hands_per_s=`. --check plays a few thousand games and
hands checking every hand: each domino is dealt once and played once, by its holder; each call is legal
(a bid beats the highest and stands on the ladder, no seat bids twice) and the auction ends where the rules
end it; every play follows suit when the hand can (by pips, not the tables) and every trick goes to the
domino the rules make win; the points add up to 42 and the count to 35; the score is the rules' score; a
game ends when and as the rules end it.
"""

import sys
import time

import numpy as np
from numba import njit

# ------------------------------------------------------------------------------------------- the dominoes
# domino id d = high * (high + 1) / 2 + low: 0-0 is 0, 1-0 is 1, 1-1 is 2, ..., 6-6 is 27 (as in
# simulator/fortytwo/dominoes.py); seats 0=N 1=E 2=S 3=W, side = seat % 2 (0 N-S, 1 E-W)
N_DOMINOES, SEATS, HAND, TRICKS = 28, 4, 7, 7
TRUMP_LED = 7  # the led suit when a trump leads
HIGH = np.array([h for h in range(7) for _ in range(h + 1)], dtype=np.int64)
LOW = np.array([lo for h in range(7) for lo in range(h + 1)], dtype=np.int64)
IS_COUNT = ((HIGH + LOW) % 5 == 0) & (HIGH + LOW > 0)  # 5-0 4-1 3-2 5-5 6-4
COUNT = np.where(IS_COUNT, 7, 0).astype(np.int64)  # the seed: 7 points each, 35 + 7 trick points = 42


def _tables():
    """[trump, led suit, domino] for the 7 pip trumps: KEY how strongly the domino stands in the trick (a
    trump 8 + its rank, a domino of the led suit its rank, anything else -1; the rank: the double 7, else the
    other end), FOLLOWS whether it follows the led suit; LEAD_SUIT[trump, domino] the suit it leads."""
    key = np.full((7, 8, N_DOMINOES), -1, dtype=np.int64)
    follows = np.zeros((7, 8, N_DOMINOES), dtype=np.bool_)
    lead_suit = np.zeros((7, N_DOMINOES), dtype=np.int64)
    for t in range(7):
        for d in range(N_DOMINOES):
            hi, lo = int(HIGH[d]), int(LOW[d])
            trump = t in (hi, lo)
            lead_suit[t, d] = TRUMP_LED if trump else hi
            for s in range(8):
                if trump:
                    key[t, s, d] = 8 + (7 if hi == lo else (lo if hi == t else hi))  # takes any lead
                    follows[t, s, d] = s == TRUMP_LED
                elif s != TRUMP_LED and s in (hi, lo):
                    key[t, s, d] = 7 if hi == lo else (lo if hi == s else hi)
                    follows[t, s, d] = True
    return key, follows, lead_suit


KEY, FOLLOWS, LEAD_SUIT = _tables()
TABLES = (KEY, FOLLOWS, LEAD_SUIT, COUNT, HIGH, LOW)

MIN_BID, TARGET = 30, 250
MAX_CALLS = 16  # the seed auction: 3 opening passes, 4 bids with 2 passes between, 3 closing passes
MAX_IDLE, MAX_HANDS = 100, 10_000  # dealsim's guards (fortytwo/game.py Games, reference.MAX_HANDS)

# stats: hands, thrown in, bids summed (hands played), made, calls, points N-S, scores N-S, E-W, declarers'
# points, check errors, games abandoned, N-S wins, E-W wins, bids of 84 or more
HANDS, THROWN_IN, BIDS, MADE, CALLS, POINTS_NS, SCORE_NS, SCORE_EW, DECL_POINTS = range(9)
ERRORS, ABANDONED, WINS_NS, WINS_EW, BIG_BIDS = range(9, 14)
N_STATS = 14


# ------------------------------------------------------------------------------------------- the hand
@njit(cache=True)
def call(high, has_bid):
    """A call uniform over the legal ones: pass (0), or for a seat that has not bid every bid above `high`
    on the ladder (30..42, then 84 over a 42, 168 over an 84)."""
    if has_bid:
        return 0
    lo = max(MIN_BID, high + 1)
    numeric = max(0, 43 - lo)
    jump = 1 if high in (42, 84) else 0
    k = np.random.randint(1 + numeric + jump)
    if k == 0:
        return 0
    if k <= numeric:
        return lo + k - 1
    return 84 if high == 42 else 168


@njit(cache=True)
def auction(dealer, calls):
    """The seed auction from the dealer's left; fills `calls`, returns (calls made, highest bid, its seat)."""
    seat = (dealer + 1) & 3
    high, bidder, passes, n_calls, bidders = 0, -1, 0, 0, 0
    while True:
        c = call(high, (bidders >> seat) & 1)
        calls[n_calls] = c
        n_calls += 1
        if c > 0:
            high, bidder, passes = c, seat, 0
            bidders |= 1 << seat
        else:
            passes += 1
        if (passes == 3 and high > 0) or passes == 4:
            return n_calls, high, bidder
        seat = (seat + 1) & 3


@njit(cache=True)
def carries(d, pip, HIGH, LOW):
    return HIGH[d] == pip or LOW[d] == pip


@njit(cache=True)
def pip_follows(d, lead, trump, HIGH, LOW):
    """By pips, for --check: d follows the domino `lead` (a trump lead wants a trump; otherwise the lead's
    higher end, on a domino that is no trump)."""
    if carries(lead, trump, HIGH, LOW):
        return carries(d, trump, HIGH, LOW)
    return carries(d, HIGH[lead], HIGH, LOW) and not carries(d, trump, HIGH, LOW)


@njit(cache=True)
def pip_winner(trick, trump, HIGH, LOW):
    """By pips, for --check: which of a trick's 4 dominoes (in play order) takes it."""
    best, best_rank, best_trump = 0, -1, False
    lead = trick[0]
    for i in range(4):
        d = trick[i]
        t = carries(d, trump, HIGH, LOW)
        if not t and not pip_follows(d, lead, trump, HIGH, LOW):
            continue  # neither a trump nor of the led suit: it cannot take the trick
        suit = trump if t else HIGH[lead]
        rank = 7 if HIGH[d] == LOW[d] else (LOW[d] if HIGH[d] == suit else HIGH[d])
        if (t and not best_trump) or (t == best_trump and rank > best_rank):
            best, best_rank, best_trump = i, rank, t
    return best


@njit(cache=True)
def score(bid, bidder, points):
    """Each side's score and whether the contract was made: under 42 made scores both sides their points;
    42 or more made scores the declarers 42; set, the defenders score their points + the bid."""
    side = bidder & 1
    decl, defs = points[side], points[1 - side]
    made = decl == 42 if bid >= 42 else decl >= bid
    out = np.zeros(2, np.int64)
    if made:
        out[side] = 42 if bid >= 42 else decl
        out[1 - side] = 0 if bid >= 42 else defs
    else:
        out[1 - side] = defs + bid
    return out, made


@njit(cache=True)
def play_hand(dealer, deck, hands, n_hand, calls, plays, points, tables, check):
    """Deal, auction, trumps and seven tricks of one hand from the shuffled `deck`. Returns (calls made,
    bid, declarer, trump, errors found by check); 0 as the bid means thrown in. `points` gets each side's
    points, `plays` the dominoes in play order."""
    KEY, FOLLOWS, LEAD_SUIT, COUNT, HIGH, LOW = tables
    for p in range(SEATS):
        for i in range(HAND):
            hands[p, i] = deck[p * HAND + i]
        n_hand[p] = HAND
    points[:] = 0
    n_calls, bid, bidder = auction(dealer, calls)
    if bid == 0:
        return n_calls, 0, -1, -1, 0
    trump = np.random.randint(7)
    errors = 0
    legal = np.empty(HAND, np.int64)
    trick = np.empty(4, np.int64)
    leader = bidder
    for t in range(TRICKS):
        led, winner, win_key, pts = -1, -1, -1, 1
        for k in range(4):
            p = (leader + k) & 3
            hand = hands[p]
            n = 0
            if k > 0:
                for i in range(n_hand[p]):
                    if FOLLOWS[trump, led, hand[i]]:
                        legal[n] = i
                        n += 1
            i = np.random.randint(n_hand[p]) if n == 0 else legal[np.random.randint(n)]
            d = hand[i]
            if check and k > 0 and not pip_follows(d, trick[0], trump, HIGH, LOW):
                for j in range(n_hand[p]):  # a domino that does not follow: the hand had none that does
                    if pip_follows(hand[j], trick[0], trump, HIGH, LOW):
                        errors += 1
            n_hand[p] -= 1
            hand[i] = hand[n_hand[p]]
            if k == 0:
                led = LEAD_SUIT[trump, d]
            key = KEY[trump, led, d]
            if key > win_key:
                winner, win_key = p, key
            pts += COUNT[d]
            trick[k] = d
            plays[t * 4 + k] = d
        points[winner & 1] += pts
        leader = winner
    return n_calls, bid, bidder, trump, errors


@njit(cache=True)
def check_hand(dealer, deck, calls, n_calls, bid, bidder, trump, plays, points, out, made, tables):
    """Errors in a finished hand: dominoes not dealt or played once each, an illegal call or an auction that
    ends where the rules do not end it, points that do not add up, a score that is not the rules'."""
    COUNT, HIGH, LOW = tables[3], tables[4], tables[5]
    errors = 0
    seen = np.zeros(N_DOMINOES, np.int64)
    owner = np.empty(N_DOMINOES, np.int64)
    for i in range(N_DOMINOES):
        seen[deck[i]] += 1
        owner[deck[i]] = i // HAND
    if seen.min() != 1:
        errors += 1
    # the auction, call by call
    seat = (dealer + 1) & 3
    high, high_seat, passes, bidders = 0, -1, 0, 0
    for j in range(n_calls):
        if (passes == 3 and high > 0) or passes == 4:
            errors += 1  # a call after the auction had ended
        c = calls[j]
        if c > 0:
            ladder = (MIN_BID <= c <= 42) or (c == 84 and high == 42) or (c == 168 and high == 84)
            if not ladder or c <= high or (bidders >> seat) & 1:
                errors += 1
            high, high_seat, passes = c, seat, 0
            bidders |= 1 << seat
        else:
            passes += 1
        seat = (seat + 1) & 3
    if not ((passes == 3 and high > 0) or passes == 4) or n_calls > MAX_CALLS:
        errors += 1
    if high != bid or high_seat != bidder:
        errors += 1
    if bid == 0:
        return errors + (1 if out[0] != 0 or out[1] != 0 or points[0] != 0 or points[1] != 0 else 0)
    # the play: every domino once, clockwise from the declarer, each trick led by the last one's taker (the
    # taker worked out by pips), the points recounted from the tricks
    if not 0 <= trump < 7 or owner[plays[0]] != bidder:
        errors += 1
    seen[:] = 0
    taken = np.zeros(2, np.int64)
    count = 0
    for t in range(TRICKS):
        trick = plays[t * 4 : t * 4 + 4]
        leader = owner[trick[0]]
        for k in range(4):
            seen[trick[k]] += 1
            count += COUNT[trick[k]]
            if owner[trick[k]] != (leader + k) & 3:
                errors += 1
        taker = owner[trick[pip_winner(trick, trump, HIGH, LOW)]]
        taken[taker & 1] += 1 + COUNT[trick[0]] + COUNT[trick[1]] + COUNT[trick[2]] + COUNT[trick[3]]
        if t + 1 < TRICKS and owner[plays[t * 4 + 4]] != taker:
            errors += 1
    if seen.min() != 1 or count != 35 or points[0] + points[1] != 42 or (taken != points).any():
        errors += 1
    # the score, from the rules' cases
    side = bidder & 1
    if bid < 42 and points[side] >= bid:
        want_decl, want_def, want_made = points[side], points[1 - side], True
    elif bid >= 42 and points[1 - side] == 0:
        want_decl, want_def, want_made = 42, 0, True
    else:
        want_decl, want_def, want_made = 0, points[1 - side] + bid, False
    if out[side] != want_decl or out[1 - side] != want_def or made != want_made:
        errors += 1
    return errors


@njit(cache=True)
def run(n_deals, seed, whole_games, check, tables):
    """Play n_deals games (or hands); returns the stats (see N_STATS)."""
    np.random.seed(seed)
    deck = np.arange(N_DOMINOES)
    hands = np.empty((SEATS, HAND), np.int64)
    n_hand = np.zeros(SEATS, np.int64)
    calls = np.empty(MAX_CALLS, np.int64)
    plays = np.empty(N_DOMINOES, np.int64)
    points = np.zeros(2, np.int64)
    totals = np.zeros(2, np.int64)
    stats = np.zeros(N_STATS, np.int64)
    for g in range(n_deals):
        totals[:] = 0
        idle = 0
        for hand_no in range(MAX_HANDS):
            dealer = (g + hand_no) & 3
            np.random.shuffle(deck)
            n_calls, bid, bidder, trump, errors = play_hand(
                dealer, deck, hands, n_hand, calls, plays, points, tables, check
            )
            stats[HANDS] += 1
            stats[CALLS] += n_calls
            if bid == 0:
                out, made = np.zeros(2, np.int64), False
                stats[THROWN_IN] += 1
            else:
                out, made = score(bid, bidder, points)
                stats[BIDS] += bid
                stats[BIG_BIDS] += bid >= 84
                stats[MADE] += made
                stats[POINTS_NS] += points[0]
                stats[DECL_POINTS] += points[bidder & 1]
            stats[SCORE_NS] += out[0]
            stats[SCORE_EW] += out[1]
            if check:
                errors += check_hand(
                    dealer, deck, calls, n_calls, bid, bidder, trump, plays, points, out, made, tables
                )
                stats[ERRORS] += errors
            if not whole_games:
                break
            before = totals.copy()
            totals += out
            if totals.max() >= TARGET:
                # the higher total; equal totals: the declaring side (a thrown-in hand cannot get here)
                won = bidder & 1 if totals[0] == totals[1] else int(totals[1] > totals[0])
                if check and (bid == 0 or before.max() >= TARGET):
                    stats[ERRORS] += 1
                stats[WINS_NS + won] += 1
                break
            idle = idle + 1 if bid == 0 else 0
            if idle >= MAX_IDLE:
                stats[ABANDONED] += 1
                break
        else:
            stats[ABANDONED] += 1
    return stats


def main(argv):
    check = "--check" in argv
    unit = "hand"
    args = []
    it = iter(argv)
    for a in it:
        if a == "--unit":
            unit = next(it, "hand")
        elif a.startswith("--unit="):
            unit = a.split("=", 1)[1]
        elif not a.startswith("--"):
            args.append(a)
    if unit not in ("hand", "game"):
        print(f"--unit must be hand or game, not {unit!r}")
        return 2
    whole = unit == "game"
    n = int(args[0]) if args else (100_000 if whole else 1_000_000)
    if check:
        m = max(n, 5000)
        stats = run(m, 3, True, True, TABLES)
        stats_hand = run(m, 4, False, True, TABLES)
        if stats[ERRORS] or stats_hand[ERRORS] or stats[ABANDONED] or stats[WINS_NS] + stats[WINS_EW] != m:
            print(f"check=FAILED errors={stats[ERRORS] + stats_hand[ERRORS]} abandoned={stats[ABANDONED]}")
            return 1
        print(f"check=ok games={m} hands={stats[HANDS]} first_hands={m}")
    run(1000, 1, whole, False, TABLES)  # compile (or load the cache) and warm up
    t0 = time.perf_counter()
    stats = run(n, 7, whole, False, TABLES)
    dt = time.perf_counter() - t0
    hands = int(stats[HANDS])
    played = hands - int(stats[THROWN_IN])
    wins = f"{stats[WINS_NS] / n:.3f},{stats[WINS_EW] / n:.3f}" if whole else "-"
    print(
        f"unit={unit} deals={n} hands={hands} seconds={dt:.3f} deals_per_s={n / dt:,.0f} "
        f"hands_per_s={hands / dt:,.0f} hands_per_deal={hands / n:.3f} "
        f"thrown_in={stats[THROWN_IN] / hands:.5f} calls_per_hand={stats[CALLS] / hands:.3f} "
        f"mean_bid={stats[BIDS] / played:.2f} big_bids={stats[BIG_BIDS] / played:.4f} "
        f"made={stats[MADE] / played:.4f} mean_points_ns={stats[POINTS_NS] / played:.2f} "
        f"mean_declarer_points={stats[DECL_POINTS] / played:.2f} mean_score_ns={stats[SCORE_NS] / hands:.2f} "
        f"mean_score_ew={stats[SCORE_EW] / hands:.2f} "
        f"wins_ns_ew={wins}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
