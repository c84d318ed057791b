"""The `dealsim` command line."""

from __future__ import annotations

import dataclasses
import json
import shlex
import sys
import time
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from simulator import __version__, games
from simulator.errors import DealsimError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Monte Carlo strategy simulator for Forty-two, Frank's Zoo and Rounds.")
out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)  # no wrapping in pipes and files


class Format(str, Enum):
    table = "table"
    json = "json"


class Backend(str, Enum):
    loky = "loky"
    threading = "threading"


def _check_output(folder: Path | None) -> None:
    """Refuse an output folder that cannot be written before any work is done."""
    if folder is not None and folder.exists() and not folder.is_dir():
        raise DealsimError(f"output {folder} exists and is not a folder")


GameArg = Annotated[str, typer.Argument(help="the game, e.g. forty-two (see `dealsim games`)")]
DealsOpt = Annotated[int, typer.Option("-n", "--deals", min=1, help="how many deals (hands, or games with --unit match)")]
SeedOpt = Annotated[int, typer.Option("--seed", min=0, help="the run's seed: the same seed gives the same numbers")]
PresetOpt = Annotated[str, typer.Option("--preset", help="rule preset to start from (see `dealsim games`)")]
RulesOpt = Annotated[list[str], typer.Option("--rules", help="TOML file of rule options (repeatable)")]
RuleOpt = Annotated[list[str], typer.Option("--rule", help="one rule option as key=value (repeatable)")]
SeatOpt = Annotated[list[str], typer.Option(
    "--seat", help="SEAT=STRATEGY[:param=value,...], e.g. N=heuristic:threshold=32 or EW=random (repeatable)")]
UnitOpt = Annotated[str | None, typer.Option("--unit", help="what one deal is: hand (default) or match")]
ChunkOpt = Annotated[int | None, typer.Option(
    "--chunk-size", min=1, help="deals per chunk; part of the run's definition (default per game and unit)")]


def main() -> None:
    """Run the command line; bad input of any kind ends in one line on stderr and exit code 2."""
    try:
        code = app(standalone_mode=False, prog_name="dealsim")
    except DealsimError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as exc:
        # typer's usage errors (a missing option, -n 0, an unknown command) carry their own message and exit code
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            ctx = getattr(exc, "ctx", None)
            hint = f" (see: {ctx.command_path} --help)" if ctx is not None else ""
            _fail(exc.format_message() + hint, exc.exit_code)
        raise
    sys.exit(code if isinstance(code, int) else 0)


def _fail(message: str, code: int = 2) -> None:
    print("error: " + " ".join(message.split()), file=sys.stderr)
    sys.exit(code)


def _run(game: str, deals: int, seed: int, preset: str, rules_files: list[str], rule: list[str],
         seat: list[str], unit: str | None, chunk_size: int | None):
    from simulator.runner import Run, seat_strategies

    g = games.get(game)
    unit = unit or g.units[0]
    if unit not in g.units:
        raise DealsimError(f"{game} has no unit {unit!r}; use one of {', '.join(g.units)}")
    rules = g.rules(preset, rules_files, rule)
    seats = g.seat_specs(seat, rules)
    seat_strategies(game, seats)  # unknown strategies and parameters fail here, before any work
    return Run(game=game, n=deals, seed=seed, rules=rules, seats=seats, unit=unit,
               chunk_size=chunk_size or g.default_chunk.get(unit, 10_000))


@app.command("games")
def games_cmd() -> None:
    """List the games with their rule options, defaults and presets."""
    from reports.summary import table
    from simulator.options import describe

    for g in games.registry().values():
        out.print(f"[bold]{g.name}[/bold]: {g.title}")
        rules = g.rules()
        out.print(f"  seats: {' '.join(g.seat_names(rules))}  groups: {' '.join(g.seat_groups(rules))}  "
                  f"units: {', '.join(g.units)}  presets: {', '.join(g.presets)}")
        out.print(table("  rule options (--rule key=value)", ["option", "default", "allowed", "meaning"],
                        [[r["name"], str(r["default"]).lower() if isinstance(r["default"], bool) else r["default"],
                          r["allowed"] or r["type"], r["help"]] for r in describe(g.rules_cls)], text_columns=4))


