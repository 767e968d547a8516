"""The table WebSocket: a client's socket to its table, wherever the table runs (here,
on another worker through the relay, or finished and read back from the database)."""

from __future__ import annotations

import asyncio
from typing import cast

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from redis.exceptions import RedisError

from twintable.server.address_groups import client_group
from twintable.server.errors import LobbyError
from twintable.server.guards import Allowance, hello_deadline
from twintable.server.limits import BadJson, bounded_json
from twintable.server.lobby import Lobby
from twintable.server.protocol import ErrorMessage, Welcome
from twintable.server.relay import Relay
from twintable.server.routes import LobbyDep
from twintable.server.session import SocketSession
from twintable.server.settings import Settings
from twintable.server.tables import Table

router = APIRouter()


async def finished_hello_admits(websocket: WebSocket, table: Table,
                                settings: Settings) -> bool:
    """Whether the first frame on a finished private table's socket is a hello with
    its invite key or one of its seats' tokens (a public one needs no hello)."""
    try:
        frame = await asyncio.wait_for(websocket.receive_text(),
                                       timeout=settings.send_timeout_s)
        hello = bounded_json(frame[:settings.max_frame_bytes])
    except (TimeoutError, WebSocketDisconnect, BadJson, KeyError):
        return False
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        return False
    key, token = hello.get("key"), hello.get("token")
    return ((isinstance(key, str) and table.seating.admits(key))
            or (isinstance(token, str) and table.seating.seat_for_token(token) is not None))


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str, lobby: LobbyDep) -> None:
    address = client_group(websocket)
    addresses = lobby.addresses
    ident = await addresses.open(address)
    if ident is None:
        await websocket.close(code=1008, reason="too many connections")
        return
    try:
        await counted_socket(websocket, table_id, lobby, addresses.allowance(address))
    except WebSocketDisconnect:
        pass  # the client left before an answer (a refusal, a finished table's welcome)
    finally:
        addresses.close(address, ident)


async def counted_socket(websocket: WebSocket, table_id: str, lobby: Lobby,
                         shared: Allowance) -> None:
    """One socket counted among its address's; ``shared``: the message allowance of
    every socket of that address."""
    server, store, settings = lobby.server, lobby.store, lobby.settings
    await websocket.accept()
    table = server.tables.get(table_id)
    if table is None and server.accepting and server.host.cluster is not None:
        try:
            found = await server.locate(table_id)
        except (LobbyError, RedisError, OSError):
            await websocket.send_text(ErrorMessage(
                code="server.unavailable",
                message="the server running this table cannot be reached; "
                        "reconnect in a moment").model_dump_json())
            await websocket.close(code=1013)  # try again later
            return
        if isinstance(found, str):
            relay = cast(Relay, websocket.app.state.relay)
            await relay.redirect_or_forward(websocket, found, table_id, shared)
            return
        table = found
    if table is None and server.accepting:
        # A finished table has left memory: its players still get the result.
        loaded = await store.load_table(table_id)
        if loaded is not None and loaded[0].status == "finished":
            finished = Table(server, *loaded)
            if (finished.seating.private
                    and not await finished_hello_admits(websocket, finished, settings)):
                await websocket.send_text(ErrorMessage(
                    code="table.private",
                    message="this table is private: use its invite link").model_dump_json())
                await websocket.close(code=4403)
                return
            await websocket.send_text(
                Welcome(table=finished.listing.info(), seat=None).model_dump_json())
            await websocket.close(code=1000)
            return
    if not server.accepting:
        # Stopping (a drain, a restart): the table may well be alive elsewhere or after
        # the restart, so this is no 4404; the client tries again (at the shared address,
        # where another worker answers).
        await websocket.send_text(ErrorMessage(
            code="server.stopping",
            message="this server is restarting; reconnect in a moment").model_dump_json())
        await websocket.close(code=1012)
        return
    if table is None:
        await websocket.send_text(ErrorMessage(code="table.unknown",
                                               message="no such table").model_dump_json())
        await websocket.close(code=4404)
        return
    session = SocketSession(websocket, table, settings, shared)
    try:
        async with hello_deadline(websocket, lambda: session.connection is not None,
                                  settings.hello_timeout_s):
            await session.run()
    except WebSocketDisconnect:
        pass
    finally:
        await session.close()
