"""``twintable games``: every installed game, its player counts, bots and options."""

from __future__ import annotations

import json

from rich.table import Table

from twintable.bots.registry import level_bots
from twintable.cli.shell import console
from twintable.core.registry import default_registry
from twintable.sim.extension import SimGame


def games() -> None:
    """List the games, their player counts, bots and options."""
    for entry in default_registry().entries():
        game = entry.rules
        levels = ", ".join(f"{level} ({bot})" for level, bot in level_bots(entry).items())
        top = list(level_bots(entry))[-1] if level_bots(entry) else "random"
        caption = (f"bot levels (--bots): {levels}; any bot takes a noise: {top}@0.2 plays "
                   "a random move one time in five")
        simulated = entry.extension(SimGame)
        if simulated.deck_format is not None:
            caption += f"\n--deck FILE: {simulated.deck_format.summary}"
        if simulated.metrics:
            caption += f"\n--metric: {', '.join(simulated.metrics)} besides every game's"
        table = Table(title=f"{game.name} ({game.id}), {game.min_players}-{game.max_players} "
                            "players", caption=caption, show_lines=False)
        for column in ("option", "default", "values", "meaning"):
            table.add_column(column)
        for option in game.options_schema.options.values():
            table.add_row(option.name, json.dumps(option.default), option.range_text(),
                          option.description)
        console.print(table)
