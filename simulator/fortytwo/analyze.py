"""One hand fixed, the rest dealt many times: every trump and every opening bid played out on the same deals.

The machinery cuts the deals into the run's chunks (`runner.map_chunks`); this module plays one chunk's
choices and turns the chunks into one row per choice."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from simulator import driver
from simulator.contract import Analysis
from simulator.errors import DealsimError
from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.play import CORE
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import BID_84, BID_VALUE
from simulator.stats import Z95, wilson
from simulator.summaries import table


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


def play_chunk(hand: int, seat: int, dealer: int, rules: FortyTwoRules, chunk: Any
               ) -> dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]:
    """Per (trump, bid action): made flags and score differences (declarers minus defenders), per deal."""
    n = len(chunk.deals)
    hands = core.deal_around(chunk.deal_rng, n, seat, hand)
    side = seat & 1
    out = {}
    for trump in range(7):
        for bid in opening_bids(rules):
            state = core.with_contract(core.new_hands(chunk.deals, np.full(n, dealer), hands), seat, bid, trump)
            # every choice replays the same strategy streams too, so choices differ only by the choice
            done = driver.play(CORE, state, rules, chunk.strategies, chunk.fresh_seat_rngs(), D.SEATS)
            score, made = core.hand_scores(done)
            out[trump, bid] = made, (score[:, side] - score[:, 1 - side]).astype(np.int16)
    return out


def frame(parts: list[dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]]) -> pd.DataFrame:
    """One row per (trump, bid): P(make) with its Wilson interval and the mean score difference."""
    rows = []
    for key in parts[0]:
        made = np.concatenate([p[key][0] for p in parts])
        diff = np.concatenate([p[key][1] for p in parts]).astype(float)
        lo, hi = wilson(made.sum(), len(made))
        se = diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else float("nan")
        rows.append({"trump": key[0], "bid": int(BID_VALUE[key[1]]), "deals": len(made), "p_make": made.mean(),
                     "lo": float(lo), "hi": float(hi), "score_diff": diff.mean(), "score_diff_se": se,
                     "score_diff_lo": diff.mean() - Z95 * se, "score_diff_hi": diff.mean() + Z95 * se})
    return pd.DataFrame(rows)


def best(frame: pd.DataFrame) -> dict:
    return frame.loc[frame["score_diff"].idxmax()].to_dict()


def render(frame: pd.DataFrame, hand: str, seat: str, deals: int) -> list:
    """P(make) and the expected score difference as trump x bid grids, and the best choice."""
    bids = sorted(frame["bid"].unique())
    grid = {(r["trump"], r["bid"]): r for r in frame.to_dict(orient="records")}
    make_rows = [[f"{t}s", *[f"{100 * grid[t, b]['p_make']:.1f}±{50 * (grid[t, b]['hi'] - grid[t, b]['lo']):.1f}"
                             for b in bids]] for t in range(7)]
    score_rows = [[f"{t}s", *[f"{grid[t, b]['score_diff']:+.1f}" for b in bids]] for t in range(7)]
    top = best(frame)
    return [table(f"P(make) for {seat} holding {hand}: trump x bid, {deals:,} deals each "
                  "(%, ± half the 95% interval)", ["trump", *map(str, bids)], make_rows),
            table("Expected score difference (declarers minus defenders) per choice",
                  ["trump", *map(str, bids)], score_rows),
            (f"best: trump {int(top['trump'])}s, bid {int(top['bid'])}: expected difference "
             f"{top['score_diff']:+.2f} (s.e. {top['score_diff_se']:.2f}), P(make) {100 * top['p_make']:.1f}% "
             f"[{100 * top['lo']:.1f}, {100 * top['hi']:.1f}]")]


ANALYSIS = Analysis(parse_hand=parse_hand, play_chunk=play_chunk, frame=frame, best=best, render=render,
                    chunk_size=5_000)
