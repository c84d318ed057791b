"""Yardstick for Frank's Zoo throughput: one compiled loop per game (numba), the same rule work dealsim's
batched core (simulator/franks_zoo/core.py, play.py `Games`) does under random play with the default rules
(docs/games/franks-zoo.md: 5 players, target 19 for 2 players, 2 cards exchanged, help on).

One deal of `dealsim bench franks-zoo`'s default unit is a whole game (unit `match`: hands until 2 players
have 19 points), and so it is here (`--unit game`, the default). `--unit hand` plays first hands only (the
unit `deal`: no teams, no exchange, no help).

A game, as the core plays it:
- each hand: the 60 cards (a count per kind) shuffled and dealt in blocks from the dealer's left; game k's
  first dealer is seat k % 5, later dealers the first in the standings;
- the first hand: everyone alone, the dealer's left leads; later hands: teams from the standings (1+4, 2+5,
  3 solo), the exchange (each junior gives 2 cards one at a time, then his senior gives 2 back, then the solo
  player sets 2 aside as taken cards), the last in the standings leads;
- play: a leader who holds only the chameleon is skipped; each player beats the set on the table (one card
  more of the kind, or as many of a kind that beats it; chameleon and mosquito-as-elephant included) or
  passes; the trick ends when every other player still holding cards has passed in a row; a player who
  empties his hand is out; the hand ends when at most one player holds cards (the table's cards go to the
  last set's player);
- help: a junior whose senior holds cards may, facing a set, lay a partial and ask; the senior declines (a
  pass for the junior) or completes a set that beats the table, played as the junior's;
- scoring: placement points (5, 4, 3, 2, 0), from the second hand the partner's placement too, the solo
  bonus 4, lions (+1 each from 2 taken), hedgehogs (-1 for a player who took one), the last player's lions in
  hand (-1 each); the standings by total, ties to the player who stood worse before; the game ends when 2
  players have 19, won by the first in the standings.
Random play: every decision is uniform over the legal actions of dealsim's encoding (simulator/franks_zoo/
view.py): an exchange gives a kind held (uniform over kinds, not cards); a play is uniform over pass (unless
leading), every set held that beats the table (sets = (kind, real cards, chameleon, mosquito), 128 of them)
and, for a junior who may ask, every partial he holds that some set completing it would beat the table with
(142 partials); an answer is uniform over decline and every set the senior can complete that beats the table.

Left out: the move record, the per-player-per-hand table and game table the core builds (help counts,
places, points by source: here only totals), the rule options' other values (fixed at the defaults).
Counted: games, hands, asks, helped sets, and the winner's seat (printed, comparable with dealsim's).

Run: python yardstick_zoo.py [DEALS] [--unit game|hand] [--check]  (needs numba). Prints `deals_per_s=` (per
game with --unit game, per hand with --unit hand) and `hands_per_s=`. --check plays a few thousand games
checking every hand: each card ends exactly once in a hand or among the taken cards, the places are 1..5,
the placement points add up to 14 (team hands: each partner gets both partners' placement), the points
by source add up to each player's total, and every legal play lists only sets the hand holds.
"""

import sys
import time

import numpy as np
from numba import njit

