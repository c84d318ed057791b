"""One hand fixed, the rest dealt many times: every trump and every opening bid played out on the same deals.

The machinery cuts the deals into the run's chunks (`runner.map_chunks`); this module plays one chunk's
choices and turns the chunks into one row per choice."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

import numpy as np

from simulator import driver
from simulator.errors import DealsimError
from simulator.fortytwo import core
from simulator.fortytwo import dominoes as D
from simulator.fortytwo.advice import AGAINST, Ceiling, ceiling
from simulator.fortytwo.rules import FortyTwoRules
from simulator.fortytwo.view import BID_84, BID_VALUE, DECLARATION_NAMES, DOUBLES, NELLO, NO_TRUMP
from simulator.stats import Z95, Measure, best_set, undefined, wilson
from simulator.summaries import table

if TYPE_CHECKING:
    import pandas as pd

NAMES = DECLARATION_NAMES


def parse_hand(text: str) -> int:
    """'6-6 6-5 5-5 4-4 6-4 3-2 1-0' (spaces or commas between) -> the hand's bitmask."""
    items = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    if len(items) != 7:
        raise DealsimError(f"a hand is 7 dominoes; got {len(items)} in {text!r}")
    ids = [D.parse_domino(t) for t in items]
    seen = set()
    for d in ids:
        if d in seen:
            raise DealsimError(f"domino {D.name(d)} appears twice in {text!r}")
        seen.add(d)
    return D.ids_to_bits(ids)


def declarations(rules: FortyTwoRules) -> list[int]:
    """TRUMP actions the rules let a declarer name: the pips, then doubles and no-trump when declared, and
    nello when on (only with bids of 42 or more)."""
    return [
        *range(7),
        *([DOUBLES] if rules.declares("doubles") else []),
        *([NO_TRUMP] if rules.declares("no-trump") else []),
        *([NELLO] if rules.nello else []),
    ]


def opening_bids(rules: FortyTwoRules) -> list[int]:
    """Call actions a seat may open with: min_bid..42, and 84 with jump bids."""
    return list(range(rules.min_bid, 43)) + ([BID_84] if rules.jump_bids else [])


def play_chunk(
    hand: int, seat: int, dealer: int, rules: FortyTwoRules, chunk: Any, perfect: bool = False
) -> dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]:
    """Per (trump, bid action): made flags and score differences (declarers minus defenders), per deal. With
    `perfect`, every contract is played double dummy (all four hands seen, perfect play by both sides:
    `FortyTwoSolver`) instead of by the strategies: an upper bound on what the hand can make against perfect
    defence, and what it makes when the declarer's side plays perfectly."""
    n = len(chunk.deals)
    hands = core.deal_around(chunk.deal_rng, n, seat, hand)
    side = seat & 1
    out = {}
    if perfect:
        from simulator.fortytwo.solver import FortyTwoSolver  # numba: only where perfect play is asked for

        solver = FortyTwoSolver(rules.count_values)  # one table for every trump: its keys hold the context
    for trump in declarations(rules):
        bids = [b for b in opening_bids(rules) if not (trump == NELLO and BID_VALUE[b] < 42)]
        if perfect:
            start = core.with_contract(
                core.new_hands(chunk.deals, np.full(n, dealer), hands), seat, bids[0], trump, rules
            )
            value = solver.solve(solver.positions(start)).astype(np.int16)
        for bid in bids:
            state = core.with_contract(
                core.new_hands(chunk.deals, np.full(n, dealer), hands), seat, bid, trump, rules
            )
            if (
                perfect
            ):  # the hand as played perfectly: the declaring side takes `value`, the defenders the rest
                done = state
                done.points[:, side], done.points[:, 1 - side] = value, 42 - value
                done.tricks_done[:] = 7
            else:
                # every choice replays the same strategy streams too, so choices differ only by the choice
                done = driver.play(chunk.run.game, state, rules, chunk.strategies, chunk.fresh_seat_rngs())
            score, made = core.hand_scores(done, rules)
            out[trump, bid] = made, (score[:, side] - score[:, 1 - side]).astype(np.int16)
    return out


