"""Health and figures: liveness, readiness (database, Redis, not shutting down) and the
Prometheus metrics, which are this machine's business only unless the operator says
otherwise (``serve --public-metrics``, ``--metrics-from``): they tell how busy the server
is and when it drains, which helps an attacker time a flood."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from twintable.server.cluster import ClusterUnavailable
from twintable.server.instrumentation import Networks, as_address
from twintable.server.protocol import ErrorMessage
from twintable.server.routes import LobbyDep

router = APIRouter()


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz", responses={503: {"model": ErrorMessage}})
async def readyz(lobby: LobbyDep) -> JSONResponse:
    server, store = lobby.server, lobby.store
    try:
        await asyncio.wait_for(store.ping(), 2.0)
    except Exception:
        return JSONResponse(ErrorMessage(code="storage.down", message="no database")
                            .model_dump(), status_code=503)
    if server.host.cluster is not None:
        try:
            await asyncio.wait_for(server.host.cluster.ping(), 2.0)
        except (ClusterUnavailable, TimeoutError):
            return JSONResponse(ErrorMessage(code="cluster.down", message="no Redis")
                                .model_dump(), status_code=503)
    if not server.accepting:
        return JSONResponse(ErrorMessage(code="server.stopping", message="shutting down")
                            .model_dump(), status_code=503)
    return JSONResponse({"status": "ready", "tables": len(server.tables)})


#: Headers a proxy adds to a request it forwards: a request that carries one came through
#: a proxy, from wherever, even when the proxy runs on this machine.
FORWARDED_HEADERS = ("x-forwarded-for", "forwarded", "x-real-ip")


def may_read_metrics(request: Request, public: bool, allowed: list[str]) -> bool:
    """Whether ``request`` may read the metrics: anyone's when ``public``; else a
    request from this machine that no proxy forwarded, or one from ``allowed``. The
    client is the one uvicorn believes (a trusted proxy's X-Forwarded-For)."""
    if public:
        return True
    host = request.client.host if request.client else None
    if host in Networks(allowed):
        return True
    address = as_address(host)
    return (address is not None and address.is_loopback
            and not any(name in request.headers for name in FORWARDED_HEADERS))


@router.get("/metrics", response_class=Response, responses={403: {"model": ErrorMessage}})
async def metrics_endpoint(request: Request, lobby: LobbyDep) -> Response:
    settings = lobby.server.settings
    if not may_read_metrics(request, settings.public_metrics, settings.metrics_from):
        return JSONResponse(ErrorMessage(
            code="metrics.private",
            message="metrics are served to this machine only (serve --metrics-from, "
                    "--public-metrics)").model_dump(), status_code=403)
    return Response(lobby.server.metrics.render(), media_type="text/plain; version=0.0.4")
