"""Guided first games at the server: a table asked for with ``tutorial`` is made from the
game's declared deal (``GameEntry.tutorial``, ``core/tutorial.py``) rather than from the
request, private (nobody else needs to see a lesson) and unrated (no profile is seated).

Nothing here knows any game: the seed, seats, bot and options are the game's.
"""

from __future__ import annotations

from twintable.core.plugin import GameEntry
from twintable.core.registry import GameRegistry
from twintable.core.tutorial import Tutorial
from twintable.server.errors import LobbyError
from twintable.server.protocol import CreateTable, SeatRequest


def declared(entry: GameEntry) -> Tutorial:
    """The game's guided game, or the refusal when it has none that can run here."""
    guided = entry.tutorial() if entry.tutorial is not None else None
    if guided is None or not guided.bot.available():
        raise LobbyError(422, "tutorial.none", f"{entry.rules.name} has no guided game here")
    return guided


def guided_seed(entry: GameEntry) -> int:
    """The seed of the game's guided deal: the same lesson for everyone."""
    return declared(entry).seed


def guided_request(request: CreateTable, registry: GameRegistry) -> CreateTable:
    """``request`` (a table asked for with ``tutorial``) as the game declares its guided
    game: its players, options and bots, the asker in seat 0, private, no profile."""
    if request.game not in registry:
        return request  # the usual refusal of an unknown game follows
    guided = declared(registry.entry(request.game))
    seats = [SeatRequest(kind="human"),
             *(SeatRequest(kind="bot", bot=guided.bot.name) for _ in range(guided.players - 1))]
    return request.model_copy(update={
        "players": guided.players, "options": dict(guided.options), "seats": seats,
        "private": True, "turn_limit_s": None, "player_id": None, "player_secret": None})
