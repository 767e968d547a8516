"""``twintable sim``: bots against bots, win rates with their intervals."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markdown import Markdown

from twintable.bots.registry import seat_names
from twintable.cli.shell import (
    GAMES,
    bot_lineup,
    console,
    fail,
    game_ids,
    parse_options,
    unwritable,
)
from twintable.core.errors import TwinTableError, in_words
from twintable.core.registry import default_registry
from twintable.sim import drive
from twintable.sim.drive import GameLog, Precision, ResumeError, Setup, resume, stop_on_terminate
from twintable.sim.extension import SimGame
from twintable.sim.figures import plot_report
from twintable.sim.lab import (
    check_metric,
    half_widths,
    metric_of,
    mode_warnings,
    sim_command,
    stopped,
    warn,
    widen,
    with_deck,
    write_exports,
    write_sim_page,
)
from twintable.sim.metrics import MetricError, metric_summary
from twintable.sim.progress import progress_bar
from twintable.sim.report import build_report
from twintable.sim.report_tables import print_report
from twintable.sim.runner import GameResult, make_bots
from twintable.sim.summary import markdown_summary

MODES = "; ".join(
    f"{entry.rules.name}: {', '.join(map(str, mode.choices))}"
    for entry in GAMES.entries()
    if (mode := entry.rules.options_schema.options.get("mode")) is not None)


#: What each game's deck file holds, for ``--deck``'s help.
DECK_FILES = "; ".join(f"{entry.rules.name}: {deck.summary}" for entry in GAMES.entries()
                       if (deck := entry.extension(SimGame).deck_format) is not None)


def sim(
    game_id: Annotated[str, typer.Argument(metavar="GAME",
                                           help=f"Game id: {game_ids()}.")],
    players: Annotated[int | None, typer.Option(
        help="Players per game (default: the fewest the game takes).")] = None,
    games: Annotated[int, typer.Option(
        help="Games to play (with --precision: the most to play).")] = 1000,
    bots: Annotated[str | None, typer.Option(
        "--bots", "--bot",
        help="Bot per seat by level (easy, hard...), by name or your own agent "
             "(module:Class, policy.npz, model.zip), comma-separated; repeated "
             "to fill. Any of them may carry a noise: hard@0.2 plays a random legal move "
             "one time in five. Seats rotate every game (default: the game's usual bot against "
             "random).")] = None,
    seed: Annotated[int, typer.Option(help="Game i uses seed + i.")] = 0,
    option: Annotated[list[str] | None, typer.Option(help="A table option, key=value.")]
    = None,
    mode: Annotated[str | None, typer.Option(
        help=f"Shorthand for --option mode=... ({MODES}).")] = None,
    deck: Annotated[Path | None, typer.Option(
        help="A deck or scoring-table file (JSON or TOML), checked by the game: "
             + DECK_FILES + ".")] = None,
    metric: Annotated[str | None, typer.Option(
        help="A per-game measure to report with its interval: a name (first, dealer, "
             "weakest, strongest, first_edge, length, margin, or the game's own) or an "
             "expression (\"weakest - even\", \"turns / rounds\").")] = None,
    precision: Annotated[float | None, typer.Option(
        help="Play until every interval reported (win rates by bot and turn order, the "
             "metric) is within ± this (0.02: two points), at most --games games.",
        min=0.0001)] = None,
    workers: Annotated[int, typer.Option(
        help="Processes (0: one per CPU core); with --ray local, the CPUs Ray may use.")] = 0,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="ADDRESS",
        help="Run the games as tasks on the Ray cluster at ADDRESS (ray://host:10001, "
             "host:6379, auto), or on a Ray started here for the run: local. Needs the "
             "\\[dist] extra.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Save a figure (PNG) here.")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Save the report here.")]
    = None,
    fixed_seats: Annotated[bool, typer.Option(
        "--fixed-seats", help="Keep each bot in the seat it is named for (no rotation), so "
                              "an option naming seats (a handicap, a team) goes to that "
                              "bot.")] = False,
    jsonl: Annotated[Path | None, typer.Option(
        help="Write one JSON line per game here as games finish (seed, seats, turn order, "
             "winners, scores by round, length): Ctrl-C keeps them.")] = None,
    resume_run: Annotated[bool, typer.Option(
        "--resume", help="Keep the games already in --jsonl (a stopped run) and play only "
                         "the rest: the same report as a run never stopped.")] = False,
    csv_out: Annotated[Path | None, typer.Option(
        "--csv", help="Write one CSV row per game here.")] = None,
    report_out: Annotated[Path | None, typer.Option(
        "--report", help="Write one self-contained HTML page here: tables, figures, and "
                         "the command to reproduce the run.")] = None,
) -> None:
    """Simulate bots against each other and report win rates with 95% intervals, by bot,
    by seat and by turn order (a cooperative game: its success rate)."""
    widen(console)
    registry = default_registry()
    try:
        entry = registry.entry(game_id)
        game = entry.rules
        raw = parse_options(option)
        if mode is not None:
            raw["mode"] = mode
        chosen = dict(raw)
        raw = with_deck(entry, deck, raw)
        options = game.resolve_options(raw)
        players = players if players is not None else game.player_range(options)[0]
        game.check_players(players, options)
        # Levels (hard) read as the bots they seat: the report names each bot one way.
        lineup = seat_names(entry, bot_lineup(bots or f"{entry.default_bot},random", players))
        make_bots(entry, lineup)
        if resume_run and jsonl is None:
            raise ValueError("--resume reads the games kept in --jsonl FILE: give it")
        chosen_metric = metric_of(entry, metric)
    except (TwinTableError, ValueError, RuntimeError) as error:
        raise fail(in_words(error)) from None
    if games < 1:
        raise fail("play at least one game")
    if ray is not None:
        from twintable.sim.runner import require_ray

        try:
            require_ray()
        except RuntimeError as error:
            raise fail(in_words(error)) from None
    for out in (json_out, plot, jsonl, csv_out, report_out):
        if out is not None:
            # Refuse now rather than after a long simulation.
            problem = unwritable(out)
            if problem:
                raise fail(f"cannot write {out}: {problem}")
    warn(mode_warnings(game, chosen, [options["mode"]] if "mode" in options else []))
    cooperative = game.cooperative(options)
    setup = Setup(options, tuple(lineup), players)
    try:
        kept = resume(jsonl, game.id, [setup], seed, fixed_seats) \
            if resume_run and jsonl is not None else 0
    except ResumeError as error:
        raise fail(str(error)) from None
    if kept:
        console.print(f"{kept} games read back from {jsonl}")

    def report_of(results: list[GameResult]) -> dict[str, Any]:
        report = build_report(game.id, players, lineup, seed, options, results, fixed_seats,
                              round_name=game.round_name, cooperative=cooperative)
        if chosen_metric is not None:
            report["metric"] = metric_summary(chosen_metric, players, results)
        return report

    wanted = (Precision(precision, games, lambda done: max(
        half_widths(report_of(done[0].results)), default=0.0)) if precision else None)
    log = GameLog(jsonl, game.id, append=resume_run) if jsonl is not None else None
    try:
        with stop_on_terminate(), progress_bar(console) as progress:
            task = progress.add_task(f"{game.name}: {', '.join(lineup)}", total=games,
                                     completed=kept)
            unchecked = [chosen_metric]

            def advance(count: int, total: int) -> None:
                progress.update(task, advance=count, total=total)
                if count and unchecked:
                    check_metric(unchecked.pop(), setup.results)

            drive.play(game.id, [setup], games, seed, workers=workers, ray=ray,
                 fixed_seats=fixed_seats, log=log, advance=advance, precision=wanted)
    except KeyboardInterrupt:
        raise stopped(log, len(setup.results)) from None
    except MetricError as error:
        raise fail(str(error)) from None
    except ConnectionError as error:
        raise fail(f"cannot reach the Ray cluster at {ray}: {error}") from None
    results = setup.results
    if log is not None:
        log.close()
        console.print(f"{len(results)} games written to {jsonl}")
    report = report_of(results)
    if precision is not None:
        widest = max(half_widths(report), default=0.0)
        console.print(f"{len(results)} games: the widest interval is ±{widest:.1%}"
                      + ("" if widest <= precision else
                         f", short of ±{precision:.1%}: --games {games} capped the run"))
    print_report(report, console)
    console.print(Markdown(markdown_summary(report)))
    if json_out:
        json_out.write_text(json.dumps(report, indent=2), encoding="utf-8")
        console.print(f"report written to {json_out}")
    if plot:
        plot_report(report, results, plot)
        console.print(f"figure written to {plot}")
    write_exports(game.id, options, results, None, csv_out, console)
    if report_out:
        command = sim_command(game.id, players, len(results), lineup, seed, chosen,
                              fixed_seats)
        if deck is not None:
            command += f" --deck {shlex.quote(str(deck))}"
        if metric is not None:
            command += f" --metric {shlex.quote(metric)}"
        write_sim_page(report_out, report, results, command)
        console.print(f"HTML report written to {report_out}")