@app.command("strategies")
def strategies_cmd(game: Annotated[str | None, typer.Argument(help="only this game")] = None) -> None:
    """List the strategies of each game with their parameters."""
    from reports.summary import table
    from strategies import listing

    names = [games.get(game).name] if game else list(games.registry())
    for name in names:
        out.print(f"[bold]{name}[/bold] (default: {games.get(name).default_strategy})")
        for s in listing(name):
            rows = [[p["name"], p["default"], p["allowed"] or p["type"], p["help"]] for p in s["params"]]
            out.print(f"  [bold]{s['name']}[/bold]: {s['summary']}")
            if rows:
                out.print(table("", ["parameter", "default", "allowed", "meaning"], rows, text_columns=4))


@app.command()
def simulate(
    ctx: typer.Context,
    game: GameArg,
    deals: DealsOpt = 100_000,
    seed: SeedOpt = 1,
    jobs: Annotated[int, typer.Option("-j", "--jobs", help="worker processes; 0 or less = all cores")] = 0,
    preset: PresetOpt = "seed",
    rules_files: RulesOpt = [],  # noqa: B006 - typer reads the default
    rule: RuleOpt = [],  # noqa: B006
    seat: SeatOpt = [],  # noqa: B006
    unit: UnitOpt = None,
    chunk_size: ChunkOpt = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="write tables, summary and manifest here")] = None,
    fmt: Annotated[Format, typer.Option("--format", help="summary on stdout as a table or as JSON")] = Format.table,
    progress: Annotated[bool | None, typer.Option("--progress/--no-progress",
                                                  help="progress bar on stderr (default: when it is a terminal)")] = None,
    backend: Annotated[Backend, typer.Option("--backend", help="joblib backend for the workers")] = Backend.loky,
) -> None:
    """Play many seeded deals and summarize them."""
    from reports.summary import json_safe
    from simulator.runner import execute

    run = _run(game, deals, seed, preset, rules_files, rule, seat, unit, chunk_size)
    show = sys.stderr.isatty() if progress is None else progress
    _check_output(output)
    result = execute(run, jobs=jobs, backend=backend.value, progress=show)
    if not result.chunks_done:
        raise DealsimError("interrupted before the first chunk finished; nothing to report")
    g = games.get(game)
    summary = g.summarize(result.tables, run.unit)
    manifest = _manifest(result, _command(ctx))
    if output is not None:
        _write(output, result, summary, manifest)
    if fmt is Format.json:
        print(json.dumps(json_safe({"manifest": manifest, "summary": summary}), indent=2))
    else:
        for part in g.render(summary):
            out.print(part)
        done = "" if result.complete else f" (interrupted: {result.deals_done:,} of {run.n:,} deals)"
        out.print(f"{g.name}, {result.deals_done:,} {_plural(run.unit)}, seed {seed}, {result.elapsed:.1f} s "
                  f"with {result.jobs} job(s){done}" + (f"; written to {output}" if output else ""))
    if not result.complete:
        sys.exit(130)


@app.command()
def trace(
    game: GameArg,
    deal: Annotated[int, typer.Option("--deal", min=0, help="the deal's number in the run (from 0)")],
    run_dir: Annotated[Path | None, typer.Option("--run", help="a folder written by simulate -o: take the run's "
                                                               "options from its manifest.json")] = None,
    deals: DealsOpt = 100_000,
    seed: SeedOpt = 1,
    preset: PresetOpt = "seed",
    rules_files: RulesOpt = [],  # noqa: B006
    rule: RuleOpt = [],  # noqa: B006
    seat: SeatOpt = [],  # noqa: B006
    unit: UnitOpt = None,
    chunk_size: ChunkOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON record")] = False,
) -> None:
    """Show one deal of a run move by move: give --run DIR, or the run's own options (with random strategies
    -n matters for the deals of the last chunk)."""
    from reports.summary import json_safe

    if run_dir is not None:
        run = _run_from_manifest(game, run_dir)
    else:
        run = _run(game, deals, seed, preset, rules_files, rule, seat, unit, chunk_size)
    result = games.get(game).trace(run, deal, as_json)
    if as_json:
        print(json.dumps(json_safe({**_provenance(run), "trace": result}), indent=2))
    else:
        out.print(result, markup=False)


