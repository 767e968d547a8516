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
from collections.abc import Mapping
from typing import Any

from twintable.bots.registry import bot_factories, default_bot
from twintable.core.plugin import GameEntry, Pacing
from twintable.core.schedule import next_event
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


def _table_ms(entry: GameEntry, options: Mapping[str, Any], bots: list[Any],
              seed: int) -> int:
    game = entry.rules
    state = game.new_state(options, len(bots), seed)
    rng = random.Random(seed * 7919 + 17)
    paced = entry.pacing is Pacing.PEOPLE
    now = 0
    for _ in range(MAX_STEPS):
        if game.is_over(state):
            return now
        acting = sorted(game.to_act(state))
        action = None
        for seat in acting:
            action = bots[seat].act(game.view(state, seat), rng)
            if action is not None:
                break
        if action is None:
            event = next_event((), game.deadline(state))
            if event is None:
                raise RuntimeError(f"{game.id}: no bot acted and no deadline is set")
            now = max(now, int(event.at_ms))
            timeout = game.timeout_action(state, now)
            if timeout is None:
                raise RuntimeError(f"{game.id}: deadline passed but no timeout action")
            game.apply(state, timeout)
            continue
        if action.seat == PERSON:
            now += PERSON_MOVE_MS
        elif PERSON not in acting:
            plan = entry.plan(bots[action.seat], game.view(state, action.seat), rng, now) \
                if paced else None
            now = plan[0] if plan is not None else now + BOT_MOVE_MS
        game.apply(state, action.at(now))
    raise RuntimeError(f"{game.id}: game did not end in {MAX_STEPS} steps (seed {seed})")


def typical_minutes(entry: GameEntry, mode: str, players: int, games: int = 12,
                    seed: int = 0) -> float:
    """The median length in minutes of ``games`` seeded games in ``mode`` ("" for a game
    without modes), at the game's default options otherwise."""
    options = {"mode": mode} if mode else {}
    return statistics.median(game_minutes(entry, options, players, seed + index)
                             for index in range(games))
