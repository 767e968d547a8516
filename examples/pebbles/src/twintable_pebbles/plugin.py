"""Pebbles as a Twin Table plug-in: the one declaration Twin Table reads.

``pyproject.toml`` names :func:`entry` in the ``twintable.games`` entry-point group under
the game's id, ``pebbles``. Loading it imports the rules only; the bot is made lazily.
"""

from __future__ import annotations

from typing import Any

from twintable.core.plugin import BotLevel, GameEntry

from twintable_pebbles.rules import PebblesGame


def _counter() -> Any:
    from twintable_pebbles.bots import CounterBot

    return CounterBot()


def entry() -> GameEntry:
    return GameEntry(
        rules=PebblesGame(), package="twintable_pebbles",
        # Perfect with two players, a good habit with more: a strong player.
        bots=(BotLevel("counter", "hard", _counter),),
        default_bot="counter")
