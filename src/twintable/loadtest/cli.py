"""``twintable loadtest``: the command around the harness (arguments, the live display,
the summary and the JSON report). Register it with ``app.command()(loadtest)``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from twintable.core.options import parse_option_pairs
from twintable.core.registry import default_registry

if TYPE_CHECKING:
    from twintable.loadtest.harness import Totals

console = Console()
#: Every installed game in lobby order; the first is the default.
GAMES = default_registry().ids()


def _fail(message: str) -> typer.Exit:
    console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(2)


def _options(pairs: list[str] | None) -> dict[str, Any]:
    """``key=value`` pairs; a value is read as JSON when it can be (numbers, true, lists)."""
    from twintable.loadtest.harness import LoadTestError

    try:
        return parse_option_pairs(pairs or [])
    except ValueError as error:
        raise LoadTestError(f"--option: {error}") from None


def loadtest(
    url: Annotated[str, typer.Argument(help="The server, e.g. http://127.0.0.1:8000.")],
    tables: Annotated[int, typer.Option(help="Tables in play at once.")] = 10,
    clients_per_table: Annotated[int, typer.Option(
        help="People per table, each a WebSocket client; bots take the other seats.")] = 2,
    rate: Annotated[float, typer.Option(help="Target moves per second, all clients together "
                                             "(paced).")] = 100.0,
    duration: Annotated[float, typer.Option(help="Seconds of load.")] = 30.0,
    game: Annotated[str, typer.Option(help="A game id (twintable games lists them).")] = GAMES[0],
    players: Annotated[int | None, typer.Option(
        help="Seats per table (default: the clients, or the game's fewest players).")] = None,
    option: Annotated[list[str] | None, typer.Option(
        help="A table option, key=value (default: shorter games, e.g. Timo to 100 points).")]
    = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the report here.")]
    = None,
    processes: Annotated[int | None, typer.Option(
        help="Load processes (default: one per core, at most 8).")] = None,
    allow_remote: Annotated[bool, typer.Option(
        "--allow-remote", help="Allow a server that is not on this machine.")] = False,
    seed: Annotated[int, typer.Option(help="Seed of the clients' choices.")] = 0,
) -> None:
    """Load a server with scripted players: real games over the protocol, paced, then
    throughput, latency percentiles and errors (only loopback without --allow-remote)."""
    # Imported here: `twintable --help` should not pay for the HTTP and WebSocket clients.
    from twintable.loadtest.harness import LoadTestError, prepare, run_load

    try:
        plan = prepare(url, game, tables, clients_per_table, rate, duration, processes,
                       players, _options(option), allow_remote, seed)
    except LoadTestError as error:
        raise _fail(str(error)) from None
    if json_out is not None and not json_out.parent.is_dir():
        raise _fail(f"cannot write {json_out}: no folder {json_out.parent}")
    console.print(f"Loading {plan.url}: {plan.tables} {plan.game} tables of {plan.players} "
                  f"({plan.clients_per_table} clients each), {plan.rate:g} moves/s for "
                  f"{plan.duration_s:g} s in {plan.processes} processes")
    with Progress(TextColumn("[bold]load"), BarColumn(), TimeElapsedColumn(),
                  TextColumn("{task.fields[figures]}"), console=console) as progress:
        task = progress.add_task("load", total=plan.duration_s, figures="starting…")
        last: list[tuple[float, int]] = []

        def show(elapsed: float, totals: Totals) -> None:
            last.append((elapsed, totals.acks))
            del last[:-8]  # the rate over the last two seconds or so
            recent = ((last[-1][1] - last[0][1]) / (last[-1][0] - last[0][0])
                      if len(last) > 1 and last[-1][0] > last[0][0] else 0.0)
            p99 = totals.percentile_ms(0.99)
            progress.update(task, completed=elapsed, figures=(
                f"{totals.acks} acked · {recent:.0f}/s · p99 "
                f"{'–' if p99 is None else f'{p99:.1f} ms'} · {totals.games_finished} games · "
                f"{sum(totals.errors.values())} errors"))

        try:
            result = run_load(plan, show)
        except LoadTestError as error:
            raise _fail(str(error)) from None
    print_report(result)
    if json_out is not None:
        json_out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        console.print(f"Report written to {json_out}")
    if result["errors"]:
        raise typer.Exit(1)


def print_report(result: dict[str, Any]) -> None:
    summary = Table(title="Load test" + (" (interrupted)" if result["interrupted"] else ""),
                    show_header=False)
    summary.add_column(style="bold")
    summary.add_column(justify="right")
    latency = result["latency_ms"]
    rows = [
        ("acknowledged moves", f"{result['moves_acknowledged']} of {result['moves_sent']} sent"),
        ("throughput", f"{result['moves_per_s']:.1f} moves/s "
                       f"(target {result['rate_target']:g}) over {result['elapsed_s']:.1f} s"),
        *((f"latency {name}", "–" if latency[name] is None else f"{latency[name]:.2f} ms")
          for name in ("p50", "p90", "p99", "max")),
        ("tables started", str(result["tables_started"])),
        ("games finished", str(result["games_finished"])),
        ("refusals (races)", _counts(result["refusals"])),
        ("errors", _counts(result["errors"])),
        ("lobby retries (429/503)", str(result["lobby_retries"])),
        ("sent to the table's worker", str(result["redirects"])),
        ("reconnects (moves sent again)",
         f"{result['reconnects']} ({result['moves_resent']})"),
        ("longest pause of a table", f"{result['longest_pause_s']} s"),
    ]
    for name, value in rows:
        summary.add_row(name, value)
    console.print(summary)


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{code} {n}" for code, n in counts.items()) or "none"
