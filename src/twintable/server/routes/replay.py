"""Replays of finished games: the log, and every step as it was seen."""

from __future__ import annotations

import gzip
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from twintable.core.types import events_for
from twintable.server.routes import ERRORS, Authorization, LobbyDep, TableKey

router = APIRouter()


@router.get("/api/tables/{table_id}/replay", responses=ERRORS)
async def replay(table_id: str, lobby: LobbyDep, key: TableKey = None,
                 authorization: Authorization = None) -> dict[str, Any]:
    await lobby.opened_table(table_id, key, authorization)
    return (await lobby.server.stored_replay(table_id)).to_json()


@router.get("/api/tables/{table_id}/replay/views", responses=ERRORS,
            response_model=list[dict[str, Any]])
async def replay_views(table_id: str, request: Request, lobby: LobbyDep,
                       every_seat: bool = False, key: TableKey = None,
                       authorization: Authorization = None) -> Any:
    """Every step of a finished game as spectators saw it, for the replay viewer;
    ``every_seat=true`` adds ``views``, each seat's own view of the step (its hand).

    Only a finished game has a replay (409 before), so nothing here is secret any
    more; the seats' views still come from the game's view function, without their
    ``legal`` moves: nothing is left to play. Sent gzipped when the client takes it:
    a long game's views repeat themselves (6 MB of JSON for 800 moves of Timo with
    four seats, 0.1 MB gzipped)."""
    await lobby.opened_table(table_id, key, authorization)
    stored = await lobby.server.stored_replay(table_id)
    game = lobby.registry.get(stored.game)
    steps = []
    for action, events, state in stored.steps(game):
        step: dict[str, Any] = {
            "action": action.to_json() if action is not None else None,
            "events": [e.to_json() for e in events_for(events, None)],
            "view": game.view(state, None).to_json()}
        if every_seat:
            step["views"] = [{**game.view(state, seat).to_json(), "legal": []}
                             for seat in range(stored.players)]
        steps.append(step)
    if "gzip" not in request.headers.get("accept-encoding", "").lower():
        return steps
    body = json.dumps(steps, ensure_ascii=False, allow_nan=False,
                      separators=(",", ":")).encode()
    return Response(gzip.compress(body, compresslevel=5), media_type="application/json",
                    headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
