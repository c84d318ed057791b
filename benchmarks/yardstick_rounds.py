"""Yardstick for Rounds throughput: one compiled loop per game (numba), the same rule work dealsim's batched
core (simulator/rounds/core.py) does under random play with the default rules (shared/rules/rounds.md).

One game, as the core plays it:
- stage 1: a shuffled 52-card deck; 18 cards dealt one at a time from the non-dealer (9 each), the 19th
  turned up as trump, 33 cards of stock under it;
- stages 2-4: the stock plus the face-up card shuffled, 10 cards dealt (hands back to 9), the 11th turned up;
- stage 5: the 3 stock cards plus the face-up card shuffled, 1 card each, the last 2 face up: the first sets
  trump for tricks 1-4, the second for trick 5;
- the deal passes every stage (first dealer: game k % 2), the non-dealer leads each stage; 25 tricks with
  follow-suit legality (trumping never compulsory), the highest trump or else the highest card of the led
  suit wins, the winner leads;
- each stage is scored with the sweep rule (all 5 tricks: `sweep_bonus` 10, no card points; otherwise the
  card points taken, 2 = 10, A = 4, K = 3, Q = 2, J = 1).
Random play: each card is chosen uniformly among the legal cards (dealsim's `random` strategy over its
legal mask). One deal here is one game, as in `dealsim bench rounds` (default unit: the game).

Left out: the rule options off by default (`rank_trumps`, `dealer_rotation = "game"`); matches to 200; the
per-game table the core builds afterwards (sweep details, fifth-trick calls, dealer/leader tricks) and the
move record. Counted per game: the two players' points (printed as means, comparable with dealsim's).

Run: python yardstick_rounds.py [DEALS] [--check]  (needs numba). Prints `deals_per_s=`: games per second
on one core. --check plays a few thousand games checking, game by game, that every card is dealt once
(50 played, 2 face up), a stage without a sweep shares exactly the card points of its 10 cards, a sweep
scores the bonus, and the deck holds 80 card points.
"""

import sys
import time

import numpy as np
from numba import njit

N_CARDS, N_STAGES, TRICKS = 52, 5, 5
SWEEP_BONUS = 10
RANK_POINTS = np.array([10, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4], dtype=np.int64)  # 2, 3, ..., 10, J, Q, K, A
POINTS = RANK_POINTS[np.arange(N_CARDS) % 13]  # card id = suit * 13 + rank


@njit(cache=True)
def key(card, trump, led_suit):
    """How strongly a card stands in a trick: trumps 20 + rank, the led suit its rank, anything else -1."""
    suit, rank = card // 13, card % 13
    if suit == trump:
        return 20 + rank
    if suit == led_suit:
        return rank
    return -1


@njit(cache=True)
def pick(hand, n_hand, led_suit, legal):
    """Index (in hand) of a card uniform among the legal ones: the led suit's cards, else the whole hand."""
    n = 0
    if led_suit >= 0:
        for i in range(n_hand):
            if hand[i] // 13 == led_suit:
                legal[n] = i
                n += 1
    if n == 0:
        return np.random.randint(n_hand)
    return legal[np.random.randint(n)]


