"""Move time limits and reconnection grace: a bot stands in, and hands the seat back."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.server.client import app_client, hello, start


def create(client: TestClient, **settings: Any) -> tuple[str, str]:
    response = client.post("/api/tables", json={
        "game": "timo", "players": 2, "display_name": "Ann", "options": {"target": 500},
        **settings})
    assert response.status_code == 201, response.text
    return response.json()["table"]["id"], response.json()["token"]


def next_move_by(ws: WebSocketTestSession, seat: int, frames: int = 400) -> dict[str, Any]:
    for _ in range(frames):
        frame = ws.receive_json()
        if frame["type"] == "event" and frame["seat"] == seat:
            return frame  # type: ignore[no-any-return]
    raise AssertionError(f"seat {seat} never moved")


def test_a_stand_in_plays_when_the_move_time_runs_out(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table_id, token = create(client, turn_limit_s=1)
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            # We never answer: after a second each of our moves is played for us.
            moved = next_move_by(ws, 0)
            assert moved["kind"] in ("play", "draw", "pass", "call_timo", "catch")
        assert client.get(f"/api/tables/{table_id}").json()["turn_limit_s"] == 1


def test_an_absent_player_is_replaced_after_the_grace_period_and_gets_the_seat_back(
        sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table_id, token = create(client, grace_s=0)
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
            hello(spectator, None)
            next_move_by(spectator, 0)  # nobody holds seat 0: its stand-in plays
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            welcome = hello(ws, token)
            assert welcome["seat"] == 0
            info = client.get(f"/api/tables/{table_id}").json()
            assert info["seats"][0]["connected"] and not info["seats"][0]["stand_in"]
            # Back at the table, the game waits for us: no move of ours is made for us.
            # A stand-in move already under way when we returned may still land, so wait
            # until the table rests on our turn before watching it.
            table = client.app.state.server.tables[table_id]  # type: ignore[attr-defined]
            time.sleep(0.3)
            deadline = time.monotonic() + 10
            while table.game.to_act(table.state) != {0} and time.monotonic() < deadline:
                time.sleep(0.05)
            assert table.game.to_act(table.state) == {0}
            version = table.state.version
            time.sleep(0.5)
            assert table.state.version == version
