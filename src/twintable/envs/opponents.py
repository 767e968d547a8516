"""A bot's move inside an environment: the bot is offered only what its seat is asked.

An environment may ask a seat less than the rules would let it do at a table: ``timo_v0``
asks the seat on turn first whether it catches a player who forgot TIMO! (catch or
wait), and only then for its turn move. A bot reads the rules' legal moves from its view,
so it is handed a view whose ``legal`` holds only the moves the seat's action mask allows
now, and a move outside them is reported as that bot's fault
(:class:`~twintable.envs.errors.OpponentMoveError`), never as the learner's.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

from twintable.bots.base import Bot
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
