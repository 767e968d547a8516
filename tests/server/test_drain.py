"""One server's stop (``GameServer.drain`` at SIGTERM): its players are told to come
back (close 1012, never "unknown table"), it exits at once, and after a restart the same
seats play the game on from the log."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path

import httpx2
import websockets

from tests.server.client import app_client, create_table, free_port, running_server, start


def test_a_stopping_server_sends_its_players_back_and_they_resume(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'drain.sqlite3'}"
    port = free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"

    async def seated_until_closed(table_id: str, token: str) -> tuple[int, int]:
        """The version seen last and the close code the server sent."""
        async with websockets.connect(f"{ws_base}/ws/tables/{table_id}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            version = 0
            with_version = ("welcome", "snapshot", "event")
            async for text in ws:
                frame = json.loads(text)
                if frame["type"] in with_version and "version" in frame:
                    version = frame["version"]
                if frame["type"] == "snapshot":
                    break
            stopping.set()
            try:  # a bot may still move before the stop: the last version seen counts
                async for text in ws:
                    frame = json.loads(text)
                    if frame["type"] in with_version and "version" in frame:
                        version = frame["version"]
            except websockets.ConnectionClosed:
                pass
            assert ws.close_code is not None
            return version, ws.close_code

    stopping = asyncio.Event()
    with running_server(db, port, log=tmp_path / "first.log") as server:
        made = httpx2.post(f"{base}/api/tables", json={
            "game": "timo", "players": 2, "display_name": "Ann", "grace_s": 600}).json()
        table_id, token = made["table"]["id"], made["token"]
        assert httpx2.post(f"{base}/api/tables/{table_id}/start",
                           headers={"Authorization": f"Bearer {token}"}).status_code == 200

        async def stop_when_seated() -> tuple[tuple[int, int], float]:
            watching = asyncio.create_task(seated_until_closed(table_id, token))
            await stopping.wait()
            asked = time.monotonic()
            server.send_signal(signal.SIGTERM)
            seen = await asyncio.wait_for(watching, 20)
            while server.poll() is None:
                await asyncio.sleep(0.05)
            return seen, time.monotonic() - asked

        (version, code), took = asyncio.run(stop_when_seated())
        assert code == 1012  # come back: the game is not over
        assert took < 10, took  # the drain's bound; an idle stop takes well under 1 s
    log = (tmp_path / "first.log").read_text()
    assert '"message": "drained"' in log, log[-2000:]

    with running_server(db, port):  # the same seat resumes where the game was
        async def resume() -> dict[str, object]:
            async with websockets.connect(f"{ws_base}/ws/tables/{table_id}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if frame["type"] == "snapshot":
                        return frame  # type: ignore[no-any-return]

        snapshot = asyncio.run(resume())
        assert snapshot["version"] == version


def test_a_stopping_server_never_calls_a_live_table_unknown(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        made = create_table(client, "timo", 2)
        start(client, made["table"]["id"], made["token"])
        client.app.state.server.accepting = False  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/tables/{made['table']['id']}") as ws:
            frame = ws.receive_json()
            assert frame["code"] == "server.stopping", frame
            closed = ws.receive()
            assert closed["code"] == 1012, closed
