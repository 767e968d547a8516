"""A scripted protocol client for tests: create tables, connect, play to the end."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from twintable.server.app import create_app
from twintable.server.settings import Settings


def app_client(db_url: str, **settings: Any) -> TestClient:
    """An app with instant bots; scripted clients are fast, so the rate limit is raised
    unless a test sets it."""
    settings.setdefault("messages_per_second", 10_000.0)
    settings.setdefault("message_burst", 10_000)
    return TestClient(create_app(Settings(db_url=db_url, bot_delay_ms=0, **settings)))


def create_table(client: TestClient, game: str = "timo", players: int = 2,
                 options: dict[str, Any] | None = None, seats: list[dict[str, Any]] | None = None,
                 player_id: str | None = None, name: str = "Ann") -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "players": players, "display_name": name,
                            "options": options or {}}
    if seats is not None:
        body["seats"] = seats
    if player_id:
        body["player_id"] = player_id
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def start(client: TestClient, table_id: str, token: str) -> None:
    response = client.post(f"/api/tables/{table_id}/start", headers=auth(token))
    assert response.status_code == 200, response.text


def hello(ws: WebSocketTestSession, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    return welcome  # type: ignore[no-any-return]


def is_over(view: dict[str, Any]) -> bool:
    return bool(view.get("over")) or view.get("phase") == "over"


def play_to_end(ws: WebSocketTestSession, choose: Callable[[dict[str, Any]], dict[str, Any]]
                | None = None, max_frames: int = 20_000) -> list[dict[str, Any]]:
    """Answer every frame until the game ends; returns every frame received."""
    frames: list[dict[str, Any]] = []
    sent = 0
    last: dict[str, Any] = {}
    for _ in range(max_frames):
        frame = ws.receive_json()
        frames.append(frame)
        if frame["type"] == "table" and frame["table"]["status"] == "finished":
            return frames
        if frame["type"] == "error" and frame["code"] == "rate.limited":
            time.sleep(0.05)
            ws.send_json(last)  # same id: the server answers it once
        if frame["type"] in ("snapshot", "event"):
            view = frame["view"]
            if is_over(view):
                continue
            if view["legal"]:
                action = choose(view) if choose else view["legal"][0]
                sent += 1
                last = {"type": "action", "id": f"m{sent}", "version": frame["version"],
                        "kind": action["kind"], "payload": action["payload"]}
                ws.send_json(last)
    raise AssertionError("the game did not end")
