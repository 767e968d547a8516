"""The ASGI application: its parts put together.

``create_app`` makes the game server on the table host the settings pick
(:func:`host_for`: ``server/hosting.py``), the lobby facade over it (``server/lobby.py``:
where a table runs) and, with several workers, the relay of the cluster bus
(``server/relay.py``), then mounts the routers (``server/routes/``: health, games,
lobby, profiles, replay, leaderboard, socket) and the browser client. Every HTTP
request is given an id and counted by route (``server/instrumentation.py``).
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from twintable.core.registry import default_registry
from twintable.server import logs
from twintable.server.assets import (
    GZIP_MIN_BYTES,
    VersionedAssets,
    client_files,
    index_page,
    service_worker,
)
from twintable.server.catalog import client_folders, client_version, mount_game_clients
from twintable.server.errors import LobbyError
from twintable.server.game_server import GameServer
from twintable.server.guards import unfinished_by_address
from twintable.server.hosting import LocalHost, TableHost
from twintable.server.instrumentation import RequestFigures
from twintable.server.limits import EdgeMiddleware
from twintable.server.lobby import Lobby
from twintable.server.metrics import Metrics
from twintable.server.openapi_limits import describe_input_limits
from twintable.server.outages import OUTAGE_ERRORS, service_out_of_reach
from twintable.server.own_port import OwnPort
from twintable.server.protocol import ErrorMessage
from twintable.server.public import worker_sockets, worker_url
from twintable.server.redis_host import RedisHost
from twintable.server.relay import Relay
from twintable.server.routes import games, health, leaderboard, lobby, profiles, replay, socket
from twintable.server.settings import Settings, settings_from_env
from twintable.server.storage.ownership import claim_sqlite, release_sqlite
from twintable.server.storage.store import Store
from twintable.server.supervisor import on_drain
from twintable.server.transport import limit_connections, server_options

log = logging.getLogger("twintable.server")

#: The browser client: static files shipped inside the package, nothing to build.
WEB = Path(__file__).resolve().parent.parent / "web"


def host_for(settings: Settings, store: Store, metrics: Metrics) -> TableHost:
    """The table host the settings ask for: workers sharing the tables through Redis with
    ``redis_url``, this process alone otherwise."""
    if settings.redis_url is not None:
        return RedisHost(store, settings, metrics)
    return LocalHost(store)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    limit_connections(settings)
    metrics = Metrics()
    store = Store(settings.db_url, metrics.db)
    server = GameServer(store, default_registry(), settings, metrics,
                        host_for(settings, store, metrics))
    facade = Lobby(server, settings)
    relay = Relay(facade)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if settings.clustered and store.engine.dialect.name != "postgresql":
            raise RuntimeError("several workers need PostgreSQL: give --db postgresql://...")
        claim_sqlite(settings.db_url)  # DatabaseBusy if another server runs on this file
        logs.redact_server_logs()  # uvicorn has configured its loggers by now
        own_port: OwnPort | None = None
        try:
            await store.migrate()
            cluster = server.host.cluster
            if cluster is not None:
                relay.start()
                cluster.made_by = lambda: unfinished_by_address(server.tables)
                own: int | None = None
                if settings.worker_ports:
                    first, last = settings.worker_ports
                    own_port = OwnPort(app, settings.worker_host, first, last,
                                       ws_compression=settings.ws_compression,
                                       options=server_options(settings))
                    own = await own_port.start()
                # From the configuration only, never from a request (server/public.py).
                cluster.address = worker_url(settings.public_url, settings.advertise_url,
                                             own)
                if cluster.address is None and (own or settings.advertise_url):
                    log.warning("no public address (serve --public-url): clients of this "
                                "worker's tables are served through Redis")
            await server.recover()

            async def drain(within_s: float) -> None:
                if own_port is not None:
                    own_port.stop_listening()
                await server.drain(within_s)

            forget_drain = on_drain(drain)
            started = time.monotonic()
            log.info("worker started", extra={
                "pid": os.getpid(), "worker": metrics.worker,
                "address": server.host.address,
                "public_url": settings.public_url})
            try:
                yield
            finally:
                forget_drain()
            await server.shutdown()
            if own_port is not None:
                await own_port.stop()
            relay.stop()
            await store.close()
            log.info("worker stopped", extra={"pid": os.getpid(), "worker": metrics.worker,
                                              "up_s": round(time.monotonic() - started, 1)})
        finally:
            release_sqlite(settings.db_url)

    app = FastAPI(title="Twin Table", version="1", lifespan=lifespan,
                  docs_url="/docs" if settings.api_docs else None,
                  redoc_url="/redoc" if settings.api_docs else None)
    app.state.server, app.state.lobby, app.state.relay = server, facade, relay
    assets_version = client_version(server.registry)
    app.state.assets_version = assets_version
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MIN_BYTES)
    app.add_middleware(VersionedAssets, version=assets_version)
    app.add_middleware(EdgeMiddleware, max_body_bytes=settings.max_body_bytes,
                       worker_sockets=worker_sockets(settings.public_url,
                                                     settings.worker_ports))
    # Added last, so outermost: what the edge refuses is counted and carries an id too.
    app.add_middleware(RequestFigures, metrics=metrics,
                       trusted_proxies=settings.trusted_proxies)

    for outage in OUTAGE_ERRORS:
        app.add_exception_handler(outage, service_out_of_reach)

    @app.exception_handler(LobbyError)
    async def lobby_error(_: Request, error: LobbyError) -> JSONResponse:
        return JSONResponse(ErrorMessage(code=error.code, message=error.message).model_dump(),
                            status_code=error.status,
                            headers=({"Retry-After": str(error.retry_after_s)}
                                     if error.retry_after_s is not None else None))

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

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        """A wrong method is answered with the error shape and every method the path
        takes (Starlette names only the first matching route's)."""
        if error.status_code != 405:
            return await http_exception_handler(request, error)
        allowed = sorted(allowed_methods(request.app, request.url.path,
                                         (error.headers or {}).get("Allow")))
        return JSONResponse(ErrorMessage(code="method.not_allowed",
                                         message=f"{request.method} is not allowed here; "
                                                 f"use {', '.join(allowed)}").model_dump(),
                            status_code=405, headers={"Allow": ", ".join(allowed)})

    # The client's files: under this install's version, kept a year, gzipped.
    page = index_page(WEB, assets_version)

    @app.get("/", include_in_schema=False)
    async def root() -> HTMLResponse:
        return HTMLResponse(page, headers={"Cache-Control": "no-cache"})

    worker = service_worker(WEB, assets_version,
                            client_files(client_folders(server.registry), assets_version))

    @app.get("/sw.js", include_in_schema=False)
    async def shell_keeper() -> Response:
        # At the root: a service worker controls the pages under its own folder.
        return Response(worker, media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})

    for part in (health, games, lobby, profiles, replay, leaderboard, socket):
        app.include_router(part.router)
    describe_input_limits(app, server.registry.ids)
    mount_game_clients(app, server.registry)  # before /static, which it shadows there
    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app


def allowed_methods(app: FastAPI, path: str, named: str | None) -> set[str]:
    """The methods ``app``'s API takes at ``path``: those its schema lists for the paths
    that match, and ``named`` (the methods Starlette's refusal names)."""
    allowed = {method.strip() for method in (named or "").split(",") if method.strip()}
    for template, operations in app.openapi().get("paths", {}).items():
        pattern = "[^/]+".join(re.escape(part) for part in re.split(r"\{[^}]*\}", template))
        if re.fullmatch(pattern, path):
            allowed |= {method.upper() for method in operations}
    return allowed


def create_app_from_env() -> FastAPI:
    """The application of one ``serve --workers`` process (uvicorn imports this factory
    in each worker): settings from the file the environment names."""
    settings, log_level = settings_from_env()
    logs.configure(log_level)
    tune_collector_for_serving()
    return create_app(settings)


def tune_collector_for_serving() -> None:
    """Keep the cycle collector's pauses short under load (bench/server_timo.py's p99):
    what is loaded by now lives as long as the process, and moves in flight live for
    milliseconds, so freeze the one and enlarge the young generation for the other."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
