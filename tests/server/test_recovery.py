"""Recovery: tables survive a restart, and a killed server (SIGKILL) resumes every table at
exactly the acknowledged state, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
from websockets.sync.client import ClientConnection, connect

from tests.server.client import (
    Player,
    app_client,
    create_table,
    free_port,
    hello,
    play_to_end,
    running_server,
    start,
)
from tests.server.test_play import frames_match_views


def test_tables_resume_after_a_restart(db_url: str) -> None:
    with app_client(db_url) as client:
        joined = create_table(client, "timo", 3, {"target": 60},
                              seats=[{"kind": "human"}, {"kind": "bot", "bot": "search"},
                                     {"kind": "bot", "bot": "heuristic"}])
        table_id, token = joined["table"]["id"], joined["token"]
        open_table = create_table(client, "twins", 3)["table"]["id"]
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            snapshot = next(f for f in iter(ws.receive_json, None) if f["type"] == "snapshot")
        before = snapshot
    with app_client(db_url) as client:
        assert client.get(f"/api/tables/{open_table}").json()["status"] == "open"
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            after = play_to_end(ws)
        resumed = next(f for f in after if f["type"] == "snapshot")
        # Bots may have moved on before the restart; never back.
        assert resumed["seq"] >= before["seq"]
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"
        replay = client.get(f"/api/tables/{table_id}/replay").json()
    assert frames_match_views("timo", replay, [before], 0) == 1
    assert frames_match_views("timo", replay, after, 0) > 1


# -- a real server in a subprocess, killed with SIGKILL ---------------------------------
def _frames(ws: ClientConnection) -> Iterator[dict[str, Any]]:
    while True:
        yield json.loads(ws.recv(timeout=30))


def _play(ws: ClientConnection, moves: int | None) -> tuple[int, list[dict[str, Any]]]:
    """Make ``moves`` acknowledged moves (None: play to the end); return the last
    acknowledged seq and every frame."""
    player = Player(lambda message: ws.send(json.dumps(message)), limit=moves)
    frames = []
    for frame in _frames(ws):
        frames.append(frame)
        if frame["type"] == "table" and frame["table"]["status"] == "finished":
            break
        player.feed(frame)
        if moves is not None and player.acks >= moves:
            break  # the last move's ack: nothing of ours is in flight
    return player.acked_seq, frames


def _started_table(base: str, game: str, players: int, options: dict[str, Any],
                   **settings: Any) -> tuple[str, str]:
    """Create a table (seat 0 ours, bots elsewhere) on a running server and start it."""
    joined = httpx2.post(f"{base}/api/tables", json={
        "game": game, "players": players, "display_name": "Ann", "options": options,
        **settings}).json()
    table_id, token = joined["table"]["id"], joined["token"]
    httpx2.post(f"{base}/api/tables/{table_id}/start",
                headers={"Authorization": f"Bearer {token}"})
    return table_id, token


def test_a_killed_server_resumes_every_table_at_the_acknowledged_state(db_url: str) -> None:
    if db_url.startswith("sqlite"):
        db_url = db_url.replace("sqlite+aiosqlite", "sqlite")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    tables: list[dict[str, Any]] = []
    with running_server(db_url, port) as process:
        for game, players, options in [("timo", 2, {"target": 60}), ("timo", 4, {"target": 60}),
                                       ("twins", 3, {"max_hands": 2})]:
            # The person is away until the test comes back to their table, which may be
            # minutes on a loaded machine: no stand-in may finish the game meanwhile.
            table_id, token = _started_table(base, game, players, options, grace_s=3600)
            with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
                ws.send(json.dumps({"type": "hello", "token": token}))
                acked, frames = _play(ws, 3)
            tables.append({"id": table_id, "token": token, "game": game, "acked": acked,
                           "frames": frames})
        # A table with a running timer: its player never answers, so a stand-in bot plays
        # each of their moves one second after it falls due.
        timed_id, _ = _started_table(base, "timo", 2, {"target": 500}, turn_limit_s=1)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    with running_server(db_url, port):
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{timed_id}") as ws:
            ws.send(json.dumps({"type": "hello"}))
            stand_in_moves = 0
            for frame in _frames(ws):
                if frame["type"] == "event" and frame["seat"] == 0:
                    stand_in_moves += 1
                    if stand_in_moves == 2:
                        break  # the timer was re-armed after the restart
        for table in tables:
            with connect(f"ws://127.0.0.1:{port}/ws/tables/{table['id']}") as ws:
                ws.send(json.dumps({"type": "hello", "token": table["token"]}))
                _, frames = _play(ws, None)
            snapshot = next(frame for frame in frames if frame["type"] == "snapshot")
            assert snapshot["seq"] >= table["acked"]
            replay = httpx2.get(f"{base}/api/tables/{table['id']}/replay").json()
            # Every frame from before the kill and after the restart is what the log says.
            assert frames_match_views(table["game"], replay, table["frames"], 0) > 0
            assert frames_match_views(table["game"], replay, frames, 0) > 0


def test_a_stopped_server_shuts_down_cleanly_and_loses_no_acknowledged_move(
        sqlite_url: str, tmp_path: Path) -> None:
    db_url = sqlite_url.replace("sqlite+aiosqlite", "sqlite")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    with running_server(db_url, port, log) as process:
        table_id, token = _started_table(base, "timo", 3, {"target": 500})
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            acked, _ = _play(ws, 5)
            process.send_signal(signal.SIGTERM)
            # uvicorn shuts down gracefully, then exits with the signal it caught.
            assert process.wait(timeout=30) in (0, -signal.SIGTERM)
    assert "Application shutdown complete" in log.read_text()
    with running_server(db_url, port), \
            connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        snapshot = next(f for f in _frames(ws) if f["type"] == "snapshot")
        assert snapshot["seq"] >= acked
