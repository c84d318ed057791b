"""How high to bid, one rule for `analyze` and the bid guide: per bid level, the expected gain over passing (a
thrown-in hand, score difference 0; not the opponents' contract, which is not modelled) with its 95% interval
over the deals, the deal as the unit (`analyze` holds one hand per deal; the bid guide pools the four hands of
a deal, whose intervals therefore sum each deal's hands first). "Sure up to" is the highest bid whose gain is
clearly positive (the interval defined and above 0); "up to, on the point estimate" the highest bid whose mean
gain is positive. An undefined interval is never clear."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from simulator.stats import excludes_zero

AGAINST = "gain over passing the hand (a thrown-in hand), not over the opponents' contract"


@dataclass(frozen=True)
class Ceiling:
    """`sure`: the highest bid whose gain over passing is clearly positive; `point`: the highest whose
    point estimate is positive (None: no such bid)."""

    sure: int | None
    point: int | None

    def text(self) -> str:
        """'up to 31 for sure, 33 on the point estimate'; 'up to 31' when both agree; 'no bid is clearly
        better than passing' (with the point estimate's bid, if any)."""
        if self.sure is None:
            if self.point is None:
                return "no bid is clearly better than passing"
            return f"no bid is clearly better than passing (up to {self.point} on the point estimate)"
        if self.point is None or self.point == self.sure:
            return f"up to {self.sure} for sure"
        return f"up to {self.sure} for sure, {self.point} on the point estimate"


def ceiling(levels: Iterable[tuple[int, float, float, float]]) -> Ceiling:
    """From (bid, gain, lo, hi) per bid level, the gain over passing with its 95% interval: the highest
    bid clearly above 0 (lo > 0, interval defined) and the highest with a positive point estimate."""
    sure = point = None
    for bid, gain, lo, hi in levels:
        if excludes_zero(lo, hi) and lo > 0:
            sure = bid if sure is None else max(sure, bid)
        if math.isfinite(gain) and gain > 0:
            point = bid if point is None else max(point, bid)
    return Ceiling(sure, point)