def _run_from_manifest(game: str, folder: Path):
    from simulator.options import build
    from simulator.runner import Run

    try:
        m = json.loads((folder / "manifest.json").read_text())
        if m["game"] != game:
            raise DealsimError(f"{folder} holds a {m['game']} run, not {game}")
        g = games.get(game)
        rules = build(g.rules_cls, "rule", m["rules"])
        return Run(game=game, n=int(m["deals"]), seed=int(m["seed"]), rules=rules,
                   seats=tuple(m["seats"][name] for name in g.seat_names(rules)), unit=m["unit"],
                   chunk_size=int(m["chunk_size"]))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DealsimError(f"cannot read the run in {folder}: {type(exc).__name__}: {exc}") from None


@app.command()
def bench(
    game: Annotated[str, typer.Argument(help="the game to measure")] = "forty-two",
    deals: Annotated[int, typer.Option("-n", "--deals", min=1000, help="deals per measurement")] = 200_000,
    yardstick: Annotated[Path | None, typer.Option(help="the game's yardstick script (default: the one in "
                                                        "../shared/bench beside the checkout, when there)")] = None,
) -> None:
    """Deals per second on one core for random and heuristic play, and against the game's compiled yardstick."""
    from simulator.bench import measure, run_yardstick

    g = games.get(game)
    rates = {}
    from strategies import REGISTRY

    for spec in [s for s in ("random", "heuristic", "greedy") if s in REGISTRY[g.name]][:2]:
        rates[spec], hands = measure(g, spec, deals)
        extra = f", {hands:,.0f} hands/s" if hands else ""
        out.print(f"{g.name} {spec:>10}: {rates[spec]:>12,.0f} {g.units[0]}{'es' if g.units[0].endswith('ch') else 's'}"
                  f"/s per core{extra} ({deals:,}, one process)")
    if g.yardstick is None:
        return
    ys = run_yardstick(yardstick or g.yardstick, deals * 5)
    if ys is None:
        out.print(f"{g.yardstick}: not run (needs the script and numba: pip install -e '.[bench]')")
    else:
        out.print(f"{g.yardstick} (numba): {ys:>12,.0f} deals/s; random play here is {rates['random'] / ys:.2f} of it")


JobsOpt = Annotated[int, typer.Option("-j", "--jobs", help="worker processes; 0 or less = all cores")]
OutputOpt = Annotated[Path | None, typer.Option("-o", "--output", help="write the report and its files here")]
FormatOpt = Annotated[Format, typer.Option("--format", help="results on stdout as a table or as JSON")]
ProgressOpt = Annotated[bool | None, typer.Option("--progress/--no-progress",
                                                  help="progress bar on stderr (default: when it is a terminal)")]


def _show_progress(progress: bool | None) -> bool:
    return sys.stderr.isatty() if progress is None else progress


