"""The double-six set and the lookup tables that turn Forty-two's rules into gathers.

Encoding: domino id d in 0..27 lists (high, low) pairs in order, d = high*(high+1)/2 + low, so 0-0 is 0,
1-0 is 1, 1-1 is 2, ..., 6-6 is 27. A hand is a uint32 bitmask with bit d set for each domino held.
Seats are 0=N 1=E 2=S 3=W, clockwise; the side of a seat is seat % 2 (0 = N-S, 1 = E-W).
A suit is a pip 0..6; suit 7 stands for "trumps led" (under nello with doubles as their own suit: "a double
led"). Tables are indexed [context, led suit, domino], where the play context is what was named:
0..6 a pip suit is trumps, 7 the doubles are trumps, 8 no-trump (doubles high in their suit), 9 no-trump with
doubles low, 10 nello with the doubles as their own suit (no trumps), 11 sevens (`context_of`).
"""

from __future__ import annotations

import re

import numpy as np

from simulator import tricks
from simulator.errors import DealsimError

N_DOMINOES = 28
DOUBLES_TRUMP, NO_TRUMP_HIGH, NO_TRUMP_LOW, NELLO_SUIT, SEVENS_CTX = 7, 8, 9, 10, 11
N_CONTEXTS = 12


def context_of(declaration: int, rules) -> int:
    """The play context of a TRUMP action (view.py: pips 0..6, 7 doubles, 8 no-trump, 9 nello, 10 sevens)."""
    if declaration < 7:
        return declaration
    if declaration == 7:
        return DOUBLES_TRUMP
    if declaration == 8:
        return NO_TRUMP_LOW if rules.doubles_low else NO_TRUMP_HIGH
    if declaration == 9:
        return {"suit": NELLO_SUIT, "high": NO_TRUMP_HIGH, "low": NO_TRUMP_LOW}[rules.nello_doubles]
    return SEVENS_CTX


SEATS = ("N", "E", "S", "W")
SIDES = ("NS", "EW")
TRUMP_LED = 7

HIGH = np.array([h for h in range(7) for _ in range(h + 1)], dtype=np.int8)
LOW = np.array([lo for h in range(7) for lo in range(h + 1)], dtype=np.int8)
IS_DOUBLE = HIGH == LOW
BIT = (np.uint32(1) << np.arange(N_DOMINOES, dtype=np.uint32)).astype(np.uint32)
ALL = np.uint32((1 << N_DOMINOES) - 1)


def domino_id(a: int, b: int) -> int:
    hi, lo = max(a, b), min(a, b)
    return hi * (hi + 1) // 2 + lo


def name(d: int) -> str:
    return f"{HIGH[d]}-{LOW[d]}"


def parse_domino(text: str) -> int:
    m = re.fullmatch(r"\s*(\d)\s*[-:/]\s*(\d)\s*", text)
    if not m or int(m[1]) > 6 or int(m[2]) > 6:
        raise DealsimError(f"not a domino of the double-six set: {text!r} (write it like 6-4)")
    return domino_id(int(m[1]), int(m[2]))


def bits_to_ids(mask: int) -> list[int]:
    return [d for d in range(N_DOMINOES) if mask >> d & 1]


def ids_to_bits(ids) -> int:
    return sum(1 << int(d) for d in ids)


# Dominoes whose pips add to 5 or 10 are the count: 5-0 4-1 3-2 5-5 6-4. The trick point is separate.
_IS_COUNT = (HIGH + LOW) % 5 == 0
_IS_COUNT[domino_id(0, 0)] = False
COUNT_POINTS = {
    "seed": np.where(_IS_COUNT, 7, 0).astype(np.int8),
    "texas": np.where(_IS_COUNT, np.where(HIGH + LOW == 10, 10, 5), 0).astype(np.int8),
}
COUNT_BITS = np.uint32(sum(1 << d for d in range(N_DOMINOES) if _IS_COUNT[d]))