def frame(parts: list[dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]]) -> pd.DataFrame:
    """One row per (trump, bid): P(make) with its Wilson interval and the mean score difference."""
    import pandas as pd

    rows = []
    for key in parts[0]:
        made = np.concatenate([p[key][0] for p in parts])
        diff = np.concatenate([p[key][1] for p in parts]).astype(float)
        lo, hi = wilson(made.sum(), len(made))
        se = diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else float("nan")
        rows.append(
            {
                "trump": key[0],
                "bid": int(BID_VALUE[key[1]]),
                "deals": len(made),
                "p_make": made.mean(),
                "lo": float(lo),
                "hi": float(hi),
                "score_diff": diff.mean(),
                "score_diff_se": se,
                "score_diff_lo": diff.mean() - Z95 * se,
                "score_diff_hi": diff.mean() + Z95 * se,
                "break_even": break_even(made, diff),
            }
        )
    out = pd.DataFrame(rows)
    out["clears"] = out["p_make"] >= out["break_even"]
    return out


def break_even(made: np.ndarray, diff: np.ndarray) -> float:
    """The P(make) at which bidding is worth as much as a thrown-in hand (score difference 0): a made
    contract gains W (declarers minus defenders), a set one loses L (the bid plus the defenders' points,
    less the declarers' nothing), so the bid pays when p W > (1 - p) L, i.e. p > L / (W + L). W and L are
    the means over these deals' made and set contracts."""
    if not (~made).any():
        return 0.0
    if not made.any():
        return 1.0
    win, loss = diff[made].mean(), -diff[~made].mean()
    return float(loss / (win + loss)) if win + loss > 0 else 1.0


def advise(parts: list[dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]], frame: pd.DataFrame) -> dict:
    """The trumps that cannot be told apart from the best at the lowest bid (`best_set`: multiple
    comparisons with the best on the same deals' score differences), the paired difference of the best to
    the runner-up, and per trump how high to bid (`advice.ceiling`): the highest bid whose gain over passing
    is clearly positive (`bid_up_to`, None: none is) and the highest on the point estimate
    (`bid_up_to_point`)."""
    lowest = int(frame["bid"].min())
    at_lowest = frame[frame["bid"] == lowest].sort_values("score_diff", ascending=False)
    first, second = (int(t) for t in at_lowest["trump"].iloc[:2])
    action = next(key[1] for key in parts[0] if int(BID_VALUE[key[1]]) == lowest)
    trumps = [int(key[0]) for key in parts[0] if key[1] == action]
    per_deal = {t: np.concatenate([p[t, action][1] for p in parts]).astype(float) for t in trumps}
    chosen = best_set([Measure(NAMES[t], per_deal[t]) for t in trumps])
    gap = per_deal[first] - per_deal[second]
    se = gap.std(ddof=1) / np.sqrt(len(gap)) if len(gap) > 1 else float("nan")
    up_to, up_to_point = {}, {}
    for trump, rows in frame.groupby("trump"):
        c = ceiling(zip(rows["bid"], rows["score_diff"], rows["score_diff_lo"], rows["score_diff_hi"]))
        up_to[int(trump)], up_to_point[int(trump)] = c.sure, c.point
    return {
        "best_trump": first,
        "runner_up": second,
        "best_set": [trumps[i] for i in chosen.members],
        "compared": trumps,
        "bid": lowest,
        "gap": float(gap.mean()),
        "gap_lo": float(gap.mean() - Z95 * se),
        "gap_hi": float(gap.mean() + Z95 * se),
        "bid_up_to": up_to,
        "bid_up_to_point": up_to_point,
    }


def _names(trumps: list[int]) -> str:
    """'sixes', 'sixes and fives', 'sixes, fives and fours'."""
    words = [NAMES[t] for t in trumps]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def best(frame: pd.DataFrame) -> dict:
    return frame.loc[frame["score_diff"].idxmax()].to_dict()


