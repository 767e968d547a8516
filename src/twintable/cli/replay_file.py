"""Reading a replay file a person gives ``twintable replay``: outside input, so every
way it can be wrong (unreadable, truncated, not a replay, a move the rules refuse) is
said in one line rather than a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from twintable.core.errors import TwinTableError, in_words
from twintable.core.registry import default_registry
from twintable.core.replay import Replay


class BadReplayFile(ValueError):
    """A replay file that cannot be replayed, with the reason in one line."""


def checked_replay(path: Path) -> tuple[Replay, Any]:
    """The replay at ``path`` and its game, every move replayed once; anything wrong with
    the file (it is outside input) is a :class:`BadReplayFile` saying it in one line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise BadReplayFile(f"cannot read {path}: {reason}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        if error.pos >= len(text.rstrip()) - 1 or error.msg.startswith("Unterminated"):
            raise BadReplayFile(f"{path} is truncated: it stops before the end of the replay "
                        f"(line {error.lineno}, column {error.colno})") from None
        raise BadReplayFile(f"{path} is not a replay: {error}") from None
    if not isinstance(data, dict):
        raise BadReplayFile(f"{path} is not a replay: no replay object in it")
    if not isinstance(data.get("actions"), list):
        raise BadReplayFile(f"{path} is not a replay: its 'actions' are not a list of moves")
    for number, item in enumerate(data["actions"], start=1):
        if not (isinstance(item, dict) and isinstance(item.get("seat"), int)
                and isinstance(item.get("kind"), str)
                and isinstance(item.get("payload", {}), dict)):
            raise BadReplayFile(f"{path}: move {number} is not a move (a seat, a kind, a payload)")
    try:
        saved = Replay.from_json(data)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise BadReplayFile(f"{path} is not a replay: {type(error).__name__} {error}") from None
    try:
        game = default_registry().get(saved.game)
        game.check_players(saved.players, game.resolve_options(saved.options))
    except (KeyError, ValueError, TwinTableError) as error:
        raise BadReplayFile(f"{path}: {in_words(error)}") from None
    done = -1
    try:
        for done, _ in enumerate(saved.steps(game)):  # noqa: B007 (read after the loop)
            pass
    except TwinTableError as error:
        if done < 0:
            raise BadReplayFile(f"{path}: the game cannot be set up: {in_words(error)}") from None
        raise BadReplayFile(f"{path}: move {done + 1} ({_move_text(saved.actions[done])}) is "
                    f"refused: {in_words(error)}") from None
    except Exception as error:  # the engine on input no table ever sent it
        where = "the set-up" if done < 0 else f"move {done + 1}"
        raise BadReplayFile(f"{path}: {where} cannot be replayed: {type(error).__name__} "
                    f"{error}") from None
    return saved, game


def _move_text(action: Any) -> str:
    return f"seat {action.seat} {action.kind} {json.dumps(action.payload)}"
