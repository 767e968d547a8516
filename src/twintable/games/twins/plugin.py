"""Twins as a plug-in (``core/plugin.py``): its rules and its bots with their levels.

Bots are imported only when a shell first asks for one.
"""

from __future__ import annotations

from typing import Any

from twintable.core.plugin import BotLevel, DeckFormat, GameEntry
from twintable.games.twins.cards import ScoringFile
from twintable.games.twins.rules import TwinsGame


def _heuristic() -> Any:
    from twintable.games.twins.bots import HeuristicTwinsBot

    return HeuristicTwinsBot()


def _strong() -> Any:
    from twintable.games.twins.bots import StrongTwinsBot

    return StrongTwinsBot()


def tutorial() -> Any:
    """The guided first game (``tutorial.py``), loaded when a shell asks for it."""
    from twintable.games.twins.tutorial import tutorial as guided

    return guided()


def entry() -> GameEntry:
    return GameEntry(
        rules=TwinsGame(), package="twintable.games.twins",
        bots=(BotLevel("heuristic", "medium", _heuristic),
              BotLevel("strong", "hard", _strong)),
        default_bot="heuristic",
        short_options={"max_hands": 3}, lobby_order=20,
        tutorial=tutorial,
        extensions={
            "sim": {"deck_format": DeckFormat(
                        ScoringFile, ScoringFile.options,
                        "a scoring table: cash cards per player count and starting "
                        'chips, as {"starting_chips": 12, "cash": {"4": {"round1": '
                        '{"lowest": 2, "pay": 2}, "round2": {"highest": 1, "gain": 3}, '
                        '"round3": {"lowest": 1, "pay": 1}}}}'),
                    "metrics": {"bankrupt": "ended_by_bankruptcy", "hands": "hands"}},
            "terminal": {"module": "twintable.games.twins.terminal"},
            "envs": {"module": "twintable.games.twins.env", "gym_id": "twintable/Twins-v0",
                     "names": {"twins_v0": "twintable.games.twins.env"},
                     "openspiel": "twintable.games.twins.research.openspiel"}})
