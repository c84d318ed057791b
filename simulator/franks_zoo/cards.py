"""The 60 cards of Frank's Zoo, the sets that can be played, and who beats whom.

Kinds 0..12: whale, elephant, crocodile, polar bear, lion, seal, fox, perch, hedgehog, fish, mouse,
mosquito, chameleon. A hand is a count per kind. Players (seats) are 0..N-1, clockwise.

A set is (kind, real cards, chameleon 0/1, mosquito 0/1): `real` cards of `kind`; the chameleon joins as
one more card of that kind; one mosquito may join a set holding at least one real elephant and then
counts as an elephant. Its size counts every card. SETS lists every set that can exist (128); PARTIALS
every group of cards a junior can lay when he asks for help (142: a set, or cards a set could be
completed from: a lone chameleon meant for some kind, a lone mosquito, or both, meant for elephants).
"""

from __future__ import annotations

import numpy as np

KINDS = (
    "whale",
    "elephant",
    "crocodile",
    "polar bear",
    "lion",
    "seal",
    "fox",
    "perch",
    "hedgehog",
    "fish",
    "mouse",
    "mosquito",
    "chameleon",
)
SHORT = ("Wh", "El", "Cr", "PB", "Li", "Se", "Fo", "Pe", "He", "Fi", "Mo", "Mq", "Ch")
WHALE, ELEPHANT, CROCODILE, POLAR_BEAR, LION, SEAL, FOX, PERCH, HEDGEHOG, FISH, MOUSE, MOSQUITO, CHAMELEON = (
    range(13)
)
N_KINDS = 13
DECK = np.array([5] * 11 + [4, 1], dtype=np.int8)  # cards of each kind
N_CARDS = int(DECK.sum())  # 60

# BEATEN_BY[table kind] = the kinds that beat it at equal size (table 2 of the rulebook).
BEATEN_BY = {
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
PREDATOR = np.zeros((12, 12), dtype=bool)  # PREDATOR[a, b]: kind a beats kind b at equal size
for _table, _beaters in BEATEN_BY.items():
    PREDATOR[list(_beaters), _table] = True


def _sets(partial: bool) -> np.ndarray:
    rows = []
    for kind in range(12):
        for real in range(0 if partial else 1, DECK[kind] + 1):
            for chameleon in (0, 1):
                for mosquito in (0, 1) if kind == ELEPHANT else (0,):
                    if real + chameleon + mosquito == 0:
                        continue
                    if not partial and mosquito and not real:
                        continue
                    rows.append((kind, real, chameleon, mosquito))
    return np.array(rows, dtype=np.int8)


SETS = _sets(partial=False)  # (128, 4): kind, real, chameleon, mosquito
PARTIALS = _sets(partial=True)  # (142, 4)
SET_SIZE = SETS[:, 1:].sum(axis=1).astype(np.int8)
N_SETS, N_PARTIALS = len(SETS), len(PARTIALS)


def set_cards(row: np.ndarray) -> np.ndarray:
    """(13,) the cards a set or partial (kind, real, chameleon, mosquito) takes from a hand."""
    cards = np.zeros(N_KINDS, dtype=np.int8)
    cards[row[0]] += row[1]
    cards[CHAMELEON] += row[2]
    cards[MOSQUITO] += row[3]
    return cards


SET_CARDS = np.array([set_cards(s) for s in SETS], dtype=np.int8)  # (128, 13)
PARTIAL_CARDS = np.array([set_cards(p) for p in PARTIALS], dtype=np.int8)  # (142, 13)

# BEATS[t, s]: set s may be played on set t.
BEATS = ((SETS[None, :, 0] == SETS[:, None, 0]) & (SET_SIZE[None, :] == SET_SIZE[:, None] + 1)) | (
    (SET_SIZE[None, :] == SET_SIZE[:, None]) & PREDATOR[SETS[None, :, 0], SETS[:, None, 0]]
)
# COMPLETES[p, s]: set s is partial p with at least one more card (of its kind, the chameleon or a mosquito).
COMPLETES = (
    (SETS[None, :, 0] == PARTIALS[:, None, 0])
    & (SETS[None, :, 1:] >= PARTIALS[:, None, 1:]).all(axis=2)
    & (SET_SIZE[None, :] > PARTIALS[:, 1:].sum(axis=1)[:, None])
)


def set_name(row) -> str:
    kind, real, chameleon, mosquito = (int(x) for x in row)
    parts = [f"{real} {KINDS[kind]}"] if real else []
    if chameleon:
        parts.append("chameleon")
    if mosquito:
        parts.append("mosquito")
    return " + ".join(parts) + (f" (as {KINDS[kind]})" if not real else "")
