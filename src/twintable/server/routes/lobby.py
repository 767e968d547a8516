"""The lobby: tables to make, list, look at, join, leave, start, seat bots at, and play
again. Every change runs where the table runs (the lobby facade sees to it)."""

from __future__ import annotations

import contextlib

from fastapi import APIRouter, Request
from fastapi.responses import Response
from redis.exceptions import RedisError

from twintable.server.address_groups import client_group
from twintable.server.bus import ConcedeCall, LeaveCall, SeatBotCall, StartCall
from twintable.server.lobby import bearer
from twintable.server.protocol import CreateTable, Joined, JoinTable, SeatBot, TableInfo
from twintable.server.routes import ERRORS, Authorization, LobbyDep, TableKey
from twintable.server.seating import digest

router = APIRouter()


@router.post("/api/tables", status_code=201, responses=ERRORS)
async def create_table(request: CreateTable, http: Request, lobby: LobbyDep) -> Joined:
    return await lobby.create(request, client_group(http))


@router.get("/api/tables")
async def list_tables(lobby: LobbyDep, status: str = "open", limit: int = 50,
                      offset: int = 0) -> list[TableInfo]:
    """Public tables in play on this server, newest first, a page at a time (at most
    100): open ones to join by default, ``status=running`` to watch. Private tables
    are never listed."""
    server = lobby.server
    limit, offset = max(1, min(limit, 100)), max(0, offset)
    if server.host.cluster is not None:  # every worker's tables, from the shared lobby
        # Redis out of reach: 503 cluster.down (server/outages.py), as /readyz says.
        page = await server.host.cluster.listed(status, offset, limit)
        return [TableInfo.model_validate_json(info) for info in page]
    chosen = [table for table in server.tables.values()
              if table.status == status and not table.seating.private]
    chosen.sort(key=lambda table: table.row.created_ms, reverse=True)
    return [table.listing.info() for table in chosen[offset:offset + limit]]


@router.get("/api/tables/{table_id}", responses=ERRORS)
async def table_info(table_id: str, lobby: LobbyDep, key: TableKey = None,
                     authorization: Authorization = None) -> TableInfo:
    server = lobby.server
    table = await lobby.opened_table(table_id, key, authorization)
    if table_id not in server.tables and server.host.cluster is not None:
        with contextlib.suppress(RedisError, OSError):  # else: the database's word
            if info := await server.host.cluster.info(table_id):
                return TableInfo.model_validate_json(info)  # live, from its worker
    return table.listing.info()


@router.post("/api/tables/{table_id}/join", responses=ERRORS)
async def join(table_id: str, request: JoinTable, http: Request,
               lobby: LobbyDep) -> Joined:
    return await lobby.join(table_id, request, client_group(http))


@router.post("/api/tables/{table_id}/leave", status_code=204, responses=ERRORS)
async def leave(table_id: str, lobby: LobbyDep,
                authorization: Authorization = None) -> Response:
    await lobby.on_owner(LeaveCall(table=table_id, token_hash=digest(bearer(authorization))))
    return Response(status_code=204)


@router.post("/api/tables/{table_id}/concede", responses=ERRORS)
async def concede(table_id: str, lobby: LobbyDep,
                  authorization: Authorization = None) -> TableInfo:
    """Give the game up (the seat's token): a stand-in plays the seat to the end and the
    game counts as a loss for its person; everyone at the table sees it."""
    return TableInfo.model_validate(await lobby.on_owner(ConcedeCall(
        table=table_id, token_hash=digest(bearer(authorization)))))


@router.post("/api/tables/{table_id}/start", responses=ERRORS)
async def start(table_id: str, lobby: LobbyDep,
                authorization: Authorization = None) -> TableInfo:
    return TableInfo.model_validate(
        await lobby.on_owner(StartCall(table=table_id,
                                       token_hash=digest(bearer(authorization)))))


@router.put("/api/tables/{table_id}/seats/{seat}/bot", responses=ERRORS)
async def put_bot(table_id: str, seat: int, request: SeatBot, lobby: LobbyDep,
                  authorization: Authorization = None) -> TableInfo:
    return TableInfo.model_validate(await lobby.on_owner(SeatBotCall(
        table=table_id, token_hash=digest(bearer(authorization)), seat=seat, bot=request.bot)))


@router.delete("/api/tables/{table_id}/seats/{seat}", responses=ERRORS)
async def clear_seat(table_id: str, seat: int, lobby: LobbyDep,
                     authorization: Authorization = None) -> TableInfo:
    return TableInfo.model_validate(await lobby.on_owner(SeatBotCall(
        table=table_id, token_hash=digest(bearer(authorization)), seat=seat, bot=None)))


@router.post("/api/tables/{table_id}/rematch", responses=ERRORS)
async def rematch(table_id: str, http: Request, lobby: LobbyDep,
                  authorization: Authorization = None) -> Joined:
    """Play again: a player of this finished table gets a seat at its rematch (the same
    seats, options and bots); the first call makes the table, the others join it."""
    client = client_group(http)
    return await lobby.rematch(table_id, authorization, client)