# ------------------------------------------------------------------------------------------- the cards
# kinds 0..12: whale, elephant, crocodile, polar bear, lion, seal, fox, perch, hedgehog, fish, mouse,
# mosquito, chameleon (as in simulator/franks_zoo/cards.py)
WHALE, ELEPHANT, CROCODILE, POLAR_BEAR, LION, SEAL, FOX, PERCH, HEDGEHOG, FISH, MOUSE, MOSQUITO, CHAMELEON = (
    range(13)
)
N_KINDS = 13
DECK = np.array([5] * 11 + [4, 1], dtype=np.int64)
N_CARDS = int(DECK.sum())
BEATEN_BY = {  # table 2 of the rulebook: the kinds that beat a kind at equal size
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
PREDATOR = np.zeros((12, 12), dtype=bool)
for _table, _beaters in BEATEN_BY.items():
    PREDATOR[list(_beaters), _table] = True


def _sets(partial):
    rows = []
    for kind in range(12):
        for real in range(0 if partial else 1, DECK[kind] + 1):
            for chameleon in (0, 1):
                for mosquito in (0, 1) if kind == ELEPHANT else (0,):
                    if real + chameleon + mosquito == 0 or (not partial and mosquito and not real):
                        continue
                    rows.append((kind, real, chameleon, mosquito))
    return np.array(rows, dtype=np.int64)


SETS = _sets(False)  # (128, 4): kind, real cards, chameleon, mosquito
PARTIALS = _sets(True)  # (142, 4): what a junior may lay when he asks
SET_SIZE = SETS[:, 1:].sum(axis=1)
PART_SIZE = PARTIALS[:, 1:].sum(axis=1)
BEATS = ((SETS[None, :, 0] == SETS[:, None, 0]) & (SET_SIZE[None, :] == SET_SIZE[:, None] + 1)) | (
    (SET_SIZE[None, :] == SET_SIZE[:, None]) & PREDATOR[SETS[None, :, 0], SETS[:, None, 0]]
)  # [table, set]
COMPLETES = (
    (SETS[None, :, 0] == PARTIALS[:, None, 0])
    & (SETS[None, :, 1:] >= PARTIALS[:, None, 1:]).all(axis=2)
    & (SET_SIZE[None, :] > PART_SIZE[:, None])
)  # [partial, set]
ASKABLE = (COMPLETES[None, :, :] & BEATS[:, None, :]).any(axis=2)  # [table, partial]


def _lists(mask):
    """Row i's True columns, padded with -1: (rows, max count) and the counts."""
    counts = mask.sum(axis=1)
    out = np.full((len(mask), max(1, counts.max())), -1, dtype=np.int64)
    for i, row in enumerate(mask):
        cols = np.flatnonzero(row)
        out[i, : len(cols)] = cols
    return out, counts.astype(np.int64)


BEATERS, N_BEATERS = _lists(BEATS)  # the sets that may be played on each set
ASKS, N_ASKS = _lists(ASKABLE)  # the partials a junior may lay on each set
COMPLETES_I = COMPLETES.astype(np.int64)
TABLES = (SETS, PARTIALS, SET_SIZE, BEATERS, N_BEATERS, ASKS, N_ASKS, COMPLETES_I, DECK)

PLAYERS, TARGET, END_PLAYERS, EXCHANGE_CARDS, SOLO_BONUS, LION_MIN = 5, 19, 2, 2, 4, 2
ALONE, SENIOR, JUNIOR, SOLO = 0, 1, 2, 3
MAX_HANDS = 200  # dealsim's guard (play.Games.max_deals)


# ------------------------------------------------------------------------------------------- the hand
@njit(cache=True)
def holds(hand, row):
    """The hand can lay set or partial `row` (kind, real, chameleon, mosquito)."""
    return hand[row[0]] >= row[1] and hand[CHAMELEON] >= row[2] and hand[MOSQUITO] >= row[3]


@njit(cache=True)
def take(hand, row, sign):
    """Add (sign 1) or remove (sign -1) the cards of a set or partial; returns how many."""
    hand[row[0]] += sign * row[1]
    hand[CHAMELEON] += sign * row[2]
    hand[MOSQUITO] += sign * row[3]
    return row[1] + row[2] + row[3]


@njit(cache=True)
def next_holder(held, start, include_start):
    p = len(held)
    for k in range(0 if include_start else 1, p + (0 if include_start else 1)):
        seat = (start + k) % p
        if held[seat] > 0:
            return seat
    return start


@njit(cache=True)
def trick_leader(hands, held, leader):
    """A leader who can lay no set (he holds only the chameleon, or nothing) passes the lead on."""
    p = len(held)
    for _ in range(p):
        if held[leader] > hands[leader, CHAMELEON]:
            break
        leader = next_holder(held, leader, False)
    return leader


@njit(cache=True)
def go_out(held, place, n_out, seat):
    if held[seat] == 0 and place[seat] == 0:
        n_out += 1
        place[seat] = n_out
    return n_out


@njit(cache=True)
def play_hand(hand_no, dealer, order, hands, held, taken, place, role, partner, acts, tables, stats, check):
    """Play one hand from the deal on (hands (P, 13) as dealt); fills `taken`, `place`; hands keep what is
    left. Returns the first leader (before skipping a leader who holds only the chameleon)."""
    SETS, PARTIALS, SET_SIZE, BEATERS, N_BEATERS, ASKS, N_ASKS, COMPLETES_I, _ = tables
    p = len(held)
    k = (p + 1) // 2
    taken[:] = 0
    place[:] = 0
    for s in range(p):
        held[s] = hands[s].sum()
    first = hand_no == 0
    # teams and the exchange
    if first:
        role[:] = ALONE
        partner[:] = -1
        leader = (dealer + 1) % p
    else:
        role[:] = SOLO
        partner[:] = -1
        for i in range(p - k):
            senior, junior = order[i], order[i + k]
            role[senior], role[junior] = SENIOR, JUNIOR
            partner[senior], partner[junior] = junior, senior
        leader = order[p - 1]
        gift = np.zeros(N_KINDS, np.int64)
        for i in range(p - k + (p % 2)):
            for who in range(
                2
            ):  # the junior gives, then his senior (holding the junior's cards); or the solo
                if i == p - k:
                    if who == 1:
                        break
                    giver = order[k - 1]
                else:
                    giver = order[i + k] if who == 0 else order[i]
                gift[:] = 0
                for _ in range(EXCHANGE_CARDS):
                    n = 0
                    for kind in range(N_KINDS):
                        if hands[giver, kind] > 0:
                            acts[n] = kind
                            n += 1
                    kind = acts[np.random.randint(n)]
                    hands[giver, kind] -= 1
                    held[giver] -= 1
                    gift[kind] += 1
                if partner[giver] >= 0:
                    hands[partner[giver]] += gift
                    held[partner[giver]] += EXCHANGE_CARDS
                else:
                    taken[giver] += gift  # the solo player's cards set aside count as taken
    n_out = 0
    for s in range(p):  # a solo player who set his whole hand aside (7 players) is out at once
        n_out = go_out(held, place, n_out, s) if role[s] == SOLO else n_out
    trick = np.zeros(N_KINDS, np.int64)
    turn = trick_leader(hands, held, leader)
    table, table_player, passes = -1, -1, 0
    while True:
        seat = turn
        hand = hands[seat]
        # the legal actions: 0 pass, 1 + s play set s, 1000 + q ask for help laying partial q
        n = 0
        if table < 0:
            for s in range(len(SETS)):
                if holds(hand, SETS[s]):
                    acts[n] = 1 + s
                    n += 1
        else:
            acts[0] = 0
            n = 1
            for j in range(N_BEATERS[table]):
                s = BEATERS[table, j]
                if holds(hand, SETS[s]):
                    acts[n] = 1 + s
                    n += 1
            if not first and role[seat] == JUNIOR and held[partner[seat]] > 0:
                for j in range(N_ASKS[table]):
                    q = ASKS[table, j]
                    if holds(hand, PARTIALS[q]):
                        acts[n] = 1000 + q
                        n += 1
        a = acts[np.random.randint(n)]
        player, st = seat, -1
        if a >= 1000:  # the senior answers: decline, or a set completing the partial that beats the table
            q = a - 1000
            senior = partner[seat]
            shand = hands[senior]
            part = PARTIALS[q]
            stats[1] += 1
            acts[0] = 0
            n = 1
            for j in range(N_BEATERS[table]):
                s = BEATERS[table, j]
                row = SETS[s]
                # the senior adds what the set holds beyond the laid cards (COMPLETES: same kind, more cards)
                if (
                    COMPLETES_I[q, s]
                    and shand[row[0]] >= row[1] - part[1]
                    and shand[CHAMELEON] >= row[2] - part[2]
                    and shand[MOSQUITO] >= row[3] - part[3]
                ):
                    acts[n] = 1 + s
                    n += 1
            b = acts[np.random.randint(n)]
            if b > 0:
                st = b - 1
                stats[2] += 1
                laid = take(hands[seat], part, -1)
                held[seat] -= laid
                take(hands[senior], SETS[st], -1)
                take(hands[senior], part, 1)
                held[senior] -= SET_SIZE[st] - laid
        elif a > 0:
            st = a - 1
            held[seat] -= take(hand, SETS[st], -1)
        if st >= 0:  # a set is played (helped or not): the player is the junior
            take(trick, SETS[st], 1)
            table, table_player, passes = st, player, 0
            n_out = go_out(held, place, n_out, player)
            if a >= 1000:
                n_out = go_out(held, place, n_out, partner[player])
            holders, last = 0, -1
            for s in range(p):
                if held[s] > 0:
                    holders += 1
                    last = s
            if holders <= 1:  # the hand is over: the last one in is last, the table to the last set's player
                if holders == 1:
                    place[last] = p
                taken[table_player] += trick
                return leader
            turn = next_holder(held, player, False)
        else:  # a pass, or help declined (a pass for the junior)
            passes += 1
            others = 0
            for s in range(p):
                if held[s] > 0 and s != table_player:
                    others += 1
            if passes >= others:
                taken[table_player] += trick
                trick[:] = 0
                turn = trick_leader(hands, held, next_holder(held, table_player, True))
                table, table_player, passes = -1, -1, 0
            else:
                turn = next_holder(held, seat, False)
        if check:
            for s in range(p):
                if held[s] != hands[s].sum() or hands[s].min() < 0:
                    stats[3] += 1


@njit(cache=True)
def hand_points(hand_no, hands, taken, place, role, partner, points):
    """Each player's points for the hand just played: placement (partner's too), solo bonus, lions,
    hedgehogs (the seed: -1 for a player who took one), the last player's lions in hand."""
    p = len(place)
    for s in range(p):
        points[s] = 0 if place[s] == p else p + 1 - place[s]
    if hand_no == 0:
        return
    own = points.copy()
    for s in range(p):
        if partner[s] >= 0:
            points[s] += own[partner[s]]
        if role[s] == SOLO:
            points[s] += SOLO_BONUS
        if taken[s, LION] >= LION_MIN:
            points[s] += taken[s, LION]
        if taken[s, HEDGEHOG] > 0:
            points[s] -= 1
        if place[s] == p:
            points[s] -= hands[s, LION]


@njit(cache=True)
def standings(totals, order):
    """Seats best first by total; equal totals: the one who stood worse before ranks higher."""
    p = len(totals)
    position = np.empty(p, np.int64)
    for i in range(p):
        position[order[i]] = i
    new = order.copy()
    for i in range(1, p):  # insertion sort on (total descending, previous position descending)
        s = new[i]
        j = i - 1
        while j >= 0 and (
            totals[new[j]] < totals[s] or (totals[new[j]] == totals[s] and position[new[j]] < position[s])
        ):
            new[j + 1] = new[j]
            j -= 1
        new[j + 1] = s
    return new


@njit(cache=True)
def run(n_games, seed, whole_games, check, tables, players):
    """Play n_games games (or first hands); returns stats: hands, asks, helped sets, check errors, then the
    games that hit the guard, the first leaders' places, the winners' seats (games), the points by place."""
    np.random.seed(seed)
    DECK = tables[-1]
    p = players
    deck = np.empty(N_CARDS, np.int64)
    i = 0
    for kind in range(N_KINDS):
        for _ in range(DECK[kind]):
            deck[i] = kind
            i += 1
    hands = np.zeros((p, N_KINDS), np.int64)
    held = np.zeros(p, np.int64)
    taken = np.zeros((p, N_KINDS), np.int64)
    place = np.zeros(p, np.int64)
    role = np.zeros(p, np.int64)
    partner = np.zeros(p, np.int64)
    points = np.zeros(p, np.int64)
    totals = np.zeros(p, np.int64)
    order = np.arange(p)
    acts = np.empty(512, np.int64)
    # hands, asks, helped sets, errors, guard hits, first leaders' places, wins per seat, points by place
    stats = np.zeros(6 + 2 * p, np.int64)
    base, extra = N_CARDS // p, N_CARDS % p
    for g in range(n_games):
        totals[:] = 0
        for i in range(p):
            order[i] = i
        for hand_no in range(MAX_HANDS):
            dealer = g % p if hand_no == 0 else order[0]
            np.random.shuffle(deck)
            hands[:] = 0
            at = 0
            for j in range(p):  # blocks from the dealer's left; the first `extra` seats get one more
                seat = (dealer + 1 + j) % p
                size = base + (1 if j < extra else 0)
                for c in range(at, at + size):
                    hands[seat, deck[c]] += 1
                at += size
            first_leader = play_hand(
                hand_no, dealer, order, hands, held, taken, place, role, partner, acts, tables, stats, check
            )
            hand_points(hand_no, hands, taken, place, role, partner, points)
            stats[0] += 1
            stats[5] += place[first_leader]
            for s in range(p):
                stats[6 + p + place[s] - 1] += points[s]
            if check:
                stats[3] += check_hand(hand_no, hands, taken, place, role, partner, points, DECK)
            if not whole_games:
                break
            totals += points
            order = standings(totals, order)
            if (totals >= TARGET).sum() >= END_PLAYERS:
                stats[6 + order[0]] += 1
                break
        else:
            stats[4] += 1
    return stats


@njit(cache=True)
def check_hand(hand_no, hands, taken, place, role, partner, points, DECK):
    """Errors in a finished hand: cards not conserved, places not 1..P, points that do not add up."""
    p = len(place)
    errors = 0
    for kind in range(N_KINDS):
        if hands[:, kind].sum() + taken[:, kind].sum() != DECK[kind]:
            errors += 1
    seen = np.zeros(p + 1, np.int64)
    for s in range(p):
        seen[place[s]] += 1
    if seen[0] != 0 or seen[1:].min() != 1:
        errors += 1
    left = 0
    for s in range(p):
        if place[s] != p and hands[s].sum() != 0:
            errors += 1
        left += hands[s].sum()
    placement = np.zeros(p, np.int64)
    for s in range(p):
        placement[s] = 0 if place[s] == p else p + 1 - place[s]
    if placement.sum() != (p + 1) * p // 2 - 1:  # 5 + 4 + 3 + 2 + 0 = 14
        errors += 1
    for s in range(p):
        want = placement[s]
        if hand_no > 0:
            if partner[s] >= 0:
                if partner[partner[s]] != s or role[s] == role[partner[s]]:
                    errors += 1
                want += placement[partner[s]]
            else:
                want += SOLO_BONUS
            want += taken[s, LION] if taken[s, LION] >= LION_MIN else 0
            want -= 1 if taken[s, HEDGEHOG] > 0 else 0
            want -= hands[s, LION] if place[s] == p else 0
        if want != points[s]:
            errors += 1
    return errors


def main(argv):
    check = "--check" in argv
    unit = "game"
    args = []
    it = iter(argv)
    for a in it:
        if a == "--unit":
            unit = next(it, "game")
        elif a.startswith("--unit="):
            unit = a.split("=", 1)[1]
        elif not a.startswith("--"):
            args.append(a)
    if unit not in ("game", "hand"):
        print(f"--unit must be game or hand, not {unit!r}")
        return 2
    whole = unit == "game"
    n = int(args[0]) if args else (200_000 if whole else 1_000_000)
    if check:
        m = max(n, 3000)
        stats = run(m, 3, True, True, TABLES, PLAYERS)
        stats_hand = run(m, 4, False, True, TABLES, PLAYERS)
        if stats[3] or stats_hand[3] or stats[4]:
            print(f"check=FAILED errors={stats[3] + stats_hand[3]} guard_hits={stats[4]}")
            return 1
        print(f"check=ok games={m} hands={stats[0]} first_hands={m}")
    run(200, 1, whole, False, TABLES, PLAYERS)  # compile (or load the cache) and warm up
    t0 = time.perf_counter()
    stats = run(n, 7, whole, False, TABLES, PLAYERS)
    dt = time.perf_counter() - t0
    hands = int(stats[0])
    p = PLAYERS
    wins = ",".join(f"{w / n:.3f}" for w in stats[6 : 6 + p]) if whole else "-"
    by_place = ",".join(f"{x / hands:.3f}" for x in stats[6 + p :])
    print(
        f"unit={unit} deals={n} hands={hands} seconds={dt:.3f} deals_per_s={n / dt:,.0f} "
        f"hands_per_s={hands / dt:,.0f} hands_per_deal={hands / n:.3f} asks_per_hand={stats[1] / hands:.3f} "
        f"helped_per_hand={stats[2] / hands:.3f} first_leader_place={stats[5] / hands:.3f} "
        f"wins_by_seat={wins} points_by_place={by_place}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
