"""One hand fixed, the rest dealt many times: every trump and every opening bid played out on the same deals."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from reports.stats import Z95, wilson
from simulator import driver
from simulator.errors import DealsimError
from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.play import CORE
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import BID_84, BID_VALUE


def parse_hand(text: str) -> int:
    """'6-6 6-5 5-5 4-4 6-4 3-2 1-0' (spaces or commas between) -> the hand's bitmask."""
    items = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    if len(items) != 7:
        raise DealsimError(f"a hand is 7 dominoes; got {len(items)} in {text!r}")
    ids = [D.parse_domino(t) for t in items]
    seen = set()
    for t, d in zip(items, ids):
        if d in seen:
            raise DealsimError(f"domino {D.name(d)} appears twice in {text!r}")
        seen.add(d)
    return D.ids_to_bits(ids)


def opening_bids(rules: FortyTwoRules) -> list[int]:
    """Call actions a seat may open with: min_bid..42, and 84 with jump bids."""
    return list(range(rules.min_bid, 43)) + ([BID_84] if rules.jump_bids else [])


@dataclass(frozen=True)
class Analysis:
    hand: int
    seat: int
    dealer: int
    rules: FortyTwoRules
    seats: tuple[str, ...]
    n: int
    seed: int
    chunk_size: int = 5_000


def _chunk(a: Analysis, k: int) -> dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]:
    """Per (trump, bid action): made flags and score differences (declarers minus defenders), per deal."""
    from simulator.runner import seat_strategies, streams

    start, stop = k * a.chunk_size, min(a.n, (k + 1) * a.chunk_size)
    deal_rng, _ = streams(a.seed, k, 4)
    hands = core.deal_around(deal_rng, stop - start, a.seat, a.hand)
    strategies = seat_strategies("forty-two", a.seats)
    side = a.seat & 1
    out = {}
    for trump in range(7):
        for bid in opening_bids(a.rules):
            state = core.with_contract(core.new_hands(np.arange(start, stop), np.full(stop - start, a.dealer), hands),
                                       a.seat, bid, trump)
            # every choice replays the same strategy streams too, so choices differ only by the choice
            done = driver.play(CORE, state, a.rules, strategies, streams(a.seed, k, 4)[1])
            score, made = core.hand_scores(done)
            out[trump, bid] = made, (score[:, side] - score[:, 1 - side]).astype(np.int16)
    return out


def run(a: Analysis, jobs: int, progress: bool = False) -> pd.DataFrame:
    """One row per (trump, bid): P(make) with its Wilson interval and the mean score difference."""
    from simulator.runner import in_order, progress_bar

    n_chunks = -(-a.n // a.chunk_size)
    parts = []
    with progress_bar(progress) as bar:
        task = bar.add_task(f"analyze: {a.n:,} deals x {7 * len(opening_bids(a.rules))} choices", total=a.n)
        for part in in_order(functools.partial(_chunk, a), n_chunks, jobs):
            parts.append(part)
            bar.update(task, completed=min(a.n, len(parts) * a.chunk_size))
    rows = []
    for key in parts[0]:
        made = np.concatenate([p[key][0] for p in parts])
        diff = np.concatenate([p[key][1] for p in parts]).astype(float)
        lo, hi = wilson(made.sum(), len(made))
        se = diff.std(ddof=1) / np.sqrt(len(diff))
        rows.append({"trump": key[0], "bid": int(BID_VALUE[key[1]]), "deals": len(made), "p_make": made.mean(),
                     "lo": float(lo), "hi": float(hi), "score_diff": diff.mean(), "score_diff_se": se,
                     "score_diff_lo": diff.mean() - Z95 * se, "score_diff_hi": diff.mean() + Z95 * se})
    return pd.DataFrame(rows)


def best(frame: pd.DataFrame) -> dict:
    return frame.loc[frame["score_diff"].idxmax()].to_dict()

