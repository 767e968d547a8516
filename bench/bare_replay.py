"""The bare stack for bench/server_timo.py's ``--baseline bare``: FastAPI on uvicorn (the
same uvloop, httptools and WebSocket implementation as ``twintable serve``) replaying
frames captured from a real server, with no game and no storage.

Every table plays the one captured game. A hello's token names its seat; the seat gets
its captured welcome and snapshot. A move from the seat that made the script's next move,
against the script's current version, is acknowledged and the script's event frames for
that move go to every seat of the table (one ``send_text`` each, as the server does);
any other move is refused the way the server refuses a stale one. So the clients, which
react only to frames, play the same moves and receive the same bytes as from the server,
and what this stack costs is the floor a server can reach in Python: the HTTP and
WebSocket layers, reading one JSON message and writing the frames.

Usage (run by server_timo.py): python bench/bare_replay.py PORT SCRIPT.json
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

import orjson
import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect


class Script:
    """One captured game: per seat its welcome and snapshot, per move (seq) the seat that
    made it, the version it was made against and after it, and every seat's event frame."""

    def __init__(self, data: dict[str, Any]):
        self.welcome: list[str] = data["welcome"]
        self.snapshot: list[str] = data["snapshot"]
        self.moves: list[tuple[int, int, int]] = [tuple(m) for m in data["moves"]]
        self.frames: list[list[str]] = data["frames"]  # [seq - 1][seat]


class BareTable:
    def __init__(self, seats: int):
        self.sockets: list[WebSocket | None] = [None] * seats
        self.seq = 0
        self.tokens = 0


def build_app(script: Script) -> FastAPI:
    app = FastAPI()
    tables: dict[str, BareTable] = {}
    seats = len(script.welcome)

    @app.get("/readyz")
    async def ready() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/api/tables")
    async def create() -> dict[str, Any]:
        table_id = f"bare{len(tables):06d}"
        table = tables[table_id] = BareTable(seats)
        table.tokens = 1
        return {"table": {"id": table_id}, "token": f"{table_id}.0"}

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str) -> dict[str, Any]:
        table = tables[table_id]
        table.tokens += 1
        return {"table": {"id": table_id}, "token": f"{table_id}.{table.tokens - 1}"}

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: str) -> dict[str, str]:
        return {"status": "running"}

    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        table = tables[table_id]
        hello = orjson.loads(await websocket.receive_text())
        seat = int(hello["token"].rsplit(".", 1)[1])
        table.sockets[seat] = websocket
        await websocket.send_text(script.welcome[seat])
        await websocket.send_text(script.snapshot[seat])
        try:
            while True:
                message = orjson.loads(await websocket.receive_text())
                client_id = message.get("id")
                if table.seq < len(script.moves):
                    mover, before, after = script.moves[table.seq]
                else:
                    mover, before, after = -1, -1, -1
                if mover != seat or message.get("version") != before:
                    await websocket.send_text(orjson.dumps({
                        "type": "error", "id": client_id, "code": "action.stale",
                        "message": "the game has moved on; act on the new state",
                        "details": {"version": before}}).decode())
                    continue
                table.seq += 1
                frames = script.frames[table.seq - 1]
                # The server's order: the broadcast, then the mover's ack.
                for viewer, other in enumerate(table.sockets):
                    if other is not None:
                        await other.send_text(frames[viewer])
                await websocket.send_text(orjson.dumps({
                    "type": "ack", "id": client_id, "seq": table.seq,
                    "version": after}).decode())
        except WebSocketDisconnect:
            table.sockets[seat] = None

    return app


def main() -> None:
    port, path = int(sys.argv[1]), sys.argv[2]
    app = build_app(Script(orjson.loads(Path(path).read_bytes())))
    # As ``twintable serve`` does (server/app.py: tune_collector_for_serving).
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning",
                ws_max_size=20 * 1024, timeout_keep_alive=5)


if __name__ == "__main__":
    main()
