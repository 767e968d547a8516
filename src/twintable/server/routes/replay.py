"""Replays of finished games: the log, and every step as it was seen, whole or a page at
a time (the replay viewer draws the first page's first frame while it fetches the rest)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import islice
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from twintable.core.game import Game
from twintable.core.replay import Replay
from twintable.core.types import events_for
from twintable.server.address_groups import client_group
from twintable.server.chat import line_of
from twintable.server.errors import LobbyError
from twintable.server.protocol import (
    REPLAY_PAGE_DEFAULT,
    REPLAY_PAGE_MAX,
    ReplayChat,
    ReplayPage,
)
from twintable.server.replay_cache import Encoded
from twintable.server.routes import ERRORS, Authorization, LobbyDep, TableKey

router = APIRouter()

#: Whether to add each seat's own view of a step (every hand) to the spectators' one.
EverySeat = Annotated[bool, Query(description="Add `views`, each seat's own view of the step.")]
#: A page of a replay: its first step (0 is the deal, n follows move n) and its length.
FirstStep = Annotated[int, Query(alias="from", ge=0, le=10_000_000,
                                 description="The first step: 0 is the deal, n follows move n.")]
PageSize = Annotated[int, Query(ge=1, le=REPLAY_PAGE_MAX, description="How many steps, at most.")]


@router.get("/api/tables/{table_id}/replay", responses=ERRORS)
async def replay(table_id: str, lobby: LobbyDep, key: TableKey = None,
                 authorization: Authorization = None) -> dict[str, Any]:
    await lobby.opened_table(table_id, key, authorization)
    return (await lobby.server.stored_replay(table_id)).to_json()


def replay_steps(game: Game[Any], stored: Replay, every_seat: bool,
                 start: int = 0, stop: int | None = None) -> Iterator[dict[str, Any]]:
    """Steps ``start`` to ``stop - 1`` as the replay viewer reads them. The engine replays
    every move up to ``stop`` (cheap: a move costs a few microseconds), but only the
    window's steps go through the view function, which is the cost (each seat's view of
    each step, then its JSON).

    Only a finished game has a replay, so nothing here is secret any more; the seats'
    views still come from the game's view function, without their ``legal`` moves:
    nothing is left to play."""
    for action, events, state in islice(stored.steps(game), start, stop):
        step: dict[str, Any] = {
            "action": action.to_json() if action is not None else None,
            "events": [e.to_json() for e in events_for(events, None)],
            "view": game.view(state, None).to_json()}
        if every_seat:
            step["views"] = [{**game.view(state, seat).to_json(), "legal": []}
                             for seat in range(stored.players)]
        yield step


def answer(request: Request, made: Encoded) -> Response:
    """The answer's JSON, gzipped for a client that takes it: a long game's views repeat
    themselves (6 MB of JSON for 800 moves of Timo with four seats, 0.1 MB gzipped)."""
    if "gzip" in request.headers.get("accept-encoding", "").lower():
        return Response(made.gzipped, media_type="application/json",
                        headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
    return Response(made.plain, media_type="application/json",
                    headers={"Vary": "Accept-Encoding"})


@router.get("/api/tables/{table_id}/replay/views", responses=ERRORS,
            response_model=list[dict[str, Any]])
async def replay_views(table_id: str, request: Request, lobby: LobbyDep,
                       every_seat: EverySeat = False, key: TableKey = None,
                       authorization: Authorization = None) -> Any:
    """Every step of a finished game as spectators saw it, all at once;
    ``every_seat=true`` adds ``views``, each seat's own view of the step (its hand).
    The replay viewer reads ``/replay/steps`` instead, a page at a time. Made once, off
    the event loop, and kept (``server/replay_cache.py``)."""
    await lobby.opened_table(table_id, key, authorization)

    async def prepare() -> Callable[[], Any]:
        stored = await lobby.server.stored_replay(table_id)
        game = lobby.registry.get(stored.game)
        return lambda: list(replay_steps(game, stored, every_seat))

    return answer(request, await lobby.replays.get(
        (table_id, "views", every_seat), prepare, client_group(request)))


@router.get("/api/tables/{table_id}/replay/steps", responses=ERRORS,
            response_model=ReplayPage)
async def replay_page(
        table_id: str, request: Request, lobby: LobbyDep,
        start: FirstStep = 0, count: PageSize = REPLAY_PAGE_DEFAULT,
        every_seat: EverySeat = False, key: TableKey = None,
        authorization: Authorization = None) -> Any:
    """Steps ``from`` to ``from + count - 1`` of a finished game (fewer at the end), the
    same steps ``/replay/views`` answers, and ``moves``, the game's number of moves (its
    last step). A page past the end is refused (422 ``replay.past_end``)."""
    await lobby.opened_table(table_id, key, authorization)

    async def prepare() -> Callable[[], Any]:
        stored = await lobby.server.stored_replay(table_id)
        moves = len(stored.actions)
        if start > moves:
            raise LobbyError(422, "replay.past_end",
                             f"from={start} is past the last step: the game has {moves} "
                             "moves")
        game = lobby.registry.get(stored.game)
        return lambda: ReplayPage(start=start, moves=moves, steps=list(replay_steps(
            game, stored, every_seat, start, start + count))).model_dump(mode="json",
                                                                          by_alias=True)

    return answer(request, await lobby.replays.get(
        (table_id, "steps", start, count, every_seat), prepare, client_group(request)))


@router.get("/api/tables/{table_id}/replay/chat", responses=ERRORS, response_model=ReplayChat)
async def replay_chat(table_id: str, lobby: LobbyDep, key: TableKey = None,
                      authorization: Authorization = None) -> ReplayChat:
    """A finished game's talk, both channels, oldest first; each line's ``seq`` is the
    replay step it was said at (the moves made by then). Opened, like the replay, only
    once the game is over."""
    await lobby.opened_table(table_id, key, authorization)
    loaded = await lobby.store.load_table(table_id)
    if loaded is None:
        raise LobbyError(404, "table.unknown", "no such table")
    if loaded[0].status != "finished":
        raise LobbyError(409, "table.not_finished", "replays open when the game is over")
    return ReplayChat(lines=[line_of(row) for row in await lobby.store.load_chat(table_id)])