# PIP_BITS[p]: the dominoes that carry pip p.
PIP_BITS = np.array(
    [sum(1 << d for d in range(N_DOMINOES) if p in (HIGH[d], LOW[d])) for p in range(7)], dtype=np.uint32
)


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # key[c, s, d]: how strongly d stands in a trick led in suit s in play context c; the highest key takes
    # the trick. Trumps 8..15 (pip trumps: the double 15, else 8 + its other end; doubles trump: 8 + pip),
    # dominoes of the led suit 0..7, anything else -1 (it can never win). follow[c, s]: the dominoes that
    # follow suit s. lead_suit[c, d]: the suit d leads.
    lead_suit = np.zeros((N_CONTEXTS, N_DOMINOES), dtype=np.int8)
    key = np.full((N_CONTEXTS, 8, N_DOMINOES), -1, dtype=np.int8)
    follow = np.zeros((N_CONTEXTS, 8), dtype=np.uint32)
    for c in range(N_CONTEXTS):
        for d in range(N_DOMINOES):
            hi, lo = int(HIGH[d]), int(LOW[d])
            double = hi == lo
            if c == SEVENS_CTX:  # no suits: the closest to seven pips wins whatever was led
                key[c, :, d] = 7 - abs(hi + lo - 7)
                follow[c, :] |= np.uint32(1 << d)
                continue
            # the dominoes of the special suit 7: trumps (a pip or the doubles), or nello's doubles
            special = (c in (hi, lo)) if c < 7 else double if c in (DOUBLES_TRUMP, NELLO_SUIT) else False
            lead_suit[c, d] = TRUMP_LED if special else hi
            for s in range(8):
                if special:
                    if c < 7:
                        k = 8 + (7 if double else (lo if hi == c else hi))
                    else:
                        k = 8 + hi if c == DOUBLES_TRUMP else hi  # nello: a suit, not trumps
                    if s == TRUMP_LED:
                        follow[c, s] |= np.uint32(1 << d)
                        key[c, s, d] = k
                    elif c < 7 or c == DOUBLES_TRUMP:
                        key[c, s, d] = k  # a trump takes any lead
                elif s != TRUMP_LED and s in (hi, lo):
                    if double:
                        k = 0 if c == NO_TRUMP_LOW else 7
                    else:
                        k = (lo if hi == s else hi) + (1 if c == NO_TRUMP_LOW else 0)
                    key[c, s, d] = k
                    follow[c, s] |= np.uint32(1 << d)
    return lead_suit, key, follow


LEAD_SUIT, KEY, FOLLOW = _tables()
# Flat views so that one gather with index (trump*8 + led)*28 + domino reads a key.
KEY_FLAT = KEY.reshape(-1)
FOLLOW_FLAT = FOLLOW.reshape(-1)

# For strategies: what a domino is worth and what can still beat it.
IS_TRUMP = np.zeros((N_CONTEXTS, N_DOMINOES), dtype=bool)  # [c, d]: d is a trump in context c
IS_TRUMP[:7] = (HIGH[None, :] == np.arange(7)[:, None]) | (LOW[None, :] == np.arange(7)[:, None])
IS_TRUMP[DOUBLES_TRUMP] = IS_DOUBLE
TRUMP_BITS = np.array(
    [sum(1 << d for d in range(N_DOMINOES) if IS_TRUMP[c, d]) for c in range(N_CONTEXTS)], dtype=np.uint32
)
# SEVENS_DISTANCE[d]: how far d's pips are from seven (sevens: the closest must be played and wins).
SEVENS_DISTANCE = np.abs(HIGH.astype(np.int16) + LOW - 7).astype(np.int8)
LEAD_KEY = tricks.as_lead(KEY, LEAD_SUIT)  # [t, d]: key of d as a lead
# BEATS[t, s, d]: bitmask of the dominoes that would take a trick from d, suit s led, t trump.
BEATS = tricks.beaten_by(KEY, BIT)
DOUBLE_BITS = np.uint32(sum(1 << d for d in range(N_DOMINOES) if IS_DOUBLE[d]))
BEATS_LEAD = tricks.as_lead(BEATS, LEAD_SUIT)  # [t, d]: beats d as a lead
