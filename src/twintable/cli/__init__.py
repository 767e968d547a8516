"""The `twintable` command: play in the terminal, simulate bots, step through replays.

Each command lives in a module of its own (``serve``, ``play``, ``sim``, ``games``, and
``check``, ``backup``, ``config``... beside them); this module only assembles the Typer
app, in the order ``twintable --help`` lists the commands. What the commands share (the
console, one-line refusals) is ``cli/shell.py``.
"""

from __future__ import annotations

from importlib import import_module

import typer

from twintable.cli import games, play, serve, sim
from twintable.cli.backup import archive, backup, restore
from twintable.cli.check import check
from twintable.cli.config import ConfigurableCommand
from twintable.cli.shell import GAMES, Commands, console
from twintable.envs.extension import EnvGame
from twintable.loadtest.cli import loadtest
from twintable.sim.lab import sweep
from twintable.terminal.extension import TerminalGame

__all__ = ["app", "console"]

app = typer.Typer(cls=Commands, help="Twin Table: card games to play with friends or "
                  "bots, and to simulate and study.", no_args_is_help=True)

app.command(cls=ConfigurableCommand)(serve.serve)
app.command("protocol-schema")(serve.protocol_schema)
app.command()(games.games)
app.command()(play.play)
app.command()(sim.sim)
app.command()(play.replay)

#: ``twintable train <id>``: each game's trainer, as its ``"envs"`` extension names it.
train_app = typer.Typer(help="Train agents (needs the \\[rl] extra: pip install "
                             "'twintable\\[rl]').", no_args_is_help=True)
for _entry in GAMES.entries():
    _trainer = _entry.extension(EnvGame).trainer
    if _trainer is not None:
        _module, _, _attr = _trainer.partition(":")
        train_app.command(_entry.id)(getattr(import_module(_module), _attr))

app.command()(loadtest)
app.command()(check)
for _command in (backup, restore, archive):
    app.command()(_command)
app.add_typer(train_app, name="train")
app.command()(sweep)
for _entry in GAMES.entries():
    _commands = _entry.extension(TerminalGame).commands
    if _commands is not None:
        _module, _, _attr = _commands.partition(":")
        app.add_typer(getattr(import_module(_module), _attr), name=_entry.id)
