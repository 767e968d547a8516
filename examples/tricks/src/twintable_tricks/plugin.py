"""Twin Tricks as a Twin Table plug-in: the one declaration Twin Table reads.

``pyproject.toml`` names :func:`entry` in the ``twintable.games`` entry-point group under
the game's id, ``tricks``. Loading it imports the rules only; the bot, the terminal
game and the environment are named lazily and imported when a shell first needs them.
"""

from __future__ import annotations

from typing import Any

from twintable.core.plugin import BotLevel, GameEntry

from twintable_tricks.rules import TricksGame


def _heuristic() -> Any:
    from twintable_tricks.bots import HeuristicTricksBot

    return HeuristicTricksBot()


def entry() -> GameEntry:
    return GameEntry(
        rules=TricksGame(), package="twintable_tricks",
        # It counts cards and wins cheaply: a regular player's game, no more.
        bots=(BotLevel("heuristic", "medium", _heuristic),),
        default_bot="heuristic",
        # What two shells need beyond the rules and bots (core/plugin.py, "Shell
        # extensions"): a terminal game, and an environment published as
        # twintable.envs.tricks_v0, as the built-in games' are.
        extensions={"terminal": {"module": "twintable_tricks.terminal"},
                    "envs": {"module": "twintable_tricks.env",
                             "names": {"tricks_v0": "twintable_tricks.env"}}})