@app.command()
def compare(
    ctx: typer.Context,
    game: GameArg,
    vs: Annotated[list[str], typer.Option("--vs", help="arm B's seats, SEAT=STRATEGY (repeatable); arm A is --seat")] = [],  # noqa: B006
    vs_rule: Annotated[list[str], typer.Option("--vs-rule", help="arm B's rule changes, key=value (repeatable)")] = [],  # noqa: B006
    deals: DealsOpt = 100_000,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 0,
    preset: PresetOpt = "seed",
    rules_files: RulesOpt = [],  # noqa: B006
    rule: RuleOpt = [],  # noqa: B006
    seat: SeatOpt = [],  # noqa: B006
    unit: UnitOpt = None,
    chunk_size: ChunkOpt = None,
    output: OutputOpt = None,
    fmt: FormatOpt = Format.table,
    progress: ProgressOpt = None,
) -> None:
    """Two arms on the same deals: paired differences of score, contract success and (--unit match) wins."""
    import dataclasses

    from reports.experiments import compare as run_compare
    from reports.experiments import compare_report
    from reports.summary import json_safe, table
    from simulator.options import build, parse_pairs

    if not vs and not vs_rule:
        raise DealsimError("compare needs arm B: give --vs SEAT=STRATEGY and/or --vs-rule key=value")
    a = _run(game, deals, seed, preset, rules_files, rule, seat, unit, chunk_size)
    g = games.get(game)
    b_rules = build(type(a.rules), "rule", parse_pairs("--vs-rule", vs_rule), base=a.rules)
    b = dataclasses.replace(a, rules=b_rules, seats=g.seat_specs(vs, b_rules, base=g.fit_seats(a.seats, b_rules)))
    if b == a:
        raise DealsimError("arm B is the same as arm A")
    _check_output(output)
    result = run_compare(a, b, jobs=jobs, progress=_show_progress(progress))
    provenance = {**_provenance(a), "arm_b": {"rules": dataclasses.asdict(b.rules),
                                              "seats": dict(zip(g.seat_names(b.rules), b.seats))}}
    if output is not None:
        compare_report(result, provenance, _command(ctx)).write(output)
    if fmt is Format.json:
        print(json.dumps(json_safe({**provenance, **result}), indent=2))
        return
    rows = [[r["measure"], f"{r['a']:.4g}", f"{r['b']:.4g}",
             f"{r['diff']:+.4g} [{r['lo']:+.4g}, {r['hi']:+.4g}]", f"{r['narrowing']:.2f}x"] for r in result["rows"]]
    out.print(table(f"A - B on the same {a.n:,} deals, {result['side']}'s side (95% paired intervals)",
                    ["measure", "A", "B", "A - B", "narrowing"], rows))
    out.print("narrowing: how many times wider the interval would be on independent deals")


@app.command()
def tune(
    ctx: typer.Context,
    game: GameArg,
    vary: Annotated[list[str], typer.Option(
        "--vary", help="KEY=v1,v2,... or KEY=lo:hi[:step]; KEY is a rule option, seat.SEATS.param or seat.SEATS "
                       "(repeatable: a grid)")],
    deals: DealsOpt = 20_000,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 0,
    preset: PresetOpt = "seed",
    rules_files: RulesOpt = [],  # noqa: B006
    rule: RuleOpt = [],  # noqa: B006
    seat: SeatOpt = [],  # noqa: B006
    unit: Annotated[str, typer.Option("--unit", help="hand, or match (default: whole games)")] = "match",
    chunk_size: ChunkOpt = None,
    output: OutputOpt = None,
    fmt: FormatOpt = Format.table,
    progress: ProgressOpt = None,
) -> None:
    """Sweep rule options or strategy parameters on common deals: one row per value, with intervals."""
    from reports.experiments import parse_vary, tune_report
    from reports.experiments import tune as run_tune
    from reports.summary import json_safe, table

    base = _run(game, deals, seed, preset, rules_files, rule, seat, unit, chunk_size)
    grid = parse_vary(vary)
    for key, values in grid:  # check every setting before the first run
        for v in values:
            from reports.experiments import apply_setting
            apply_setting(base, key, v)
    _check_output(output)
    frame = run_tune(base, grid, jobs=jobs, progress=_show_progress(progress))
    keys = [k for k, _ in grid]
    names = [c for c in frame.columns if c not in keys and not c.endswith((" lo", " hi"))]
    if output is not None:
        tune_report(frame, grid, names, _provenance(base), _command(ctx)).write(output)
    if fmt is Format.json:
        print(json.dumps(json_safe({**_provenance(base), "rows": frame.to_dict(orient="records")}), indent=2))
        return
    records = frame.to_dict(orient="records")
    header = [", ".join(str(r[k]) for k in keys) for r in records]
    rates = set(frame.attrs.get("rates", ()))
    rows = [[n, *[_compact(r[n], r[f"{n} lo"], r[f"{n} hi"], n in rates) for r in records]] for n in names]
    out.print(table(f"{game}: one column per {', '.join(keys)}; {base.n:,} {_plural(base.unit)} each, seed {seed}; "
                    f"value ± half the 95% interval", ["measure", *header], rows))


