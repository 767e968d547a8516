"""Health and figures: liveness, readiness (database, Redis, not shutting down) and the
Prometheus metrics."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from twintable.server.cluster import ClusterUnavailable
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


@router.get("/metrics", response_class=Response)
async def metrics_endpoint(lobby: LobbyDep) -> Response:
    server = lobby.server
    statuses = [table.status for table in server.tables.values()]
    connections = sum(len(table.presence.connections) for table in server.tables.values())
    return Response(server.metrics.render(statuses, connections),
                    media_type="text/plain; version=0.0.4")
