"""Every rule option of Rounds (`shared/rules/rounds.md`); the defaults are the seed's rules."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from simulator.options import option

RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def parse_card_points(text: str) -> np.ndarray:
    """'2=10,A=4,K=3,Q=2,J=1' -> (13,) points per rank (index 0 = the 2); ranks not named score 0."""
    points = np.zeros(13, dtype=np.int16)
    seen = set()
    for item in text.split(","):
        rank, sep, value = item.strip().partition("=")
        if not sep or rank.strip().upper() not in RANK_NAMES:
            raise ValueError(
                f"card_points: expected RANK=POINTS pairs (ranks {' '.join(RANK_NAMES)}), got {item!r}"
            )
        if rank.strip().upper() in seen:
            raise ValueError(f"card_points: rank {rank.strip().upper()} is given twice")
        seen.add(rank.strip().upper())
        try:
            points[RANK_NAMES.index(rank.strip().upper())] = int(value)
        except ValueError:
            raise ValueError(f"card_points: {value!r} is not a whole number") from None
        if not 0 <= int(value) <= 100:  # scores are 16-bit: 52 cards x 100 plus five sweeps still fit
            raise ValueError(f"card_points: {value} is out of range 0..100")
    return points


@dataclass(frozen=True)
class RoundsRules:
    target: int = option(
        200,
        "a match ends after a game in which a player's total reaches this",
        lo=1,
        hi=10_000,
        match_only=True,
    )
    sweep_bonus: int = option(
        10, "a player taking all 5 tricks of a stage scores this and no card points for it", lo=0, hi=1000
    )
    card_points: str = option(
        "2=10,A=4,K=3,Q=2,J=1", "points of the cards taken, RANK=POINTS (others score 0)"
    )
    dealer_rotation: str = option(
        "stage",
        "stage = the deal passes every stage (the seed); game = one player deals all five stages of a game",
        choices=("stage", "game"),
    )
    rank_trumps: bool = option(
        False,
        "the three other cards of the turned-up card's rank beat the whole trump suit (the English original)",
    )

    def __post_init__(self) -> None:
        parse_card_points(self.card_points)  # a malformed value is an error now, not mid-run

    @cached_property
    def points_by_rank(self) -> np.ndarray:
        return parse_card_points(self.card_points)


PRESETS: dict[str, dict[str, object]] = {
    "seed": {},
    "original": {"rank_trumps": True, "dealer_rotation": "game"},
}