@app.command()
def report(
    ctx: typer.Context,
    study: Annotated[str, typer.Argument(help="the study: bid-success (forty-two) or sweep-value (rounds)")],
    deals: DealsOpt = 1_000_000,
    matches: Annotated[int | None, typer.Option("--matches", "--games", min=0, help=(
        "whole games/matches for the game-length part (default: deals / 10 for bid-success, deals / 50 per "
        "sweep bonus for sweep-value; 0 = none)"))] = None,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 0,
    preset: PresetOpt = "seed",
    rules_files: RulesOpt = [],  # noqa: B006
    rule: RuleOpt = [],  # noqa: B006
    seat: SeatOpt = [],  # noqa: B006
    chunk_size: ChunkOpt = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="folder for report.html, CSV and PNG "
                                                                       "(default: ./STUDY)")] = None,
    progress: ProgressOpt = None,
) -> None:
    """Run a named study and write a self-contained HTML report with its tables (CSV) and plots (PNG)."""
    from reports import studies
    from reports.summary import table

    s = studies.get(study)
    base = _run(s.game, deals, seed, preset, rules_files, rule, seat, s.unit, chunk_size)
    if matches is None:
        matches = deals // 10 if s.name == "bid-success" else deals // 50
    folder = output or Path(study)
    _check_output(folder)
    provenance = {**_provenance(base), "study": study, "matches": matches}
    start = time.perf_counter()
    rep, (title, columns, rows) = s.build(base, matches, jobs, _show_progress(progress), _command(ctx), provenance)
    written = rep.write(folder)
    out.print(table(title, columns, rows))
    out.print(f"{study}: {deals:,} {_plural(s.unit)}" + (f" and {matches:,} matches" if matches else "")
              + f" in {time.perf_counter() - start:.1f} s; wrote {len(written)} files to {folder}/ "
              f"(open {folder / 'report.html'})")


@app.command()
def analyze(
    ctx: typer.Context,
    game: GameArg,
    hand: Annotated[str, typer.Option("--hand", help='the fixed hand, e.g. "6-6 6-5 5-5 4-4 6-4 3-2 1-0"')],
    seat_name: Annotated[str, typer.Option("--seat", help="the seat holding it (declares)")] = "N",
    dealer_name: Annotated[str | None, typer.Option("--dealer", help="the dealer (default: the seat on its right)")] = None,
    deals: Annotated[int, typer.Option("-n", "--deals", min=1, help="deals of the other 21 dominoes (the same "
                                                                   "deals for every choice)")] = 20_000,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 0,
    preset: PresetOpt = "seed",
    rules_files: RulesOpt = [],  # noqa: B006
    rule: RuleOpt = [],  # noqa: B006
    strategy: Annotated[list[str], typer.Option("--strategy", help="SEAT=STRATEGY for the play (repeatable; "
                                                                   "default heuristic everywhere)")] = [],  # noqa: B006
    output: Annotated[Path | None, typer.Option("-o", "--output", help="write analyze.csv and provenance here")] = None,
    fmt: FormatOpt = Format.table,
    progress: ProgressOpt = None,
) -> None:
    """Hold one hand fixed, deal the rest many times, and play every trump and bid: P(make) and expected score."""
    from reports.summary import json_safe, table
    from simulator.fortytwo import analyze as fa
    from simulator.runner import resolve_jobs, seat_strategies

    g = games.get(game)
    if g.name != "forty-two":
        raise DealsimError(f"analyze is available for forty-two only, not {game}")
    _check_output(output)
    fixed = fa.parse_hand(hand)
    rules = g.rules(preset, rules_files, rule)
    names = g.seat_names(rules)
    seat_ids = g.seats_of(seat_name, rules)
    if len(seat_ids) != 1:
        raise DealsimError(f"--seat names one seat ({', '.join(names)}), not {seat_name!r}")
    seat_i = seat_ids[0]
    dealer_i = (seat_i - 1) % 4 if dealer_name is None else g.seats_of(dealer_name, rules)[0]
    seats = g.seat_specs(strategy, rules)
    seat_strategies(game, seats)
    a = fa.Analysis(hand=fixed, seat=seat_i, dealer=dealer_i, rules=rules, seats=seats, n=deals, seed=seed)
    start = time.perf_counter()
    frame = fa.run(a, resolve_jobs(jobs), _show_progress(progress))
    elapsed = time.perf_counter() - start
    top = fa.best(frame)
    provenance = {"dealsim": __version__, "game": game, "hand": hand, "seat": names[seat_i],
                  "dealer": names[dealer_i], "deals": deals, "seed": seed,
                  "rules": dataclasses.asdict(rules), "seats": dict(zip(names, seats)),
                  "elapsed_seconds": round(elapsed, 2), "command": _command(ctx)}
    if output is not None:
        output.mkdir(parents=True, exist_ok=True)
        frame.to_csv(output / "analyze.csv", index=False)
        (output / "provenance.json").write_text(json.dumps(json_safe(provenance), indent=2))
    if fmt is Format.json:
        print(json.dumps(json_safe({**provenance, "best": top, "rows": frame.to_dict(orient="records")}), indent=2))
        return
    bids = sorted(frame["bid"].unique())
    grid = {(r["trump"], r["bid"]): r for r in frame.to_dict(orient="records")}
    make_rows = [[f"{t}s", *[f"{100 * grid[t, b]['p_make']:.1f}±{50 * (grid[t, b]['hi'] - grid[t, b]['lo']):.1f}"
                             for b in bids]] for t in range(7)]
    out.print(table(f"P(make) for {names[seat_i]} holding {hand}: trump x bid, {deals:,} deals each "
                    "(%, ± half the 95% interval)", ["trump", *map(str, bids)], make_rows))
    score_rows = [[f"{t}s", *[f"{grid[t, b]['score_diff']:+.1f}" for b in bids]] for t in range(7)]
    out.print(table("Expected score difference (declarers minus defenders) per choice",
                    ["trump", *map(str, bids)], score_rows))
    out.print(f"best: trump {int(top['trump'])}s, bid {int(top['bid'])}: expected difference "
              f"{top['score_diff']:+.2f} (s.e. {top['score_diff_se']:.2f}), P(make) {100 * top['p_make']:.1f}% "
              f"[{100 * top['lo']:.1f}, {100 * top['hi']:.1f}]  ({elapsed:.1f} s)")


