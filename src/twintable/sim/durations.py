"""How long a game takes at a table, measured on the simulator's virtual clock.

The lobby tells people how long a game lasts; a game declares that figure
(``Game.table_minutes``: per mode, the players seated and the minutes) and this module
measures it, so the figure is a measurement rather than a guess (issue 24). A game that
declares none (a new plug-in) is listed without a length.

A real-time game is timed as the simulator plays it: its bots plan like people
(reaction times, thinking, the game's own timers), and the game lasts until its last move.
A turn-based game is timed as a table plays it with one person and bots: each move of the
person's seat takes :data:`PERSON_MOVE_MS`, each bot move the table's thinking delay
(:data:`BOT_MOVE_MS`) unless the person is also to act (then the bots think while the
person does); a game that paces its bots like people (``Pacing.PEOPLE``) uses its own
timing for theirs (``GameEntry.plan``).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator, Mapping, Set
from typing import Any

from twintable.bots.registry import bot_factories, default_bot
from twintable.core.plugin import GameEntry, Pacing
from twintable.core.schedule import Plan
from twintable.core.table_engine import TableEngine
from twintable.sim.runner import MAX_STEPS, play_realtime_game

#: A newcomer's move at a turn-based table: reading the table, choosing, clicking.
PERSON_MOVE_MS = 5000
#: A bot's move at a table of people (the server's default ``bot_delay_ms``).
BOT_MOVE_MS = 700
#: The seat the person sits in.
PERSON = 0


def game_minutes(entry: GameEntry, options: Mapping[str, Any], players: int, seed: int,
                 bot: str | None = None) -> float:
    """Minutes one game of ``players`` (a person in seat 0, the rest ``bot``, the game's
    default) lasts on the virtual clock."""
    factories = bot_factories(entry)
    name = bot or default_bot(entry)
    bots = [factories[name]() for _ in range(players)]
    if entry.rules.realtime:
        result = play_realtime_game(entry.rules, options, bots, seed, record=True,
                                    plan_move=entry.plan)
        assert result.actions is not None
        return max((action.t_ms for action in result.actions), default=0) / 60_000
    return _table_ms(entry, options, bots, seed) / 60_000


class _PersonAndBots:
    """The players of a table of one person (seat :data:`PERSON`) and bots, timed as the
    module docstring says: the seats to act are asked in seat order and the first that
    acts moves, when its thinking is over."""

    def __init__(self, entry: GameEntry, bots: list[Any], rng: random.Random):
        self.entry, self.game, self.bots, self.rng = entry, entry.rules, bots, rng
        self.paced = entry.pacing is Pacing.PEOPLE

    def plans(self, state: Any, now_ms: int, step: int, refused: Set[int]) -> Iterator[Plan]:
        acting = sorted(self.game.to_act(state))
        for seat in acting:
            action = self.bots[seat].act(self.game.view(state, seat), self.rng)
            if action is None:
                continue
            if seat == PERSON:
                at = now_ms + PERSON_MOVE_MS
            elif PERSON in acting:
                at = now_ms  # the bot thought while the person did
            else:
                plan = self.entry.plan(self.bots[seat], self.game.view(state, seat), self.rng,
                                       now_ms) if self.paced else None
                at = plan[0] if plan is not None else now_ms + BOT_MOVE_MS
            yield Plan(at, seat, action)
            return


def _table_ms(entry: GameEntry, options: Mapping[str, Any], bots: list[Any],
              seed: int) -> int:
    game = entry.rules
    state = game.new_state(options, len(bots), seed)
    table = TableEngine(game, state, _PersonAndBots(entry, bots, random.Random(seed * 7919 + 17)))
    table.run(MAX_STEPS)
    return table.now_ms


def typical_minutes(entry: GameEntry, mode: str, players: int, games: int = 12,
                    seed: int = 0) -> float:
    """The median length in minutes of ``games`` seeded games in ``mode`` ("" for a game
    without modes), at the game's default options otherwise."""
    options = {"mode": mode} if mode else {}
    return statistics.median(game_minutes(entry, options, players, seed + index)
                             for index in range(games))
