"""A bot's move inside an environment: the bot is offered only what its seat is asked.

An environment may ask a seat less than the rules would let it do at a table: ``timo_v0``
asks the seat on turn first whether it catches a player who forgot TIMO! (catch or
wait), and only then for its turn move. A bot reads the rules' legal moves from its view,
so it is handed a view whose ``legal`` holds only the moves the seat's action mask allows
now, and a move outside them is reported as that bot's fault
(:class:`~twintable.envs.errors.OpponentMoveError`), never as the learner's.

In a race on the clock (``game.realtime``) a bot acts when the table engine says so
(:func:`timed_move`): its plan is the engine's next step and falls due by the tick.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

from twintable.bots.base import Bot
from twintable.core.schedule import EventKind, Plan
from twintable.core.table_engine import next_step
from twintable.core.types import Action
from twintable.envs.errors import OpponentMoveError


def index_allowed(raw: Any, action: Action, mask: npt.NDArray[Any]) -> bool | None:
    """Whether ``mask`` allows ``action`` (None: the action space cannot name it, as a
    Twinz word outside the vocabulary, so the environment judges it when played)."""
    try:
        index = int(raw.index_of(action))
    except (KeyError, ValueError):
        return None
    return 0 <= index < len(mask) and bool(mask[index])


def asked_view(raw: Any, view: Any, mask: npt.NDArray[Any]) -> Any:
    """``view`` with ``legal`` narrowed to the moves ``mask`` allows (the same view when
    it allows them all, or when the view cannot be rebuilt with other moves)."""
    legal = getattr(view, "legal", None)
    rebuild = getattr(view, "_replace", None)
    if legal is None or rebuild is None:
        return view
    allowed = tuple(action for action in legal
                    if index_allowed(raw, action, mask) is not False)
    return view if len(allowed) == len(legal) else rebuild(legal=allowed)


def turn_move(raw: Any, agent: str, bot: Bot, mask: npt.NDArray[Any],
              rng: random.Random) -> Action | None:
    """The bot's move for ``agent`` in a turn-based game (None: it waits), chosen from
    what the environment asks of the seat now; raises :class:`OpponentMoveError` if the
    bot picks anything else."""
    seat = raw.seat(agent)
    view = asked_view(raw, raw.game.view(raw.state, seat), mask)
    if not view.legal:
        return None
    action = bot.act(view, rng)
    if action is not None and index_allowed(raw, action, mask) is False:
        allowed = np.flatnonzero(mask).tolist()
        raise OpponentMoveError(
            f"the {bot.name} bot playing {agent} chose {action.kind} "
            f"{dict(action.payload)} (index {raw.index_of(action)}), which the environment "
            f"does not allow now (allowed indices: {allowed}); the bot is at fault, not "
            "the learner")
    return action


__all__ = ["asked_view", "index_allowed", "turn_move"]


def timed_move(raw: Any, entry: Any, seat: int, bot: Bot, view: Any,
               rng: random.Random) -> Action | None:
    """The bot's move for ``seat`` at this tick of a race on the clock (``raw.now_ms``),
    or None: it waits. The table engine decides (:func:`~twintable.core.table_engine.
    next_step`): the bot's plan (:meth:`GameEntry.plan`; a bot that plans no time acts
    now) against the game's timer, and the plan acts if it is the next step and falls
    due by now (a clock that ticks acts at the first tick at or after the planned
    moment)."""
    now = raw.now_ms
    if hasattr(bot, "plan"):
        planned = entry.plan(bot, view, rng, now)
    else:
        action = bot.act(view, rng)
        planned = None if action is None else (now, action)
    plans = () if planned is None else (Plan(planned[0], seat, planned[1]),)
    step = next_step(raw.game, raw.state, now, plans)
    if step is None or step.kind is not EventKind.BOT or step.at_ms > now:
        return None
    return step.action