def _compact(value: float, lo: float, hi: float, percent: bool) -> str:
    half = (hi - lo) / 2
    if percent:
        return f"{100 * value:.2f}% ±{100 * half:.2f}"
    return f"{value:.2f} ±{half:.2f}"


def _plural(unit: str) -> str:
    return unit + ("es" if unit.endswith("ch") else "s")


def _command(ctx: typer.Context) -> str:
    """The command line that reproduces this command: every argument, every option not at its default, and
    the seed always (rebuilt from the parsed values, so it reads the same however it was typed)."""
    words = ["dealsim", ctx.info_name or ""]
    for param in ctx.command.params:
        value = ctx.params.get(param.name)
        if param.param_type_name == "argument":
            words.append(str(value))
            continue
        if param.name == "progress" or (value == param.default and param.name != "seed") or value in (None, [], ()):
            continue
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            v = getattr(v, "value", v)
            if isinstance(v, bool) and param.is_flag:
                flag = param.opts[0] if v else (param.secondary_opts or [None])[0]
                if flag:
                    words.append(flag)
            else:
                words += [param.opts[-1] if param.opts[-1].startswith("--") else param.opts[0], str(v)]
    return shlex.join(words)


def _provenance(run) -> dict[str, Any]:
    import numpy

    return {"dealsim": __version__, "numpy": numpy.__version__, **run.describe()}


def _manifest(result, command: str) -> dict[str, Any]:
    return {"command": command, **_provenance(result.run),
            "deals_done": result.deals_done, "complete": result.complete, "jobs": result.jobs,
            "elapsed_seconds": round(result.elapsed, 3),
            "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


def _write(folder: Path, result, summary: dict[str, Any], manifest: dict[str, Any]) -> None:
    from reports.summary import flatten, json_safe

    folder.mkdir(parents=True, exist_ok=True)
    for name, frame in result.tables.items():
        frame.to_parquet(folder / f"{name}.parquet", index=False)
    flatten(summary).to_csv(folder / "summary.csv", index=False)
    (folder / "summary.json").write_text(json.dumps(json_safe(summary), indent=2))
    (folder / "manifest.json").write_text(json.dumps(json_safe(manifest), indent=2))
