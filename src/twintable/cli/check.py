"""``twintable check [GAME...]``: the game kit's checks on installed games, one line each.

Every check the project runs on its own games (``twintable.kit``), for any installed
game: a designer runs it on a new game before anyone plays it. The exit code is 1 when a
check fails, 2 for an unknown game or check.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from twintable.core.errors import OptionError
from twintable.core.registry import default_registry
from twintable.kit.checks import CHECK_NAMES, CheckResult, check_game

console = Console()

#: How each outcome of a check is marked on its line.
MARKS = {True: "[green]pass[/]", False: "[bold red]FAIL[/]", None: "[dim]skip[/]"}


def _line(result: CheckResult) -> str:
    return f"  {MARKS[result.passed]}  {result.name:<14} {escape(result.detail)}"


def check(
    games: Annotated[list[str] | None, typer.Argument(
        help="Game ids (every installed game when none is named).", show_default=False)]
    = None,
    seeds: Annotated[int, typer.Option(
        min=1, max=50, help="Random games per case (each at its own seed).")] = 3,
    only: Annotated[list[str] | None, typer.Option(
        "--only", help=f"Run only this check (repeatable): {', '.join(CHECK_NAMES)}.",
        show_default=False)] = None,
) -> None:
    """Check that games play by the rules every shell relies on: random games end,
    illegal moves change nothing, views hide what they must, replays rebuild every state,
    bots play through, and the rules pages and catalogues are complete."""
    registry = default_registry()
    try:
        entries = [registry.entry(game_id) for game_id in games or registry.ids()]
    except OptionError as error:
        console.print(f"[bold red]error:[/] {escape(error.message)}", soft_wrap=True)
        raise typer.Exit(2) from None
    failed = 0
    for entry in entries:
        try:
            results = check_game(entry, seeds=range(1, seeds + 1), only=only)
        except ValueError as error:
            console.print(f"[bold red]error:[/] {escape(str(error))}", soft_wrap=True)
            raise typer.Exit(2) from None
        bad = sum(result.passed is False for result in results)
        failed += bad
        verdict = "[bold red]fails[/]" if bad else "[green]passes[/]"
        console.print(f"[bold]{escape(entry.rules.name)}[/] ({entry.id}) {verdict}: "
                      f"{sum(result.passed is True for result in results)} passed, "
                      f"{bad} failed, {sum(result.passed is None for result in results)} "
                      "skipped", soft_wrap=True)
        for result in results:
            console.print(_line(result), soft_wrap=True, highlight=False)
    if failed:
        raise typer.Exit(1)
