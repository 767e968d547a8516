"""What every command of ``twintable`` shares: the console, one-line refusals, the
installed games for help texts, and the small parsers of their options."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import import_module
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from twintable.cli.config import ConfigError
from twintable.core.options import parse_option_pairs
from twintable.core.registry import default_registry
from twintable.terminal.extension import TerminalGame

console = Console()

#: Click's errors as the installed Typer bundles them (its own copy of Click in recent
#: versions, Click itself before): BadParameter, a public name, lives beside them.
_CLICK_ERRORS: Any = import_module(typer.BadParameter.__module__)


class Commands(TyperGroup):
    """The command group: a mistyped command line (an unknown option, a value that is not
    a number, a missing argument) is told in one line and a pointer to the help, not in
    Rich's framed box, and exits with code 2 like every refusal of this command."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: Any = None, **extra: Any) -> Any:
        with _usage_errors_told():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Any) -> Any:
        with _usage_errors_told():
            return super().invoke(ctx)


@contextmanager
def _usage_errors_told() -> Iterator[None]:
    try:
        yield
    except _CLICK_ERRORS.UsageError as error:
        if isinstance(error, _CLICK_ERRORS.NoArgsIsHelpError):
            raise  # no arguments at all: the help is the answer
        said = error.format_message().strip()
        command = error.ctx.command_path if error.ctx is not None else "twintable"
        console.print(f"[bold red]error:[/] {escape(said[:1].lower() + said[1:])}",
                      soft_wrap=True)
        console.print(f"  [dim]{escape(command)} --help[/] says what it takes",
                      soft_wrap=True)
        raise typer.Exit(2) from None
    except ConfigError as error:
        # Not a mistyped command line: the file is wrong, whatever the command said.
        console.print(f"[bold red]error:[/] {escape(str(error))}", soft_wrap=True)
        raise typer.Exit(1) from None


#: Every installed game, found through its entry (help texts and game commands below).
GAMES = default_registry()


def game_ids(entries: Any = None) -> str:
    """Game ids for a help text: "a, b or c"."""
    ids = [entry.id for entry in (GAMES.entries() if entries is None else entries)]
    return ", ".join(ids[:-1]) + (" or " if len(ids) > 1 else "") + ids[-1] if ids else "none"


TERMINAL_GAMES = [entry for entry in GAMES.entries()
                  if entry.extension(TerminalGame).module is not None]


def fail(message: str) -> typer.Exit:
    # One line whatever the width, and a message's brackets are text, not markup.
    console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(2)


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    try:
        return parse_option_pairs(pairs or [])
    except ValueError as error:
        raise fail(str(error)) from None


def bot_lineup(bots: str, players: int) -> list[str]:
    names = [name.strip() for name in bots.split(",") if name.strip()]
    if not names:
        raise fail("name at least one bot")
    return [names[i % len(names)] for i in range(players)]


def terminal_of(game_id: str) -> Any:
    """The terminal front end of a game, as its entry names it (some games are played in
    the browser only)."""
    module = (GAMES.entry(game_id).extension(TerminalGame).module if game_id in GAMES
              else None)
    if module is None:
        raise fail(f"terminal play is available for {game_ids(TERMINAL_GAMES)}, "
                   f"not {game_id!r}")
    return import_module(module)


def unwritable(path: Path) -> str | None:
    """Why a report or figure could not be written at ``path`` (None: it can), checked
    without leaving a file behind."""
    if path.is_dir():
        return "it is a directory"
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return f"no directory {folder}"
    if path.exists():
        return None if os.access(path, os.W_OK) else "permission denied"
    return None if os.access(folder, os.W_OK | os.X_OK) else "permission denied"
