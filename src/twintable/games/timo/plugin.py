"""Timo's Twist as a plug-in (``core/plugin.py``): its rules, bots and their levels, the
C engine simulations run on, and the people-like pacing of its bots at a table.

Bots and the C engine are imported only when a shell first asks for them.
"""

from __future__ import annotations

import random
from importlib.util import find_spec
from typing import Any

from twintable.core.game import Game
from twintable.core.plugin import BotLevel, DeckFormat, GameEntry, Pacing, Plan
from twintable.games.timo.cards import DeckFile
from twintable.games.timo.rules import TimoGame
from twintable.games.timo.state import CALL, CATCH, NOBODY


def _heuristic() -> Any:
    from twintable.games.timo.bots import HeuristicTimoBot

    return HeuristicTimoBot()


def _search() -> Any:
    from twintable.games.timo.bots import SearchTimoBot

    return SearchTimoBot()


def _greedy() -> Any:
    from twintable.games.timo.research.policy import GreedyTimoPolicy

    return GreedyTimoPolicy()


def _learned() -> Any:
    from twintable.games.timo.research.policy import LearnedTimoBot

    return LearnedTimoBot()


def _ismcts() -> Any:
    from twintable.games.timo.research.openspiel import ismcts_bot

    return ismcts_bot()


def _numpy() -> bool:
    """The greedy and learned bots encode views as NumPy arrays (``research/codec.py``)."""
    return find_spec("numpy") is not None


def _weights() -> bool:
    if not _numpy():
        return False
    from twintable.games.timo.research.policy import weights_available

    return weights_available()


def _openspiel() -> bool:
    """The IS-MCTS bot is OpenSpiel's: offered where it is installed (the ``rl`` extra)."""
    return find_spec("pyspiel") is not None


def simulator() -> Game[Any]:
    """The C engine when it was built, else the rules themselves."""
    from twintable.games.timo.fast import NATIVE, FastTimoGame

    return FastTimoGame() if NATIVE else TimoGame()


def plan_move(bot: Any, view: Any, rng: random.Random, now: int) -> Plan | None:
    """At a table with people: a TIMO! call or a catch after the bot's reaction time (if
    it notices at all), else, on its turn, its move after its thinking time (sometimes
    forgetting to call TIMO! with it): the same timings as the terminal's."""
    from twintable.games.timo.bots import table_move, timo_reaction, turn_delay

    if view.exposed != NOBODY:
        reaction = timo_reaction(bot, view, rng)
        if reaction is not None:
            return now + reaction[0], reaction[1]
    if any(action.kind not in (CALL, CATCH) for action in view.legal):
        return now + turn_delay(bot, rng), table_move(bot, view, rng)
    return None


def tutorial() -> Any:
    """The guided first game (``tutorial.py``), loaded when a shell asks for it."""
    from twintable.games.timo.tutorial import tutorial as guided

    return guided()


def entry() -> GameEntry:
    return GameEntry(
        rules=TimoGame(), package="twintable.games.timo",
        # One bot a level, each winning >= 55% against the one below (bench/levels.py).
        # greedy: the vector engine's C policy; heuristic: rules of thumb; search:
        # determinized Monte Carlo. Kept for research, seated by name only: ismcts,
        # OpenSpiel's IS-MCTS with a small budget (research/openspiel.py), no stronger
        # than greedy; learned, the search distilled into a network (research/policy.py),
        # as strong as search itself (50% face to face), so no level between them.
        bots=(BotLevel("greedy", "easy", _greedy, available=_numpy),
              BotLevel("ismcts", "easy", _ismcts, available=_openspiel, offered=False),
              BotLevel("heuristic", "medium", _heuristic),
              BotLevel("learned", "expert", _learned, available=_weights, offered=False),
              BotLevel("search", "expert", _search)),
        default_bot="heuristic",
        # People at a table race bots to call TIMO! and to catch; bots take a person's time.
        pacing=Pacing.PEOPLE, plan_move=plan_move,
        short_options={"target": 100}, lobby_order=10,
        tutorial=tutorial,
        extensions={
            "sim": {"simulator": simulator,
                    "deck_format": DeckFormat(
                        DeckFile, lambda deck: {"deck": deck.composition()},
                        "card counts per colour and black cards, as "
                        '{"per_colour": {"0": 1, "1": 2, ..., "+2": 2}, '
                        '"black": {"colour": 4, "+4": 4}}'),
                    "metrics": {"turns_per_round": "turns / rounds"}},
            "terminal": {"module": "twintable.games.timo.terminal"},
            "envs": {"module": "twintable.games.timo.env", "gym_id": "twintable/Timo-v0",
                     "names": {"timo_v0": "twintable.games.timo.env",
                               "timo_vector": "twintable.games.timo.research.vector",
                               "timo_selfplay": "twintable.games.timo.research.selfplay",
                               "timo_sb3": "twintable.games.timo.research.sb3",
                               "training": "twintable.games.timo.research.training"},
                     "openspiel": "twintable.games.timo.research.openspiel",
                     "trainer": "twintable.games.timo.research.trainer:train_timo"}})
