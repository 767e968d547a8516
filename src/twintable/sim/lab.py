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
from twintable.games import default_registry, game_ids
from twintable.sim.export import game_row, write_csv, write_jsonl
from twintable.sim.html import html_page, write_page
from twintable.sim.progress import progress_bar
from twintable.sim.runner import GameResult, make_bots, require_ray, run_games
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


def sweep(
    game_id: Annotated[str, typer.Argument(metavar="GAME",
                                           help=f"Game id: {', '.join(game_ids())}.")],
    grid: Annotated[list[str] | None, typer.Option(
        help="An option and the values to try, comma-separated: stacking=true,false. "
             "Repeat for more options; every combination is played.")] = None,
    bots: Annotated[list[str] | None, typer.Option(
        "--bots", "--bot",
        help="A line-up, comma-separated (repeated to fill the seats): levels, bots or "
             "your own agents (module:Class, policy.npz, model.zip); repeat --bots to "
             "compare line-ups (default: the game's usual bot against random).")] = None,
    players: Annotated[str | None, typer.Option(
        help="Player counts, comma-separated: 3,4,5 (default: the fewest the game "
             "takes).")] = None,
    games: Annotated[int, typer.Option(help="Games per cell.")] = 200,
    seed: Annotated[int, typer.Option(
        help="Game i of every cell uses seed + i (the same seeds in every cell).")] = 0,
    option: Annotated[list[str] | None, typer.Option(
        help="An option fixed in every cell, key=value.")] = None,
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
    jsonl: Annotated[Path | None, typer.Option(help="One JSON line per game here.")] = None,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="One CSV row per game here.")]
    = None,
    report_out: Annotated[Path | None, typer.Option(
        "--report", help="One self-contained HTML page here.")] = None,
) -> None:
    """Play the same seeds under every combination of options (--grid), line-ups (--bots)
    and player counts, and compare the cells: win rates, turn order and lengths with 95%
    intervals, and paired differences between neighbouring cells."""
    try:
        entry = default_registry().entry(game_id)
        game = entry.rules
        base = parse_option_pairs(option or [])
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
        if ray is not None:
            require_ray()
    except (TwinTableError, ValueError, RuntimeError) as error:
        raise _fail(in_words(error)) from None
    for out in (json_out, plot, jsonl, csv_out, report_out):
        if out is not None and (problem := _unwritable(out)):
            raise _fail(f"cannot write {out}: {problem}")
    done = _play(game.id, found, games, seed, workers, ray, fixed_seats)
    report = sweep_report(game.id, seed, games, done, fixed_seats)
    # The Markdown ends with the warnings about cells too close to tell apart.
    console.print(Markdown(sweep_markdown(report)))
    if json_out:
        json_out.write_text(json.dumps(report, indent=2), encoding="utf-8")
        console.print(f"sweep written to {json_out}")
    if plot:
        from twintable.sim.figures import plot_sweep

        plot_sweep(report, plot)
        console.print(f"figures written to {plot}")
    results = [result for cell in done for result in cell.results]
    write_exports(game.id, {}, results, jsonl, csv_out, console,
                  cells_of=[cell.cell.key() for cell in done for _ in cell.results],
                  options_of=[cell.cell.options for cell in done for _ in cell.results])
    if report_out:
        from twintable.sim.figures import sweep_svgs

        words = ["twintable", "sweep", game.id, "--games", str(games), "--seed", str(seed)]
        for name, choices in values.items():
            words += ["--grid", grid_text(name, choices)]
        for lineup in lineups:
            words += ["--bots", ",".join(lineup)]
        words += ["--players", ",".join(map(str, counts)), *_option_flags(base)]
        if fixed_seats:
            words.append("--fixed-seats")
        title = f"{game.name}: sweep of {len(found)} cells × {games} games"
        write_page(report_out, html_page(title, shlex.join(words), seed,
                                         sweep_markdown(report), sweep_svgs(report)))
        console.print(f"HTML report written to {report_out}")


def _play(game_id: str, found: Sequence[Any], games: int, seed: int, workers: int,
          ray: str | None, fixed_seats: bool) -> list[CellResult]:
    """Each cell's games, one cell after the other, each spread over the workers; with Ray,
    one connection for the whole sweep."""
    connected_here = False
    if ray is not None:
        ray_module = require_ray()
        if not ray_module.is_initialized():
            settings: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                        "configure_logging": False}
            if ray == "local":
                ray_module.init(num_cpus=workers or None, **settings)
            else:
                ray_module.init(address=ray, **settings)
            connected_here = True
    done = []
    try:
        with progress_bar(console) as progress:
            task = progress.add_task(f"{len(found)} cells", total=games * len(found))
            for cell in found:
                results: list[GameResult] = []
                for chunk in run_games(game_id, cell.options, cell.lineup, games, seed,
                                       workers or None, ray_address=ray,
                                       fixed_seats=fixed_seats):
                    results.extend(chunk)
                    progress.advance(task, len(chunk))
                done.append(CellResult(cell, results,
                                       cell_report(game_id, seed, cell, results, fixed_seats)))
    except ConnectionError as error:
        raise _fail(f"cannot reach the Ray cluster at {ray}: {error}") from None
    finally:
        if connected_here:
            require_ray().shutdown()
    return done
