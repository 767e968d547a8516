"""The HTTP and WebSocket routes, one router per part of the API (health, games, lobby,
profiles, replay, leaderboard, socket). Routes stay thin: they validate input with the
protocol's pydantic models and hand over to the lobby facade (``server/lobby.py``),
which they get from the application's state."""

from __future__ import annotations

from typing import Annotated, Any, cast

from fastapi import Depends, Header, Query
from starlette.requests import HTTPConnection

from twintable.server.lobby import Lobby
from twintable.server.protocol import ErrorMessage

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorMessage} for code in (401, 403, 404, 409, 422, 503)}


def lobby_of(connection: HTTPConnection) -> Lobby:
    return cast(Lobby, connection.app.state.lobby)


#: The lobby facade of the application serving the request.
LobbyDep = Annotated[Lobby, Depends(lobby_of)]
#: A private table's invite key, asked for by the pages that show the table.
TableKey = Annotated[str | None, Query(max_length=128, description="A private table's invite key.")]
#: The ``Authorization`` header: ``Bearer <seat token or profile secret>``.
Authorization = Annotated[str | None, Header()]