def gap_text(gap: float, lo: float, hi: float) -> str:
    """A difference with its 95% interval, '+1.23 [+0.45, +2.01]'; never 'nan': 'undefined (no cases)'
    without a value, '+1.23 [undefined: too few deals]' without a spread."""
    if not math.isfinite(gap):
        return "undefined (no cases)"
    if undefined(lo, hi):
        return f"{gap:+.2f} [undefined: too few deals]"
    return f"{gap:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def se_text(se: float) -> str:
    """'s.e. 0.42', or 's.e. undefined (too few deals)'."""
    return f"s.e. {se:.2f}" if math.isfinite(se) else "s.e. undefined (too few deals)"


def render(frame: pd.DataFrame, advice: dict, hand: str, seat: str, deals: int) -> list:
    """P(make) and the expected score difference as trump x bid grids, and the best choice."""
    bids = sorted(frame["bid"].unique())
    grid = {(r["trump"], r["bid"]): r for r in frame.to_dict(orient="records")}
    named = sorted(frame["trump"].unique())

    def cell(t, b, f):
        return f(grid[t, b]) if (t, b) in grid else "-"

    make_rows = [
        [
            NAMES[t],
            *[cell(t, b, lambda g: f"{100 * g['p_make']:.1f}±{50 * (g['hi'] - g['lo']):.1f}") for b in bids],
        ]
        for t in named
    ]
    score_rows = [[NAMES[t], *[cell(t, b, lambda g: f"{g['score_diff']:+.1f}") for b in bids]] for t in named]
    top = best(frame)
    ceilings = {t: Ceiling(b, advice["bid_up_to_point"][t]) for t, b in advice["bid_up_to"].items()}
    some = [t for t, c in ceilings.items() if c.point is not None or c.sure is not None]
    rest = [t for t in ceilings if t not in some]
    other = "other trumps: " if some else "with "
    ladder = "; ".join(
        [f"{NAMES[t]}: {ceilings[t].text()}" for t in sorted(some, key=lambda t: -(ceilings[t].point or 0))]
        + ([f"{other}{_names(rest)}: no bid is clearly better than passing"] if rest else [])
    )
    members = advice["best_set"]
    gap = (
        f"{gap_text(advice['gap'], advice['gap_lo'], advice['gap_hi'])} points of score difference per hand "
        f"for {NAMES[advice['best_trump']]} over {NAMES[advice['runner_up']]} at {advice['bid']} on the same "
        "deals"
    )
    if not members:
        verdict = f"best trump undefined (no cases, or too few deals); {gap}"
    elif len(members) == 1:
        verdict = f"best trump {NAMES[members[0]]}, clearly: {gap}"
    else:  # the set allows for the choice among all trumps; the gap's interval is one comparison alone
        verdict = (
            f"best trump: {_names(members)} cannot be told apart at {advice['bid']} once the choice among "
            f"{len(advice['compared'])} trumps is allowed for; compared alone, {gap}"
        )
    return [
        table(
            f"P(make) for {seat} holding {hand}: trump x bid, {deals:,} deals each "
            "(%, ± half the 95% interval)",
            ["trump", *map(str, bids)],
            make_rows,
        ),
        table(
            "Expected score difference (declarers minus defenders) per choice",
            ["trump", *map(str, bids)],
            score_rows,
        ),
        (
            f"best: trump {NAMES[int(top['trump'])]}, bid {int(top['bid'])}: expected difference "
            f"{top['score_diff']:+.2f} ({se_text(top['score_diff_se'])}), P(make) {100 * top['p_make']:.1f}% "
            f"[{100 * top['lo']:.1f}, {100 * top['hi']:.1f}]"
        ),
        f"advice: {verdict}. How high to bid, by the {AGAINST}: {ladder}",
    ]


class HandAnalysis:
    """The `contract.Analysis` of Forty-two: a hand held at one seat, every trump and opening bid played on
    the same deals of the other three hands."""

    chunk_size = 5_000
    parse_hand = staticmethod(parse_hand)
    play_chunk = staticmethod(play_chunk)
    frame = staticmethod(frame)
    best = staticmethod(best)
    advise = staticmethod(advise)
    render = staticmethod(render)


ANALYSIS = HandAnalysis()