@njit(cache=True)
def run(n_games, seed, check, POINTS, SWEEP_BONUS):
    """Play n_games games; returns (points per player summed over games, sweeps, errors found by check)."""
    np.random.seed(seed)
    deck = np.arange(N_CARDS)
    pile = np.empty(34, np.int64)
    stock = np.empty(33, np.int64)
    hands = np.empty((2, 10), np.int64)
    n_hand = np.zeros(2, np.int64)
    legal = np.empty(10, np.int64)
    faces = np.empty(2, np.int64)
    seen = np.zeros(N_CARDS, np.int64)
    totals = np.zeros(2, np.int64)
    points = np.zeros(2, np.int64)
    tricks = np.zeros(2, np.int64)
    taken = np.zeros(2, np.int64)
    sweeps = 0
    errors = 0
    for g in range(n_games):
        np.random.shuffle(deck)
        first_dealer = g % 2
        points[:] = 0
        n_stock = 0
        if check:
            seen[:] = 0
        for stage in range(N_STAGES):
            dealer = first_dealer ^ (stage & 1)
            non_dealer = 1 - dealer
            # the deal: cards one at a time from the non-dealer; then the face-up card(s) and the stock
            if stage == 0:
                n_dealt = 18
                for i in range(19, N_CARDS):
                    stock[i - 19] = deck[i]
                new_stock = 33
                for i in range(n_dealt):
                    p = non_dealer if i % 2 == 0 else dealer
                    hands[p, n_hand[p]] = deck[i]
                    n_hand[p] += 1
                faces[0] = deck[18]
            else:
                order_len = n_stock + 1  # the stock and the face-up card, shuffled
                for i in range(n_stock):
                    pile[i] = stock[i]
                pile[n_stock] = faces[0]
                np.random.shuffle(pile[:order_len])
                n_dealt = 10 if stage < 4 else 2
                n_faces = 1 if stage < 4 else 2
                for i in range(n_dealt):
                    p = non_dealer if i % 2 == 0 else dealer
                    hands[p, n_hand[p]] = pile[i]
                    n_hand[p] += 1
                for j in range(n_faces):
                    faces[j] = pile[n_dealt + j]
                new_stock = order_len - n_dealt - n_faces
                for i in range(new_stock):
                    stock[i] = pile[n_dealt + n_faces + i]
            n_stock = new_stock
            # five tricks
            tricks[:] = 0
            taken[:] = 0
            leader = non_dealer
            trump = faces[0] // 13
            stage_cards = 0
            for trick in range(TRICKS):
                if stage == 4 and trick == 4:
                    trump = faces[1] // 13  # trick 5 of stage 5 has its own trump card
                i = pick(hands[leader], n_hand[leader], -1, legal)
                led = hands[leader, i]
                n_hand[leader] -= 1
                hands[leader, i] = hands[leader, n_hand[leader]]
                follower = 1 - leader
                led_suit = led // 13
                i = pick(hands[follower], n_hand[follower], led_suit, legal)
                reply = hands[follower, i]
                n_hand[follower] -= 1
                hands[follower, i] = hands[follower, n_hand[follower]]
                winner = follower if key(reply, trump, led_suit) > key(led, trump, led_suit) else leader
                tricks[winner] += 1
                taken[winner] += POINTS[led] + POINTS[reply]
                leader = winner
                if check:
                    seen[led] += 1
                    seen[reply] += 1
                    stage_cards += POINTS[led] + POINTS[reply]
            # score the stage: a sweep scores the bonus and no card points
            for p in range(2):
                if tricks[p] == TRICKS:
                    points[p] += SWEEP_BONUS
                    sweeps += 1
                else:
                    points[p] += taken[p]
            if check and tricks[0] != TRICKS and tricks[1] != TRICKS and taken[0] + taken[1] != stage_cards:
                errors += 1
        totals += points
        if check:
            for j in range(2):
                seen[faces[j]] += 10  # the two face-up cards of stage 5, never played
            card_points = 0
            for c in range(N_CARDS):
                if seen[c] != 1 and seen[c] != 10:
                    errors += 1
                card_points += POINTS[c]
            if card_points != 80 or n_hand[0] != 0 or n_hand[1] != 0 or (seen == 10).sum() != 2:
                errors += 1
    return totals, sweeps, errors


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if not a.startswith("--")]
    n = int(args[0]) if args else 1_000_000
    if check:
        _, _, errors = run(max(n, 5000), 3, True, POINTS, SWEEP_BONUS)
        if errors:
            print(f"check=FAILED errors={errors}")
            return 1
        print(f"check=ok games={max(n, 5000)}")
    run(1000, 1, False, POINTS, SWEEP_BONUS)  # compile (or load the cache) and warm up
    t0 = time.perf_counter()
    totals, sweeps, _ = run(n, 7, False, POINTS, SWEEP_BONUS)
    dt = time.perf_counter() - t0
    print(
        f"unit=game deals={n} seconds={dt:.3f} deals_per_s={n / dt:,.0f} mean_points_0={totals[0] / n:.2f} "
        f"mean_points_1={totals[1] / n:.2f} sweeps_per_game={sweeps / n:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
