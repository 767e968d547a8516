"""The designer's lab on the command line: ``twintable sweep`` (registered in cli.py with
``app.command()(sweep)``), and what ``twintable sim`` shares with it: the per-game
exports, the HTML report and the command that reproduces a run."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape

from twintable.bots.registry import seat_names
from twintable.core.errors import TwinTableError, in_words
from twintable.core.options import parse_option_pairs
from twintable.core.registry import default_registry, game_ids
from twintable.sim.drive import (
    GameLog,
    Precision,
    ResumeError,
    Setup,
    play,
    resume,
    stop_on_terminate,
)
from twintable.sim.export import game_row, write_csv, write_jsonl
from twintable.sim.extension import SimGame
from twintable.sim.html import html_page, write_page
from twintable.sim.metrics import Metric, MetricError, check_names, parse_metric
from twintable.sim.progress import progress_bar
from twintable.sim.runner import GameResult, make_bots, require_ray
from twintable.sim.summary import markdown_summary, tables_markdown
from twintable.sim.sweep import (
    CellResult,
    cell_report,
    cells,
    grid_text,
    parse_grid,
    sweep_markdown,
    sweep_report,
    value_text,
)

console = Console()


def widen(out: Console) -> None:
    """Piped output (a file, ``less``, a notebook) is not cut at 80 columns: tables get
    the width they need, unless COLUMNS says otherwise."""
    if not out.is_terminal and "COLUMNS" not in os.environ:
        out.width = WIDE


#: The width of a report written to a pipe or a file.
WIDE = 200


def _fail(message: str) -> typer.Exit:
    console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(2)


def _option_flags(options: Mapping[str, Any]) -> list[str]:
    flags = []
    for key, value in options.items():
        flags += ["--option", f"{key}={value_text(value)}"]
    return flags


def sim_command(game_id: str, players: int, games: int, lineup: Sequence[str], seed: int,
                options: Mapping[str, Any], fixed_seats: bool) -> str:
    """The ``twintable sim`` command that plays exactly these games again."""
    words = ["twintable", "sim", game_id, "--players", str(players), "--games", str(games),
             "--bots", ",".join(lineup), "--seed", str(seed), *_option_flags(options)]
    if fixed_seats:
        words.append("--fixed-seats")
    return shlex.join(words)


def write_exports(game_id: str, options: Mapping[str, Any], results: Sequence[GameResult],
                  jsonl: Path | None, csv_out: Path | None, out: Console,
                  cells_of: Sequence[Mapping[str, Any] | None] | None = None,
                  options_of: Sequence[Mapping[str, Any]] | None = None) -> None:
    """Write the per-game rows where asked; in a sweep each game names its cell and its
    own options."""
    if jsonl is None and csv_out is None:
        return
    rows = [game_row(game_id, options_of[index] if options_of else options, result,
                     cells_of[index] if cells_of else None)
            for index, result in enumerate(results)]
    if jsonl is not None:
        write_jsonl(jsonl, rows)
        out.print(f"{len(rows)} games written to {jsonl}")
    if csv_out is not None:
        write_csv(csv_out, rows)
        out.print(f"{len(rows)} games written to {csv_out}")


def write_sim_page(path: Path, report: Mapping[str, Any], results: Sequence[GameResult],
                   command: str) -> None:
    from twintable.sim.figures import panel_svgs

    title = (f"{report['game']}: {report['games']} games, {report['players']} players, "
             f"{', '.join(report['lineup'])}")
    options = ", ".join(f"`{key}` = `{json.dumps(value)}`"
                        for key, value in report["options"].items())
    body = f"Options: {options}.\n\n" + tables_markdown(report) + "\n" + markdown_summary(report)
    write_page(path, html_page(title, command, report["seed"], body,
                               panel_svgs(report, results)))


def _unwritable(path: Path) -> str | None:
    if path.is_dir():
        return "it is a directory"
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return f"no directory {folder}"
    target = path if path.exists() else folder
    return None if os.access(target, os.W_OK) else "permission denied"


def read_deck(entry: Any, path: Path) -> dict[str, Any]:
    """The options a deck or scoring-table file stands for, checked by the game's own
    schema (its ``"sim"`` extension's ``deck_format``); a ValueError says what is wrong
    and where."""
    from pydantic import ValidationError

    deck_format = entry.extension(SimGame).deck_format
    if deck_format is None:
        raise ValueError(f"{entry.rules.name} reads no deck file")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ValueError(f"--deck {path}: {error.strerror or error}") from None
    try:
        if path.suffix == ".toml":
            import tomllib

            data = tomllib.loads(text)
        else:
            data = json.loads(text)
    except (ValueError, json.JSONDecodeError) as error:
        raise ValueError(f"--deck {path}: not {'TOML' if path.suffix == '.toml' else 'JSON'}"
                         f" ({error})") from None
    try:
        checked = deck_format.schema.model_validate(data)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(map(str, problem['loc'])) or 'the file'}: {problem['msg']}"
            for problem in error.errors()[:5])
        raise ValueError(f"--deck {path} is not a {entry.rules.name} deck file "
                         f"({deck_format.summary}): {problems}") from None
    options: dict[str, Any] = deck_format.options(checked)
    return options


def with_deck(entry: Any, deck: Path | None, raw: dict[str, Any]) -> dict[str, Any]:
    """``raw`` options with those of ``--deck``; an option given both ways is refused."""
    if deck is None:
        return raw
    from_file = read_deck(entry, deck)
    both = sorted(set(from_file) & set(raw))
    if both:
        raise ValueError(f"--deck {deck} sets {', '.join(both)}: leave "
                         f"{'it' if len(both) == 1 else 'them'} out of --option")
    return {**raw, **from_file}


def mode_warnings(game: Any, chosen: Mapping[str, Any],
                  modes: Sequence[Any]) -> list[str]:
    """The options set by hand that do nothing in a mode played (the game declares where
    each applies: ``Option.modes``)."""
    schema = game.options_schema.options
    lines = []
    for name in chosen:
        option = schema.get(name)
        if option is None or not option.modes:
            continue
        idle = [str(mode) for mode in dict.fromkeys(modes) if mode not in option.modes]
        if idle:
            lines.append(f"option {name!r} has no effect in mode {' or '.join(idle)} (it "
                         f"applies in {', '.join(map(str, option.modes))})")
    return lines


def warn(lines: Sequence[str]) -> None:
    for line in lines:
        console.print(f"[yellow]warning:[/] {escape(line)}", soft_wrap=True)


def metric_of(entry: Any, text: str | None) -> Metric | None:
    return None if text is None else parse_metric(text, entry.extension(SimGame).metrics)


def check_metric(metric: Metric | None, results: Sequence[GameResult]) -> None:
    """After the first games: a name no game has is a typo, said before the long run."""
    if metric is None or not results:
        return
    from twintable.sim.metrics import cell_context, game_names

    names = set(game_names(results[0], cell_context(len(results[0].bots), results[:1])))
    check_names(metric, names | {key for result in results for key in result.stats})


def half_widths(report: Mapping[str, Any]) -> list[float]:
    """Half the width of every interval a run's report leads with: win rates by bot and by
    turn order (a success rate in a cooperative game) and the metric's when it is a share
    (a count or a length has its own scale, which ± points of win rate do not fit)."""
    rows: list[Mapping[str, Any]] = []
    if report.get("coop"):
        rows.append(report["coop"]["success"])
    else:
        rows += list(report["bots"].values()) + list(report["turn_order"])
    metric = report.get("metric")
    if metric and metric["games"] > 1 and metric.get("share"):
        rows.append(metric)
    return [(row["ci95"][1] - row["ci95"][0]) / 2 for row in rows]


def sweep_half_widths(report: Mapping[str, Any]) -> list[float]:
    """Every cell's :func:`half_widths`, and the paired differences of edges and of the
    metric between neighbouring cells."""
    widths = [width for cell in report["cells"] for width in half_widths(cell["report"])]
    shares = {cell["report"]["metric"]["name"] for cell in report["cells"]
              if cell["report"].get("metric", {}).get("share")}
    widths += [(row["ci95"][1] - row["ci95"][0]) / 2 for row in report["differences"]
               if "edge" in row["measure"] or row["measure"] == "success"
               or row["measure"].removeprefix("metric: ") in shares]
    return widths


def stopped(log: GameLog | None, done: int) -> typer.Exit:
    """Ctrl-C or SIGTERM: say what was kept and how to go on."""
    if log is not None:
        log.close()
        console.print(f"\nstopped: {log.written} new games kept in {log.path} ({done} in "
                      "all); the same command with --resume plays the rest", soft_wrap=True)
    else:
        console.print(f"\nstopped after {done} games; nothing was kept (give --jsonl FILE "
                      "to keep finished games and --resume to go on)", soft_wrap=True)
    return typer.Exit(130)


def sweep(
    game_id: Annotated[str, typer.Argument(metavar="GAME",
                                           help=f"Game id: {', '.join(game_ids())}.")],
    grid: Annotated[list[str] | None, typer.Option(
        help="An option and the values to try, comma-separated: stacking=true,false. "
             "Repeat for more options; every combination is played.")] = None,
    bots: Annotated[list[str] | None, typer.Option(
        "--bots", "--bot",
        help="A line-up, comma-separated (repeated to fill the seats): levels, bots or "
             "your own agents (module:Class, policy.npz, model.zip), any of them with a "
             "noise (hard@0.2: a random legal move one time in five); repeat --bots to "
             "compare line-ups (default: the game's usual bot against random).")] = None,
    players: Annotated[str | None, typer.Option(
        help="Player counts, comma-separated: 3,4,5 (default: the fewest the game "
             "takes).")] = None,
    games: Annotated[int, typer.Option(
        help="Games per cell (with --precision: the most per cell).")] = 200,
    seed: Annotated[int, typer.Option(
        help="Game i of every cell uses seed + i (the same seeds in every cell).")] = 0,
    option: Annotated[list[str] | None, typer.Option(
        help="An option fixed in every cell, key=value.")] = None,
    deck: Annotated[Path | None, typer.Option(
        help="A deck or scoring-table file (JSON or TOML) the game checks and plays in "
             "every cell.")] = None,
    metric: Annotated[str | None, typer.Option(
        help="A per-game measure to report, compare and rank cells by: a name (first, "
             "dealer, weakest, strongest, first_edge, length, margin, or the game's own) or "
             "an expression (\"weakest - even\", \"turns / rounds\").")] = None,
    precision: Annotated[float | None, typer.Option(
        help="Play until every interval reported (win rates, turn order, the metric, the "
             "paired differences) is within ± this (0.02: two points), at most --games "
             "per cell.", min=0.0001)] = None,
    fixed_seats: Annotated[bool, typer.Option(
        "--fixed-seats", help="Keep each bot in the seat it is named for (no rotation).")]
    = False,
    workers: Annotated[int, typer.Option(
        help="Processes (0: one per CPU core); with --ray local, the CPUs Ray may use.")] = 0,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="ADDRESS", help="Run on the Ray cluster at ADDRESS, or local.")]
    = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Save the sweep here.")]
    = None,
    plot: Annotated[Path | None, typer.Option(help="Save the figures (PNG) here.")] = None,
    jsonl: Annotated[Path | None, typer.Option(
        help="One JSON line per game here, written as games finish.")] = None,
    resume_run: Annotated[bool, typer.Option(
        "--resume", help="Keep the games already in --jsonl (a stopped run) and play only "
                         "the rest.")] = False,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="One CSV row per game here.")]
    = None,
    report_out: Annotated[Path | None, typer.Option(
        "--report", help="One self-contained HTML page here.")] = None,
) -> None:
    """Play the same seeds under every combination of options (--grid), line-ups (--bots)
    and player counts, and compare the cells: win rates, turn order and lengths with 95%
    intervals, paired differences between neighbouring cells (Holm-corrected) and the
    cells ranked."""
    widen(console)
    try:
        entry = default_registry().entry(game_id)
        game = entry.rules
        base = parse_option_pairs(option or [])
        chosen = dict(base)
        base = with_deck(entry, deck, base)
        values = parse_grid(grid or [])
        lineups = [[name.strip() for name in line.split(",") if name.strip()]
                   for line in (bots or [f"{entry.default_bot},random"])]
        if any(not lineup for lineup in lineups):
            raise ValueError("name at least one bot in each --bots")
        # Levels (hard) read as the bots they seat: cells name each bot one way.
        lineups = [seat_names(entry, lineup) for lineup in lineups]
        counts = ([int(count) for count in players.split(",") if count.strip()] if players
                  else [game.player_range(game.resolve_options(base))[0]])
        found = cells(values, base, lineups, counts, game.resolve_options, game.check_players)
        for cell in found:
            make_bots(entry, cell.lineup)
        if games < 1:
            raise ValueError("play at least one game per cell")
        if resume_run and jsonl is None:
            raise ValueError("--resume reads the games kept in --jsonl FILE: give it")
        chosen_metric = metric_of(entry, metric)
        if ray is not None:
            require_ray()
    except (TwinTableError, ValueError, RuntimeError) as error:
        raise _fail(in_words(error)) from None
    for out in (json_out, plot, jsonl, csv_out, report_out):
        if out is not None and (problem := _unwritable(out)):
            raise _fail(f"cannot write {out}: {problem}")
    warn(mode_warnings(game, {**chosen, **values}, [cell.options.get("mode") for cell in found]
                       if "mode" in game.options_schema.options else []))
    setups = [Setup(cell.options, cell.lineup, cell.players, cell.key()) for cell in found]
    try:
        kept = resume(jsonl, game.id, setups, seed, fixed_seats) \
            if resume_run and jsonl is not None else 0
    except ResumeError as error:
        raise _fail(str(error)) from None
    if kept:
        console.print(f"{kept} games read back from {jsonl}")

    def report_of(done: Sequence[Setup]) -> dict[str, Any]:
        results = [CellResult(cell, setup.results,
                              cell_report(game.id, seed, cell, setup.results, fixed_seats,
                                          chosen_metric, game.round_name,
                                          game.cooperative(cell.options)))
                   for cell, setup in zip(found, done, strict=True)]
        return sweep_report(game.id, seed, max(len(setup.results) for setup in done),
                            results, fixed_seats, chosen_metric)

    wanted = (Precision(precision, games, lambda done: max(
        sweep_half_widths(report_of(done)), default=0.0)) if precision else None)
    log = GameLog(jsonl, game.id, append=resume_run) if jsonl is not None else None
    try:
        with stop_on_terminate(), progress_bar(console) as progress:
            task = progress.add_task(f"{len(found)} cells", total=games * len(found),
                                     completed=kept)
            unchecked = [chosen_metric]

            def advance(count: int, total: int) -> None:
                progress.update(task, advance=count, total=total)
                if count and unchecked:
                    check_metric(unchecked.pop(), [r for s in setups for r in s.results])

            play(game.id, setups, games, seed, workers=workers, ray=ray,
                 fixed_seats=fixed_seats, log=log, advance=advance, precision=wanted)
    except KeyboardInterrupt:
        raise stopped(log, sum(len(setup.results) for setup in setups)) from None
    except MetricError as error:
        raise _fail(str(error)) from None
    except ConnectionError as error:
        raise _fail(f"cannot reach the Ray cluster at {ray}: {error}") from None
    if log is not None:
        log.close()
        console.print(f"{sum(len(s.results) for s in setups)} games written to {jsonl}")
    report = report_of(setups)
    played = report["games"]
    if precision is not None:
        widest = max(sweep_half_widths(report), default=0.0)
        console.print(f"{played} games per cell: the widest interval is ±{widest:.1%}"
                      + ("" if widest <= precision else
                         f", short of ±{precision:.1%}: --games {games} capped the run"))
    # The Markdown ends with the warnings about cells too close to tell apart.
    console.print(Markdown(sweep_markdown(report)))
    if json_out:
        json_out.write_text(json.dumps(report, indent=2), encoding="utf-8")
        console.print(f"sweep written to {json_out}")
    if plot:
        from twintable.sim.figures import plot_sweep

        plot_sweep(report, plot)
        console.print(f"figures written to {plot}")
    results = [result for setup in setups for result in setup.results]
    write_exports(game.id, {}, results, None, csv_out, console,
                  cells_of=[setup.cell for setup in setups for _ in setup.results],
                  options_of=[setup.options for setup in setups for _ in setup.results])
    if report_out:
        from twintable.sim.figures import sweep_svgs

        words = ["twintable", "sweep", game.id, "--games", str(played), "--seed", str(seed)]
        for name, choices in values.items():
            words += ["--grid", grid_text(name, choices)]
        for lineup in lineups:
            words += ["--bots", ",".join(lineup)]
        words += ["--players", ",".join(map(str, counts)), *_option_flags(chosen)]
        if deck is not None:
            words += ["--deck", str(deck)]
        if metric is not None:
            words += ["--metric", metric]
        if fixed_seats:
            words.append("--fixed-seats")
        title = f"{game.name}: sweep of {len(found)} cells × {played} games"
        write_page(report_out, html_page(title, shlex.join(words), seed,
                                         sweep_markdown(report), sweep_svgs(report)))
        console.print(f"HTML report written to {report_out}")
