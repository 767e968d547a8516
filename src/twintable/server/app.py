"""The ASGI application: lobby routes, the table WebSocket, health and metrics.

Routes stay thin: they validate input with the protocol's pydantic models and hand over
to :class:`~twintable.server.tables.GameServer`.

With several workers (``settings.redis_url``) a request about a table runs on the worker
that owns it: lobby requests as calls over the worker bus, a WebSocket client's frames
forwarded there and back (``server/cluster.py``), so clients see one server.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, cast

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from redis.exceptions import RedisError

from twintable.bots.registry import bot_factories
from twintable.core.errors import RuleError
from twintable.core.types import events_for
from twintable.games import default_registry
from twintable.server import logs
from twintable.server.cluster import ClusterUnavailable, RemoteSocket
from twintable.server.guards import (
    AddressBook,
    Allowance,
    ForwardGuard,
    TableQuota,
    TooManyTables,
    hello_deadline,
    unfinished_by,
    unfinished_by_address,
)
from twintable.server.limits import (
    BadJson,
    EdgeMiddleware,
    bounded_json,
    readable_id,
    request_host,
)
from twintable.server.metrics import Metrics
from twintable.server.moves import check_version, checked_payload
from twintable.server.own_port import OwnPort
from twintable.server.protocol import (
    PROTOCOL_VERSION,
    ActionMessage,
    CreateProfile,
    CreateTable,
    ErrorMessage,
    GameInfo,
    Hello,
    Joined,
    JoinTable,
    LeaderboardRow,
    Moved,
    Ping,
    Pong,
    Profile,
    RenameProfile,
    SeatBot,
    TableInfo,
    Welcome,
    client_message,
)
from twintable.server.ratings import conservative
from twintable.server.rules_pages import rules_page
from twintable.server.settings import Settings, settings_from_env
from twintable.server.storage.ownership import claim_sqlite, release_sqlite
from twintable.server.storage.store import Store
from twintable.server.tables import (
    MOVED_CLOSE_CODE,
    Connection,
    GameServer,
    LobbyError,
    Table,
    hash_token,
    new_token,
)
from twintable.server.transport import server_options

log = logging.getLogger("twintable.server")

#: The browser client: static files shipped inside the package, nothing to build.
WEB = Path(__file__).resolve().parent.parent / "web"

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorMessage} for code in (401, 403, 404, 409, 422)}


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    registry = default_registry()
    metrics = Metrics()
    store = Store(settings.db_url)
    server = GameServer(store, registry, settings, metrics)
    addresses = AddressBook(settings)
    quota = TableQuota(settings.max_open_tables_per_client,
                       lambda address: len(unfinished_by(server.tables, address)),
                       server.cluster)

    #: Several workers: clients of other workers served here (by connection id), and
    #: this worker's clients served by others.
    remotes: dict[str, RemoteSocket] = {}
    proxies: dict[str, asyncio.Queue[tuple[str, str] | None]] = {}
    background: set[asyncio.Task[Any]] = set()

    def in_background(work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        background.add(task)
        task.add_done_callback(background.discard)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if settings.clustered and store.engine.dialect.name != "postgresql":
            raise RuntimeError("several workers need PostgreSQL: give --db postgresql://...")
        claim_sqlite(settings.db_url)  # DatabaseBusy if another server runs on this file
        logs.redact_server_logs()  # uvicorn has configured its loggers by now
        own_port: OwnPort | None = None
        try:
            await store.migrate()
            if server.cluster is not None:
                server.cluster.on_message = on_bus_message
                server.cluster.on_reset = on_bus_reset
                server.cluster.made_by = lambda: unfinished_by_address(server.tables)
                in_background(watch_peers())
                if settings.worker_ports:
                    first, last = settings.worker_ports
                    own_port = OwnPort(app, settings.worker_host, first, last,
                                       ws_compression=settings.ws_compression,
                                       options=server_options(settings))
                    if (port := await own_port.start()) is not None:
                        server.cluster.address = f":{port}"
                if settings.advertise_url:
                    server.cluster.address = settings.advertise_url.rstrip("/")
            await server.recover()
            yield
            await server.shutdown()
            if own_port is not None:
                await own_port.stop()
            for task in list(background):
                task.cancel()
            await server.leases.close()
            await store.close()
        finally:
            release_sqlite(settings.db_url)

    app = FastAPI(title="Twin Table", version="1", lifespan=lifespan,
                  docs_url="/docs" if settings.api_docs else None,
                  redoc_url="/redoc" if settings.api_docs else None)
    app.state.server = server
    app.add_middleware(EdgeMiddleware, max_body_bytes=settings.max_body_bytes,
                       worker_ports=settings.worker_ports)

    @app.exception_handler(LobbyError)
    async def lobby_error(_: Request, error: LobbyError) -> JSONResponse:
        return JSONResponse(ErrorMessage(code=error.code, message=error.message).model_dump(),
                            status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, error: RequestValidationError) -> JSONResponse:
        """Bad input gets the same error shape as every other refusal (the declared 422),
        with pydantic's findings under ``details``."""
        problems = [{"loc": [str(part) for part in item.get("loc", ())],
                     "msg": str(item.get("msg", "")), "type": str(item.get("type", ""))}
                    for item in error.errors()]
        first = problems[0] if problems else {"loc": [], "msg": "invalid request"}
        message = f"{'.'.join(first['loc'][1:]) or 'request'}: {first['msg']}"
        return JSONResponse(ErrorMessage(code="request.invalid", message=message,
                                         details={"errors": problems}).model_dump(),
                            status_code=422)

    def bearer(authorization: str | None) -> str | None:
        if authorization and authorization.lower().startswith("bearer "):
            return authorization[7:].strip()
        return None

    def joined(table: Table, seat: int, token: str, key: str | None = None) -> Joined:
        """The answer to a create or join; a private table's link carries its secret."""
        key = key if table.private else None
        invite = f"{settings.public_url}/?table={table.id}" + (f"&key={key}" if key else "")
        return Joined(table=table.info(), seat=seat, token=token, invite=invite, key=key)

    def players_by_mode(game: Any) -> dict[str, list[int]] | None:
        mode = game.options_schema.options.get("mode")
        if mode is None or mode.kind != "choice":
            return None
        return {str(choice): list(game.player_range({"mode": choice}))
                for choice in mode.choices}

    def _default_bot(game_id: str) -> str:
        if game_id not in registry:
            return "random"
        game = registry.get(game_id)
        return game.default_bot if game.default_bot in bot_factories(game) else "random"

    # -- health and figures ---------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def root() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz", responses={503: {"model": ErrorMessage}})
    async def readyz() -> JSONResponse:
        try:
            await asyncio.wait_for(store.ping(), 2.0)
        except Exception:
            return JSONResponse(ErrorMessage(code="storage.down", message="no database")
                                .model_dump(), status_code=503)
        if server.cluster is not None:
            try:
                await asyncio.wait_for(server.cluster.ping(), 2.0)
            except (ClusterUnavailable, TimeoutError):
                return JSONResponse(ErrorMessage(code="cluster.down", message="no Redis")
                                    .model_dump(), status_code=503)
        if not server.accepting:
            return JSONResponse(ErrorMessage(code="server.stopping", message="shutting down")
                                .model_dump(), status_code=503)
        return JSONResponse({"status": "ready", "tables": len(server.tables)})

    @app.get("/metrics", response_class=Response)
    async def metrics_endpoint() -> Response:
        statuses = [table.status for table in server.tables.values()]
        connections = sum(len(table.connections) for table in server.tables.values())
        return Response(metrics.render(statuses, connections),
                        media_type="text/plain; version=0.0.4")

    # -- games and the lobby --------------------------------------------------------
    @app.get("/api/games")
    async def games() -> list[GameInfo]:
        return [GameInfo(id=g.id, name=g.name, min_players=g.min_players,
                         max_players=g.max_players, options=g.options_schema.to_json(),
                         bots=sorted(bot_factories(g)),
                         default_bot=_default_bot(g.id),
                         players_by_mode=players_by_mode(g)) for g in registry]

    @app.post("/api/tables", status_code=201, responses=ERRORS)
    async def create_table(request: CreateTable, http: Request) -> Joined:
        client = http.client.host if http.client else "unknown"
        reservation = None
        if server.cluster is not None and server.accepting:
            # Several workers: the table is made on the one running the fewest.
            try:
                placed = await server.cluster.place()
                if placed.worker is None:
                    reservation = placed.reservation
                else:
                    answer = await server.cluster.call(placed.worker, "create", "", {
                        "request": request.model_dump(mode="json"), "client": client,
                        "reservation": placed.reservation})
                    if "error" in answer:
                        raise LobbyError(**answer["error"])
                    return Joined.model_validate(answer["ok"])
            except (RedisError, OSError, TimeoutError):
                pass  # that worker cannot be asked now: the table is made here
        return await create_placed(request, client, reservation)

    async def create_placed(request: CreateTable, client: str,
                            reservation: str | None) -> Joined:
        """A table made here, its placement's reservation turned into this worker's count
        (or dropped, when it could not be made)."""
        if reservation is None or server.cluster is None:
            return await create_here(request, client)
        try:
            made = await create_here(request, client)
        except BaseException:
            server.cluster.not_made(reservation)
            raise
        server.cluster.made(reservation)
        return made

    async def create_here(request: CreateTable, client: str) -> Joined:
        if not server.accepting:
            raise LobbyError(503, "server.stopping", "the server is shutting down")
        server.check_capacity(client)
        try:
            async with quota.place(client) as made:
                joined_table = await create_counted(request, client)
                made(joined_table.table.id)
                return joined_table
        except TooManyTables as refused:
            raise LobbyError(429, "tables.too_many",
                             f"you already have {refused.held} unfinished tables") from None

    async def create_counted(request: CreateTable, client: str) -> Joined:
        await server.check_profile(request.player_id, request.player_secret)
        kinds: list[tuple[str, str | None]] = (
            [(s.kind, s.bot) for s in request.seats] if request.seats is not None
            else [("human", None)]
            + [("bot", _default_bot(request.game))] * (request.players - 1))
        key = new_token() if request.private else None  # 192 random bits
        table, seat, token = await server.create(
            request.game, request.players, request.options, kinds, request.name,
            request.display_name, request.player_id, request.turn_limit_s, request.grace_s,
            invite_hash=hash_token(key) if key else None)
        table.created_by = client
        return joined(table, seat, token, key)

    # -- profiles: who is rated ------------------------------------------------------
    @app.post("/api/profiles", status_code=201, responses=ERRORS)
    async def create_profile(request: CreateProfile) -> Profile:
        player_id, secret = await server.create_profile(request.display_name)
        return Profile(player_id=player_id, display_name=request.display_name, secret=secret)

    @app.get("/api/profiles/{player_id}", responses=ERRORS)
    async def profile(player_id: str) -> Profile:
        row = await store.profile(player_id)
        if row is None:
            raise LobbyError(404, "profile.unknown", "no such profile")
        return Profile(player_id=row.id, display_name=row.display_name)

    @app.put("/api/profiles/{player_id}", responses=ERRORS)
    async def rename_profile(player_id: str, request: RenameProfile,
                             authorization: Annotated[str | None, Header()] = None) -> Profile:
        """A new name, everywhere the profile is listed; only with the profile's secret."""
        await server.check_profile(player_id, bearer(authorization))
        await store.rename_profile(player_id, request.display_name)
        return Profile(player_id=player_id, display_name=request.display_name)

    @app.get("/api/tables")
    async def list_tables(status: str = "open", limit: int = 50,
                          offset: int = 0) -> list[TableInfo]:
        """Public tables in play on this server, newest first, a page at a time (at most
        100): open ones to join by default, ``status=running`` to watch. Private tables
        are never listed."""
        limit, offset = max(1, min(limit, 100)), max(0, offset)
        if server.cluster is not None:  # every worker's tables, from the shared lobby
            try:
                page = await server.cluster.listed(status, offset, limit)
            except (RedisError, OSError):
                raise LobbyError(503, "server.unavailable",
                                 "the lobby cannot be read just now; retry") from None
            return [TableInfo.model_validate_json(info) for info in page]
        chosen = [table for table in server.tables.values()
                  if table.status == status and not table.private]
        chosen.sort(key=lambda table: table.row.created_ms, reverse=True)
        return [table.info() for table in chosen[offset:offset + limit]]

    async def opened_table(table_id: str, key: str | None,
                           authorization: str | None) -> Table:
        """The table, in memory or finished, for someone allowed to see it: anyone for a
        public table; for a private one, whoever has its invite key or a seat's token."""
        table = server.tables.get(table_id)
        if table is None:
            loaded = await store.load_table(table_id)
            if loaded is None:
                raise LobbyError(404, "table.unknown", "no such table")
            table = Table(server, *loaded)
        if not table.admits(key) and table.seat_for_token(bearer(authorization)) is None:
            raise LobbyError(403, "table.private", "this table is private: use its invite link")
        return table

    @app.get("/api/tables/{table_id}", responses=ERRORS)
    async def table_info(table_id: str, key: TableKey = None,
                         authorization: Annotated[str | None, Header()] = None) -> TableInfo:
        table = await opened_table(table_id, key, authorization)
        if table_id not in server.tables and server.cluster is not None:
            with contextlib.suppress(RedisError, OSError):  # else: the database's word
                if info := await server.cluster.info(table_id):
                    return TableInfo.model_validate_json(info)  # live, from its worker
        return table.info()

    async def table_op(table: Table, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """One lobby request about a table this worker runs; its answer as JSON data."""
        if op == "join":
            if not table.admits(args["key"]):
                raise LobbyError(403, "table.private",
                                 "this table is private: use its invite link")
            await server.check_profile(args["player_id"], args["player_secret"])
            seat, token = await table.join(args["display_name"], args["player_id"],
                                           args["seat"])
            return joined(table, seat, token, args["key"]).model_dump(mode="json")
        if op == "leave":
            leaving = table.seat_for_token(args["token"])
            if leaving is None:
                raise LobbyError(401, "auth.invalid", "a seat token is needed")
            await table.leave(leaving)
            return {}
        if op == "rematch":
            player = table.seat_for_token(args["token"])
            if player is None:
                raise LobbyError(401, "auth.invalid", "a seat token of this table is needed")
            new, token = await server.rematch(table, player)
            return joined(new, player, token).model_dump(mode="json")
        if not table.is_creator(args["token"]):
            raise LobbyError(403, "auth.not_creator", "only the table's creator may do that")
        if op == "start":
            await table.start()
        elif op == "bot":
            if args["seat"] == table.creator_seat:
                raise LobbyError(409, "seat.creator", "that seat is the creator's")
            await table.set_bot(args["seat"], args["bot"])
        else:
            raise LobbyError(400, "request.unknown", f"no such request: {op}")
        return table.info().model_dump(mode="json")

    async def on_owner(table_id: str, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run ``op`` where the table runs: here, or on the worker that owns it."""
        if server.cluster is None:
            table = await server.load(table_id) if op == "rematch" else server.get(table_id)
            return await table_op(table, op, args)
        try:
            found = await server.locate(table_id)
            if found is None:
                raise LobbyError(404, "table.unknown", "no such table")
            if isinstance(found, Table):
                return await table_op(found, op, args)
            answer = await server.cluster.call(found, op, table_id, args)
        except (RedisError, OSError, TimeoutError):
            raise LobbyError(503, "server.unavailable",
                             "the server running this table cannot be reached; retry") from None
        if "error" in answer:
            raise LobbyError(**answer["error"])
        return answer["ok"]  # type: ignore[no-any-return]

    async def answer_call(peer: str, call_id: str, body: str) -> None:
        request = json.loads(body)
        table = server.tables.get(request["table"])
        try:
            if request["op"] == "create":
                args = request["args"]
                made = await create_placed(CreateTable.model_validate(args["request"]),
                                           args["client"], args.get("reservation"))
                result: dict[str, Any] = {"ok": made.model_dump(mode="json")}
            elif table is None:
                raise LobbyError(503, "table.moving", "the table moved to another server; retry")
            else:
                result = {"ok": await table_op(table, request["op"], request["args"])}
        except LobbyError as error:
            result = {"error": {"status": error.status, "code": error.code,
                                "message": error.message}}
        except Exception:
            log.exception("a request from another worker failed")
            result = {"error": {"status": 500, "code": "server.error",
                                "message": "the request failed"}}
        assert server.cluster is not None
        server.cluster.answer(peer, call_id, result)

    @app.post("/api/tables/{table_id}/join", responses=ERRORS)
    async def join(table_id: str, request: JoinTable) -> Joined:
        return Joined.model_validate(await on_owner(table_id, "join", {
            "key": request.key, "player_id": request.player_id,
            "player_secret": request.player_secret, "display_name": request.display_name,
            "seat": request.seat}))

    @app.post("/api/tables/{table_id}/leave", status_code=204, responses=ERRORS)
    async def leave(table_id: str,
                    authorization: Annotated[str | None, Header()] = None) -> Response:
        await on_owner(table_id, "leave", {"token": bearer(authorization)})
        return Response(status_code=204)

    @app.post("/api/tables/{table_id}/start", responses=ERRORS)
    async def start(table_id: str,
                    authorization: Annotated[str | None, Header()] = None) -> TableInfo:
        return TableInfo.model_validate(
            await on_owner(table_id, "start", {"token": bearer(authorization)}))

    @app.put("/api/tables/{table_id}/seats/{seat}/bot", responses=ERRORS)
    async def put_bot(table_id: str, seat: int, request: SeatBot,
                      authorization: Annotated[str | None, Header()] = None) -> TableInfo:
        return TableInfo.model_validate(await on_owner(table_id, "bot", {
            "token": bearer(authorization), "seat": seat, "bot": request.bot}))

    @app.delete("/api/tables/{table_id}/seats/{seat}", responses=ERRORS)
    async def clear_seat(table_id: str, seat: int,
                         authorization: Annotated[str | None, Header()] = None) -> TableInfo:
        return TableInfo.model_validate(await on_owner(table_id, "bot", {
            "token": bearer(authorization), "seat": seat, "bot": None}))

    @app.post("/api/tables/{table_id}/rematch", responses=ERRORS)
    async def rematch(table_id: str,
                      authorization: Annotated[str | None, Header()] = None) -> Joined:
        """Play again: a player of this finished table gets a seat at its rematch (the same
        seats, options and bots); the first call makes the table, the others join it."""
        return Joined.model_validate(
            await on_owner(table_id, "rematch", {"token": bearer(authorization)}))

    @app.get("/api/tables/{table_id}/replay", responses=ERRORS)
    async def replay(table_id: str, key: TableKey = None,
                     authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        await opened_table(table_id, key, authorization)
        return (await server.stored_replay(table_id)).to_json()

    @app.get("/api/tables/{table_id}/replay/views", responses=ERRORS,
             response_model=list[dict[str, Any]])
    async def replay_views(table_id: str, request: Request, every_seat: bool = False,
                           key: TableKey = None,
                           authorization: Annotated[str | None, Header()] = None) -> Any:
        """Every step of a finished game as spectators saw it, for the replay viewer;
        ``every_seat=true`` adds ``views``, each seat's own view of the step (its hand).

        Only a finished game has a replay (409 before), so nothing here is secret any
        more; the seats' views still come from the game's view function, without their
        ``legal`` moves: nothing is left to play. Sent gzipped when the client takes it:
        a long game's views repeat themselves (6 MB of JSON for 800 moves of Timo with
        four seats, 0.1 MB gzipped)."""
        await opened_table(table_id, key, authorization)
        stored = await server.stored_replay(table_id)
        game = registry.get(stored.game)
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

    @app.get("/api/games/{game_id}/rules", responses=ERRORS)
    async def rules(game_id: str, lang: str = "en") -> dict[str, Any]:
        """The game's rules page for players as HTML, in ``lang`` (else English)."""
        if game_id not in registry:
            raise LobbyError(404, "game.unknown", "no such game")
        return rules_page(registry.get(game_id), lang).to_json()

    @app.get("/api/games/{game_id}/assets", responses=ERRORS)
    async def assets(game_id: str) -> dict[str, Any]:
        """Whatever a client needs to draw the game (Twin It: the SVG of every picture)."""
        if game_id not in registry:
            raise LobbyError(404, "game.unknown", "no such game")
        return registry.get(game_id).assets()

    @app.get("/api/leaderboard/{game_id}", responses=ERRORS)
    async def leaderboard(
            game_id: str, limit: int = 50,
            player: Annotated[str | None, Query(max_length=64)] = None,
    ) -> list[LeaderboardRow]:
        """The best rated players of a game, best first, each with its rank (equal ratings
        share one); ``player``: that player's row comes last too when it is not among
        them (nothing is added for a player without a rating in this game)."""
        if game_id not in registry:
            raise LobbyError(404, "game.unknown", "no such game")
        rows = await store.leaderboard(game_id, max(1, min(limit, 500)))
        ranked: list[LeaderboardRow] = []
        for r in rows:
            rating = conservative(r.mu, r.sigma)
            rank = (ranked[-1].rank if ranked and ranked[-1].rating == rating
                    else len(ranked) + 1)
            ranked.append(LeaderboardRow(player_id=r.player_id, display_name=r.display_name,
                                         rating=rating, mu=r.mu, sigma=r.sigma,
                                         games=r.games, rank=rank))
        if player is not None and all(row.player_id != player for row in ranked):
            place = await store.leaderboard_place(game_id, player)
            if place is not None:
                rank, r = place
                ranked.append(LeaderboardRow(
                    player_id=r.player_id, display_name=r.display_name,
                    rating=conservative(r.mu, r.sigma), mu=r.mu, sigma=r.sigma,
                    games=r.games, rank=rank))
        return ranked

    # -- the table WebSocket --------------------------------------------------------
    async def finished_hello_admits(websocket: WebSocket, table: Table) -> bool:
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
        return ((isinstance(key, str) and table.admits(key))
                or (isinstance(token, str) and table.seat_for_token(token) is not None))

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        address = websocket.client.host if websocket.client else "unknown"
        if not addresses.open(address):
            await websocket.close(code=1008, reason="too many connections")
            return
        try:
            await counted_socket(websocket, table_id, addresses.allowance(address))
        finally:
            addresses.close(address)

    async def counted_socket(websocket: WebSocket, table_id: str, shared: Allowance) -> None:
        await websocket.accept()
        table = server.tables.get(table_id)
        if table is None and server.accepting and server.cluster is not None:
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
                await redirect_or_forward(websocket, found, table_id, shared)
                return
            table = found
        if table is None and server.accepting:
            # A finished table has left memory: its players still get the result.
            loaded = await store.load_table(table_id)
            if loaded is not None and loaded[0].status == "finished":
                finished = Table(server, *loaded)
                if finished.private and not await finished_hello_admits(websocket, finished):
                    await websocket.send_text(ErrorMessage(
                        code="table.private",
                        message="this table is private: use its invite link").model_dump_json())
                    await websocket.close(code=4403)
                    return
                await websocket.send_text(
                    Welcome(table=finished.info(), seat=None).model_dump_json())
                await websocket.close(code=1000)
                return
        if table is None or not server.accepting:
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

    # -- several workers: clients sent to the table's owner, or served through it ---
    async def redirect_or_forward(websocket: WebSocket, owner: str, table_id: str,
                                  shared: Allowance) -> None:
        """A client whose table runs on worker ``owner``: a hello that follows redirects
        is answered ``moved`` with the owner's own address; any other client is served
        through the owner (its hello goes there first)."""
        try:
            first = await asyncio.wait_for(websocket.receive_text(),
                                           timeout=settings.send_timeout_s)
        except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
            with contextlib.suppress(RuntimeError):
                await websocket.close(code=1000)
            return
        if follows_redirects(first[:settings.max_frame_bytes]):
            with contextlib.suppress(RedisError, OSError):
                if (url := await owner_url(websocket, owner, table_id)) is not None:
                    await websocket.send_text(Moved(url=url).model_dump_json())
                    await websocket.close(code=MOVED_CLOSE_CODE)
                    return
        await forward(websocket, owner, table_id, first, shared)

    def follows_redirects(frame: str) -> bool:
        try:
            return Hello.model_validate(bounded_json(frame)).redirects
        except (BadJson, ValidationError):
            return False  # the table's worker answers what is wrong with it

    async def owner_url(websocket: WebSocket, owner: str, table_id: str) -> str | None:
        """The table's socket at its owner's own address, if the owner has one."""
        assert server.cluster is not None
        address = await server.cluster.address_of(owner)
        if address is None:
            return None
        if address.startswith((":", "/")):
            # ":port": a port of its own on the host this client reached; "/path": a
            # proxy's path to it on the very address this client reached.
            host_header = websocket.headers.get("host", "")
            host = request_host(host_header)
            if host is None:
                return None
            if address.startswith("/"):
                host = host_header.strip()
            scheme = "wss" if websocket.url.scheme in ("wss", "https") else "ws"
            address = f"{scheme}://{host}{address}"
        query = f"?{websocket.url.query}" if websocket.url.query else ""
        return f"{address}/ws/tables/{table_id}{query}"

    async def forward(websocket: WebSocket, owner: str, table_id: str, first: str,
                      shared: Allowance) -> None:
        """Serve a client whose table runs on worker ``owner``: its frames (``first``,
        then the rest) go there, the owner's come back, until either side closes or the
        owner changes."""
        cluster = server.cluster
        assert cluster is not None
        ident = secrets.token_hex(8)
        inbox: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue()
        proxies[ident] = inbox
        client = websocket.client.host if websocket.client else "unknown"
        guard = ForwardGuard(settings, shared=shared)
        cluster.send(owner, "o", ident, json.dumps({"table": table_id,
                                                    "from": cluster.worker_id,
                                                    "client": client}))

        async def pass_on(text: str) -> bool:
            """Checked here before anything is published; False: the client is closed."""
            onward, answer = guard.check(text)
            if onward is not None:
                cluster.send(owner, "f", ident, onward)
            if answer is not None:
                await websocket.send_text(answer.model_dump_json())
            if guard.abusive:
                await websocket.close(code=1008, reason="too many bad messages")
                return False
            return True

        async def to_client() -> None:
            while (item := await inbox.get()) is not None:
                kind, body = item
                if kind == "c":
                    await websocket.close(code=int(body))
                    return
                guard.answered(body)
                await websocket.send_text(body)
            await websocket.close(code=MOVED_CLOSE_CODE)

        async def watch_owner() -> None:
            while True:
                await asyncio.sleep(settings.lease_ttl_ms / 2000)
                with contextlib.suppress(RedisError, OSError):
                    if await cluster.owner(table_id) != owner:
                        inbox.put_nowait(None)
                        return

        tasks = [asyncio.create_task(to_client()), asyncio.create_task(watch_owner())]
        try:
            async with hello_deadline(websocket, lambda: guard.welcomed,
                                      settings.hello_timeout_s):
                if not await pass_on(first):
                    return
                while True:
                    frame = await websocket.receive()
                    if frame["type"] == "websocket.disconnect":
                        break
                    text = frame.get("text")
                    if text is None and frame.get("bytes") is not None:
                        text = frame["bytes"].decode("utf-8", "replace")
                    if not await pass_on(text or ""):
                        break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            proxies.pop(ident, None)
            cluster.send(owner, "c", ident, "1000")
            for task in tasks:
                task.cancel()

    async def serve_remote(socket: RemoteSocket, table: Table) -> None:
        session = SocketSession(cast(WebSocket, socket), table, settings)
        try:
            await session.run()
        finally:
            await session.close()
            remotes.pop(socket.ident, None)
            await socket.close(code=1000)

    def on_bus_message(kind: str, ident: str, body: str) -> None:
        cluster = server.cluster
        assert cluster is not None
        if kind == "f":
            if (remote := remotes.get(ident)) is not None:
                remote.deliver(body)
            elif (proxy := proxies.get(ident)) is not None:
                proxy.put_nowait(("f", body))
        elif kind == "c":
            if (remote := remotes.pop(ident, None)) is not None:
                remote.gone()
            elif (proxy := proxies.get(ident)) is not None:
                proxy.put_nowait(("c", body))
        elif kind == "o":
            opened = json.loads(body)
            table = server.tables.get(opened["table"])
            if table is None or not server.accepting:
                cluster.send(opened["from"], "c", ident, str(MOVED_CLOSE_CODE))
                return
            socket = RemoteSocket(cluster, opened["from"], ident, opened["client"])
            remotes[ident] = socket
            in_background(serve_remote(socket, table))
        elif kind == "r":
            in_background(answer_call(json.loads(body)["from"], ident, body))

    def on_bus_reset(reason: str) -> None:
        """Messages may have been lost: every forwarded client reconnects and resumes."""
        metrics.bus_resets.labels(reason=reason).inc()
        for remote in list(remotes.values()):
            remote.gone()
        remotes.clear()
        for proxy in proxies.values():
            proxy.put_nowait(None)

    async def watch_peers() -> None:
        """Clients forwarded by a worker that died are gone too (they reconnect)."""
        cluster = server.cluster
        assert cluster is not None
        while True:
            await asyncio.sleep(settings.lease_ttl_ms / 1000)
            for peer in {remote.peer for remote in remotes.values()}:
                with contextlib.suppress(RedisError, OSError):
                    if not await cluster.alive(peer):
                        for ident, remote in list(remotes.items()):
                            if remote.peer == peer:
                                remotes.pop(ident, None)
                                remote.gone()

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app


def create_app_from_env() -> FastAPI:
    """The application of one ``serve --workers`` process (uvicorn imports this factory
    in each worker): settings from the environment."""
    logs.configure(os.environ.get("TWINTABLE_LOG_LEVEL", "info"))
    tune_collector_for_serving()
    return create_app(settings_from_env())


def tune_collector_for_serving() -> None:
    """Keep the cycle collector's pauses short under load (bench/server_timo.py's p99):
    what is loaded by now lives as long as the process, and moves in flight live for
    milliseconds, so freeze the one and enlarge the young generation for the other."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


#: A private table's invite key, asked for by the pages that show the table.
TableKey = Annotated[str | None, Query(max_length=128, description="A private table's invite key.")]


class SocketSession:
    """One client's conversation: hello first, then actions, each answered."""

    def __init__(self, websocket: WebSocket, table: Table, settings: Settings,
                 shared: Allowance | None = None):
        self.websocket = websocket
        self.shared = shared
        """The allowance every socket of this client's address draws from too."""
        self.table = table
        self.settings = settings
        self.connection: Connection | None = None
        self.allowance = float(settings.message_burst)
        self.checked = time.monotonic()
        self.refused_in_a_row = 0

    async def run(self) -> None:
        while True:
            frame = await self.websocket.receive()
            if frame["type"] == "websocket.disconnect":
                return
            text = frame.get("text")
            if text is None and frame.get("bytes") is not None:
                text = frame["bytes"].decode("utf-8", "replace")
            answer = await self.handle(text or "")
            if answer is not None:
                if isinstance(answer, ErrorMessage):
                    self.refused_in_a_row += 1
                else:
                    self.refused_in_a_row = 0
                await self.send(answer)
            if self.refused_in_a_row >= self.settings.abuse_limit:
                await self.websocket.close(code=1008, reason="too many bad messages")
                return

    async def send(self, message: Any) -> None:
        text = message if isinstance(message, str) else message.model_dump_json()
        if self.connection is not None:
            self.connection.send(text)  # keeps answers in order with broadcasts
        else:
            await self.websocket.send_text(text)

    def _rate_ok(self) -> bool:
        now = time.monotonic()
        rate, burst = self.settings.messages_per_second, self.settings.message_burst
        self.allowance = min(burst, self.allowance + (now - self.checked) * rate)
        self.checked = now
        if self.allowance < 1 or (self.shared is not None and not self.shared.take()):
            return False
        self.allowance -= 1
        return True

    async def handle(self, text: str) -> Any:
        if len(text.encode()) > self.settings.max_frame_bytes:
            return ErrorMessage(code="message.too_large",
                                message=f"frames are limited to {self.settings.max_frame_bytes}"
                                        " bytes")
        rate_ok = self._rate_ok()
        refused: BadJson | None = None
        try:
            data = bounded_json(text)
        except BadJson as error:
            data, refused = None, error
        # Parsed first so that a refusal can name the action it refuses.
        client_id = (data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str)
                     else None)
        if not rate_ok:
            return ErrorMessage(id=client_id, code="rate.limited",
                                message="too many messages; slow down")
        if refused is not None:
            code = "message.invalid_json" if refused.code == "json.invalid" else refused.code
            return ErrorMessage(id=readable_id(text), code=code, message=refused.message)
        if not isinstance(data, dict) or data.get("type") not in ("hello", "action", "ping"):
            return ErrorMessage(code="message.unknown_type",
                                message="expected a message of type hello, action or ping")
        try:
            message = client_message.validate_python(data)
        except ValidationError as error:
            first = error.errors()[0]
            return ErrorMessage(id=client_id, code="message.invalid",
                                message=f"{'.'.join(map(str, first['loc']))}: {first['msg']}")
        if isinstance(message, Ping):
            return Pong()
        if isinstance(message, Hello):
            return self.hello(message)
        return await self.act(message)

    def hello(self, message: Hello) -> Any:
        if self.connection is not None:
            return ErrorMessage(code="hello.repeated", message="already greeted")
        if message.protocol != PROTOCOL_VERSION:
            return ErrorMessage(code="protocol.unsupported",
                                message=f"this server speaks protocol {PROTOCOL_VERSION}",
                                details={"protocol": PROTOCOL_VERSION})
        seat = self.table.seat_for_token(message.token)
        if message.token is not None and seat is None:
            return ErrorMessage(code="auth.invalid", message="that token holds no seat here")
        if seat is None and not self.table.admits(message.key):
            return ErrorMessage(code="table.private",
                                message="this table is private: use its invite link")
        self.connection = self.table.connect(self.websocket, seat)
        self.connection.send(Welcome(table=self.table.info(), seat=seat).model_dump_json())
        self.table.catch_up(self.connection)
        return None

    async def act(self, message: ActionMessage) -> Any:
        if self.connection is None:
            return ErrorMessage(id=message.id, code="auth.required",
                                message="send hello with your seat token first")
        seat = self.connection.seat
        if seat is None:
            return ErrorMessage(id=message.id, code="auth.spectator",
                                message="spectators cannot act")
        if message.table is not None and message.table != self.table.id:
            return ErrorMessage(id=message.id, code="auth.wrong_table",
                                message="this connection is for another table")
        if message.seat is not None and message.seat != seat:
            return ErrorMessage(id=message.id, code="auth.wrong_seat",
                                message="your token holds another seat")
        try:
            payload = checked_payload(self.table.game, message.kind, message.payload)
            check_version(self.table.game, message.kind, message.version)
        except RuleError as error:
            return ErrorMessage(id=message.id, code=error.code, message=error.message,
                                details=error.details)
        # Shielded: a dropped connection or a shutdown must not cut a move in half
        # (written to the log but not applied, or applied but not answered).
        return await asyncio.shield(self.table.submit(seat, message.kind, payload,
                                                      message.id, message.version))

    async def close(self) -> None:
        if self.connection is not None:
            await self.table.disconnect(self.connection)
