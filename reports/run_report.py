"""A report of any finished run (`dealsim report run --run DIR`): findings from its headline figures, its
rates as the main picture, its figures in words as tables (the per-group ones pivoted: one row per bid,
stage, role or player), every figure one per row in a closed section, and its means as a plot.

Summary keys (`contracts[bid=30].made`, `stages[stage=1].sweeps`, `points.NS`) come from each game's
summary; their words are here, in LABELS and GROUPS, so the summaries keep their keys. Figures the run's
rules make impossible (a declaration the rules do not allow) are left out."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from reports.html import MIN_CASES, Report, TableFormat, num, pct, pm
from reports.trumps import trump_code, trump_name
from simulator import registry
from simulator.options import build as build_options
from simulator.summaries import flatten

# The words of a figure, by its key with every `[key=value]` written `[]` and a trailing player or side
# left out (`stages[].points` for `stages[stage=1].points.0`). {deal} and {match} take the game's words.
LABELS = {
    "deals": "{deals} played",
    # Forty-two
    "thrown_in": "hands thrown in (four passes)",
    "all_contracts": "contracts made",
    "contracts[].made": "made",
    "trumps[].named": "share of contracts",
    "points": "points per {deal} played",
    "score": "score per hand dealt",
    "play_quality.declarers_gave_away": "points the declaring side gave away per contract",
    "play_quality.defenders_gave_away": "points the defenders gave away per contract",
    "play_quality.made_in_play": "contracts made in play",
    "play_quality.makeable_with_perfect_play": "contracts makeable with perfect play",
    "play_quality.by_bid[].made": "made in play",
    "play_quality.by_bid[].makeable": "makeable with perfect play",
    "play_quality.perfect_value": "perfect-play value per {deal}",
    "play_quality.gave_away": "points given away per {deal}",
    # Rounds
    "points_by_first_dealer": "points of the game's first dealer",
    "sweeps": "stages swept",
    "sweeps_scoring_less_than_cards": "sweeps scoring less than their cards",
    "leader_tricks": "tricks taken by the leader",
    "dealer_tricks": "tricks taken by the stage's dealer",
    "stages[].points": "points",
    "stages[].sweeps": "swept",
    "stages[].sweeps_scoring_less_than_cards": "sweeps scoring less than their cards",
    "stages[].dealer_tricks": "dealer's tricks",
    "stages[].leader_tricks": "leader's tricks",
    "play_quality.gave_away_per_player": "points given away per player and game",
    "play_quality.costly_plays": "plays that gave points away",
    "play_quality.stages_off_perfect": "stages ending off their perfect-play margin",
    "play_quality.margin": "margin as played",
    "play_quality.by_stage[].gave_away": "points given away",
    # Frank's Zoo
    "place": "place per hand",
    "by_role[].players": "player-hands",
    "by_role[].place": "place per hand",
    "by_role[].points": "points per hand",
    "help.asked_per_junior_hand": "help requests per junior and hand",
    "help.given": "requests granted",
    "help.won_the_trick": "helped sets that took the trick",
    "lions.points": "lion points per player and hand",
    "lions.last_player": "last player's lion penalty",
    "hedgehogs.points": "hedgehog points per player and hand",
    # every game's matches
    "matches.matches": "{matches} played",
    "matches.undecided": "{matches} undecided ({deal} limit)",
    "matches.deals_per_match": "{deals} per {match}",
    "matches.wins": "{matches} won",
    "matches.first_dealer_wins": "{matches} won by the {first_dealer}",
    "matches.final": "final score",
}
# The title of a per-group table and the words of its rows, by the group's list key and item key.
GROUPS: dict[str, tuple[str, Callable[[str], str]]] = {
    "contracts[bid]": ("Contracts by bid", lambda v: f"bid {v}"),
    "trumps[trump]": ("Trumps named", trump_name),
    "stages[stage]": ("By stage", lambda v: f"stage {v}"),
    "by_role[role]": ("By role", str),
    "play_quality.by_bid[bid]": ("Play quality by bid", lambda v: f"bid {v}"),
    "play_quality.by_stage[stage]": ("Play quality by stage", lambda v: f"stage {v}"),
}
_ITEM = re.compile(r"(?P<group>.*?)\[(?P<key>[^=\]]+)=(?P<value>[^\]]+)\]\.?(?P<rest>.*)")


def _possible_forty_two(metric: str, rules: Any) -> bool:
    """Whether the rules allow the figure: a declaration (trumps[trump=...]) only if it may be named with
    some contract (the declarations of a plain 42, the highest plain bid, are every one the rules allow)."""
    from simulator.fortytwo.reference import legal_declarations

    m = re.match(r"trumps\[trump=([^\]]+)\]", metric)
    return m is None or trump_code(m.group(1)) in legal_declarations(42, 42, rules)


POSSIBLE: dict[str, Callable[[str, Any], bool]] = {"forty-two": _possible_forty_two}


def possible(flat: pd.DataFrame, game: str, rules: Any) -> pd.DataFrame:
    """The summary's rows the run's rules make possible."""
    allowed = POSSIBLE.get(game)
    if allowed is None or rules is None:
        return flat
    return flat[[allowed(m, rules) for m in flat["metric"]]].reset_index(drop=True)


def _fmt(row: pd.Series) -> str:
    if pd.notna(row["lo"]):  # a rate
        return pct(row["value"], row["lo"], row["hi"])
    if pd.notna(row["se"]):
        return pm(row["value"], row["se"], digits=3)
    value = row["value"]
    return num(int(value) if isinstance(value, float) and value.is_integer() else value)


def human(metric: str) -> str:
    """A summary key in words by its own parts: `contracts[bid=30].made` -> "contracts (bid 30), made",
    `stages[stage=1].sweeps` -> "stage 1, sweeps", `by_seat[seat=0].points` -> "seat 0, points"."""
    words = []
    for part in re.findall(r"[^.\[]+(?:\[[^\]]*\])?", metric):
        m = re.fullmatch(r"(.+)\[(.+)=(.+)\]", part)
        if m is None:
            words.append(f"player {part}" if part.isdigit() else part.replace("_", " "))
            continue
        name, key, value = m.groups()
        plain = name in (f"by_{key}", f"{key}s")  # the list is named after its key
        words.append(f"{key} {value}" if plain else f"{name.replace('_', ' ')} ({key} {value})")
    return ", ".join(words)


class Words:
    """A run's figures in words: its game's words for deals, matches, players and sides."""

    def __init__(self, game: str | None) -> None:
        self.game = registry.get(game) if game else None

    def _fill(self, text: str) -> str:
        g = self.game
        if g is None:
            return text.format(
                deals="deals", deal="deal", matches="matches", match="match", first_dealer="first dealer"
            )
        return text.format(
            deals=g.plural("deal"),
            deal=g.words["deal"],
            matches=g.plural("match"),
            match=g.words["match"],
            first_dealer=g.first_dealer_words(),
        )

    def side(self, key: str) -> str:
        """A player or side key in words ("player 0", "NS")."""
        if self.game is None:
            return f"player {key}" if key.isdigit() else key
        return self.game.side_label(key)

    def split(self, metric: str) -> tuple[str, str | None]:
        """(the key's pattern, its trailing player or side or None): `points.NS` -> ("points", "NS")."""
        pattern = re.sub(r"\[[^=\]]+=[^\]]+\]", "[]", metric)
        head, _, last = pattern.rpartition(".")
        if head and (last.isdigit() or (last.isupper() and len(last) <= 3)):
            return head, metric.rpartition(".")[2]
        return pattern, None

    def leaf(self, metric: str) -> str:
        """The figure's words without its group: "points, NS", "made", "stages swept"."""
        pattern, side = self.split(metric)
        words = self._fill(LABELS[pattern]) if pattern in LABELS else None
        if words is None:
            rest = _ITEM.fullmatch(metric)
            return human(rest.group("rest") if rest else metric)
        return f"{words}, {self.side(side)}" if side is not None else words

    def label(self, metric: str) -> str:
        """The figure in words, group and all: "bid 30: made", "blanks: share of contracts"."""
        m = _ITEM.fullmatch(metric)
        if m is None:
            return self.leaf(metric)
        group = GROUPS.get(f"{m.group('group')}[{m.group('key')}]")
        row = group[1](m.group("value")) if group else f"{m.group('key')} {m.group('value')}"
        return f"{row}: {self.leaf(metric)}"


def _rules(manifest: dict) -> Any:
    """The run's rules object from its manifest (None when the manifest does not say)."""
    try:
        return build_options(registry.get(manifest["game"]).rules_cls, "rule", manifest["rules"], trusted=1)
    except (KeyError, TypeError, ValueError):
        return None


def _group_tables(flat: pd.DataFrame, words: Words) -> list[tuple[str, str, pd.DataFrame, bool]]:
    """The per-group figures pivoted, one table per list of the summary: (name, title, table, has counts).
    One figure per row: the row's cases and trials shown (rows of fewer than MIN_CASES trials greyed);
    several: each rate of fewer than MIN_CASES trials says its count."""
    out = []
    items = flat["metric"].str.fullmatch(_ITEM.pattern)
    parts = flat[items].copy()
    if not len(parts):
        return out
    parts = parts.join(parts["metric"].str.extract(_ITEM.pattern).add_prefix("item_"))
    for (group, key), part in parts.groupby(["item_group", "item_key"], sort=False):
        title, row_words = GROUPS.get(f"{group}[{key}]", (f"{human(group)} by {key}", str))
        columns = list(dict.fromkeys(words.leaf(m) for m in part["metric"]))
        rows: dict[str, dict[str, Any]] = {}
        for r in part.to_dict(orient="records"):
            row = rows.setdefault(r["item_value"], {key: row_words(r["item_value"])})
            cell = _fmt(pd.Series(r))
            rate = pd.notna(r["lo"])
            if len(columns) == 1:
                row["cases"], row["of"] = r.get("count"), r.get("of")
            elif rate and pd.notna(r["of"]) and r["of"] < MIN_CASES:
                cell += f" (of {int(r['of'])})"
            row[words.leaf(r["metric"]) + (" (%)" if rate else "")] = cell
        table = pd.DataFrame(list(rows.values()))
        single = len(columns) == 1 and "of" in table and table["of"].notna().any()
        if single:
            table = table.astype({"cases": "Int64", "of": "Int64"})
        elif "cases" in table:
            table = table.drop(columns=["cases", "of"])
        name = re.sub(r"\W+", "_", f"{group}_by_{key}").strip("_")
        out.append((name, title, table, single))
    return out


def build(summary: dict, manifest: dict, title: str, rules: Any = None) -> Report:
    """The report of a run from its summary (nested Rate/Mean) and its manifest (its rules read from it
    unless given)."""
    context = {k: v for k, v in manifest.items() if k not in ("command", "parts")}  # parts: the checksums
    report = Report(title, context, manifest.get("command", ""))
    words = Words(manifest.get("game"))
    full = flatten(summary)
    flat = possible(full, manifest.get("game", ""), rules if rules is not None else _rules(manifest))
    figures = flat[flat["se"].notna() | flat["lo"].notna()].copy()
    rates = figures[figures["lo"].notna() & (figures["of"].fillna(0) >= MIN_CASES)]
    means = figures[figures["lo"].isna() & figures["se"].notna()]
    top = ~flat["metric"].str.contains(r"\[", regex=True)  # the run's own figures before per-group ones
    headline = pd.concat([rates[top[rates.index]].head(3), means[top[means.index]].head(2)])
    for _, row in headline.iterrows():
        report.finding(
            f"{words.label(row['metric'])}: {_fmt(row)}"
            + (f" (of {int(row['of']):,})" if pd.notna(row["of"]) else "")
            + "."
        )
    if not manifest.get("complete", True):
        report.finding(
            f"The run was interrupted: these figures cover its first {manifest.get('deals_done', 0):,} deals."
        )
    if len(rates):
        report.figure(
            "summary_rates",
            _plot(rates, words, percent=True),
            f"The run's rates with 95% intervals (rates of at least {MIN_CASES} trials)",
            main=True,
        )

    report.heading("The run's figures")
    report.text(
        "Rates are percentages with Wilson 95% intervals (or, for several trials per deal, intervals with "
        f"the deal as the unit); means carry standard errors. Rates of fewer than {MIN_CASES} trials are "
        "greyed (or say their count) and left out of the plots."
    )
    if len(flat) < len(full):
        left = sorted({words.label(m).partition(":")[0] for m in set(full["metric"]) - set(flat["metric"])})
        report.text(
            f"Left out, as the run's rules do not allow them (summary.csv keeps them): {', '.join(left)}."
        )
    own = flat[top].reset_index(drop=True)
    # a player's or side's figures side by side: one row per figure, one column per player
    sided = own["metric"].map(lambda m: words.split(m)[1])
    plain = own[sided.isna()]
    report.table(
        "figures",
        pd.DataFrame(
            {
                "figure": plain["metric"].map(words.label),
                "value": [_fmt(r) for _, r in plain.iterrows()],
                "cases": plain["count"].astype("Int64") if "count" in plain else pd.NA,
                "of": plain["of"].astype("Int64") if "of" in plain else pd.NA,
            }
        ),
        "The run's own figures",
        TableFormat(n="of", labels={"value": "value (% [95% interval] or mean ± s.e.)", "of": "trials"}),
        csv=plain.astype({"count": "Int64", "of": "Int64"}) if "of" in plain else plain,
    )
    if sided.notna().any():
        per = own[sided.notna()].assign(who=sided[sided.notna()])
        rows: dict[str, dict[str, str]] = {}
        for r in per.to_dict(orient="records"):
            pattern = words.split(r["metric"])[0]
            rate = pd.notna(r["lo"])
            column = words.leaf(pattern) + (" (%)" if rate else "")
            rows.setdefault(r["who"], {"": words.side(r["who"])})[column] = _fmt(pd.Series(r))
        report.table(
            "figures_by_side",
            pd.DataFrame(list(rows.values())).fillna("-"),
            "Per player or side (means ± s.e.; rates with 95% intervals)",
        )
    for name, caption, table, single in _group_tables(flat, words):
        report.table(
            name,
            table,
            caption + (" (% [95% interval])" if single else ""),
            TableFormat(n="of", labels={"of": "trials"}) if single else TableFormat(),
            collapsed=None if len(table) <= 12 else f"{caption}: {len(table)} rows",
        )
    shown = pd.DataFrame(
        {
            "figure": flat["metric"].map(words.label),
            "value": [_fmt(r) for _, r in flat.iterrows()],
            "cases": flat["count"].astype("Int64"),
            "of": flat["of"].astype("Int64"),
        }
    )
    report.table(
        "summary",
        shown,
        "The run's summary, one figure per row (summary.csv keeps the summary's keys and full precision)",
        TableFormat(n="of", labels={"value": "value (% [95% interval] or mean ± s.e.)", "of": "trials"}),
        csv=full.astype({"count": "Int64", "of": "Int64"}),
        collapsed=f"Every figure of the summary, one per row: {len(flat)} figures",
    )
    if len(means):
        report.figure(
            "summary_means",
            _plot(means, words, percent=False),
            "The run's means with 95% intervals (each in its own unit)",
            collapsed="The run's means as a plot",
        )
    return report


def _plot(part: pd.DataFrame, words: Words, percent: bool) -> plt.Figure:
    """Rates (in %) or means with their 95% intervals, one line per figure in words."""
    scale = 100 if percent else 1
    value = scale * part["value"].to_numpy(float)
    lo = scale * (part["lo"].to_numpy(float) if percent else part["value"] - 1.96 * part["se"])
    hi = scale * (part["hi"].to_numpy(float) if percent else part["value"] + 1.96 * part["se"])
    fig, ax = plt.subplots(figsize=(8, 0.6 + 0.25 * len(part)))
    y = np.arange(len(part))
    ax.errorbar(value, y, xerr=[value - lo, hi - value], fmt="o", capsize=3)
    ax.set_yticks(y, part["metric"].map(words.label), fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel(("rate (%)" if percent else "mean (the figure's own unit)") + ", 95% interval")
    ax.grid(alpha=0.3, axis="x")
    return fig
