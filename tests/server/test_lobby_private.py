"""Private tables: reached only through the invite link's secret, never listed; and the
host's name sent apart from the table's name, for clients to translate."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.server.client import app_client, auth, hello, play_to_end
from twintable.server.storage.store import Store


def private_table(client: Any, **extra: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={
        "game": "timo", "players": 3, "display_name": "Ann", "private": True,
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
        **extra})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def test_a_private_table_is_never_listed_and_its_link_carries_a_long_secret(
        sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        secret = private_table(client)
        public = client.post("/api/tables", json={"game": "timo", "players": 2,
                                                  "display_name": "Bob"}).json()
        key = secret["key"]
        assert secret["table"]["private"] and not public["table"]["private"]
        assert len(key) >= 22  # token_urlsafe: at least 128 random bits
        assert parse_qs(urlsplit(secret["invite"]).query)["key"] == [key]
        assert public["key"] is None and "key=" not in public["invite"]
        for status in ("open", "running"):
            listed = {t["id"] for t in client.get(f"/api/tables?status={status}").json()}
            assert secret["table"]["id"] not in listed
        assert public["table"]["id"] in {t["id"] for t in client.get("/api/tables").json()}
        # Started, it is still not listed among the games to watch.
        table_id = secret["table"]["id"]
        joined = client.post(f"/api/tables/{table_id}/join",
                             json={"display_name": "Cy", "key": key}).json()
        assert joined["key"] == key and key in joined["invite"]
        started = client.post(f"/api/tables/{table_id}/start", headers=auth(secret["token"]))
        assert started.status_code == 200, started.text
        running = {t["id"] for t in client.get("/api/tables?status=running").json()}
        assert table_id not in running


def test_joining_a_private_table_needs_its_secret(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        made = private_table(client)
        table_id, key = made["table"]["id"], made["key"]
        for body in ({"display_name": "Eve"}, {"display_name": "Eve", "key": "guess"},
                     {"display_name": "Eve", "key": key[:-1]}):
            refused = client.post(f"/api/tables/{table_id}/join", json=body)
            assert refused.status_code == 403 and refused.json()["code"] == "table.private"
        assert client.get(f"/api/tables/{table_id}?key={key}").json()["seats"][1]["kind"] == "empty"
        joined = client.post(f"/api/tables/{table_id}/join",
                             json={"display_name": "Bob", "key": key})
        assert joined.status_code == 200 and joined.json()["seat"] == 1


def test_watching_a_private_table_needs_its_secret_a_seat_token_is_enough(
        sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        made = private_table(client)
        table_id, key = made["table"]["id"], made["key"]
        for sent in ({}, {"key": "not-the-key"}):
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                ws.send_json({"type": "hello", "token": None, **sent})
                refused = ws.receive_json()
                assert refused["type"] == "error" and refused["code"] == "table.private"
                ws.send_json({"type": "ping"})  # not greeted: no frames of the table
                assert ws.receive_json()["type"] == "pong"
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "key": key})
            welcome = ws.receive_json()
            assert welcome["type"] == "welcome" and welcome["seat"] is None
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            assert hello(ws, made["token"])["seat"] == 0


def test_only_the_hash_of_the_secret_is_stored_and_it_survives_a_restart(
        sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        made = private_table(client)
    table_id, key = made["table"]["id"], made["key"]

    async def stored() -> dict[str, Any]:
        store = Store(sqlite_url)
        loaded = await store.load_table(table_id)
        await store.close()
        assert loaded is not None
        return dict(loaded[0].settings or {})

    with ThreadPoolExecutor(1) as pool:  # its own loop, whatever else runs in this process
        settings = pool.submit(asyncio.run, stored()).result()
    assert key not in str(settings) and settings.get("invite_hash")
    with app_client(sqlite_url) as client:
        assert table_id not in {t["id"] for t in client.get("/api/tables").json()}
        assert client.post(f"/api/tables/{table_id}/join",
                           json={"display_name": "Eve"}).status_code == 403
        assert client.post(f"/api/tables/{table_id}/join",
                           json={"display_name": "Bob", "key": key}).status_code == 200


def test_the_host_name_comes_apart_from_the_table_name(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        unnamed = client.post("/api/tables", json={"game": "timo", "players": 2,
                                                   "display_name": "Ann"}).json()["table"]
        named = client.post("/api/tables", json={"game": "timo", "players": 2,
                                                 "display_name": "Ann",
                                                 "name": "Friday night"}).json()["table"]
        assert unnamed["host_name"] == "Ann" and unnamed["name"] == "Ann's table"
        assert named["host_name"] is None and named["name"] == "Friday night"
        games = {g["id"]: g for g in client.get("/api/games").json()}
        assert games["twinit"]["players_by_mode"]["coop"] == [1, 6]
        assert games["twinit"]["players_by_mode"]["team"] == [4, 6]
        assert games["timo"]["players_by_mode"] is None
        options = {o["name"]: o for o in games["twinit"]["options"]}
        assert options["teams"]["modes"] == ["team"] and "modes" not in options["hold_ms"]


def test_a_private_table_shows_itself_and_its_replay_only_to_its_key_or_its_players(
        sqlite_url: str) -> None:
    """Issue #14: the table's page, the finished table's socket and the replay of a
    private table open only with the invite key or a seat's token, before and after the
    end and after the table has left memory."""
    with app_client(sqlite_url, finished_linger_s=0.05) as client:
        made = client.post("/api/tables", json={
            "game": "timo", "players": 2, "display_name": "Ann", "private": True,
            "options": {"target": 20},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}).json()
        table_id, key, token = made["table"]["id"], made["key"], made["token"]

        def refused(path: str, **kwargs: Any) -> bool:
            response = client.get(path, **kwargs)
            return response.status_code == 403 and response.json()["code"] == "table.private"

        info = f"/api/tables/{table_id}"
        assert refused(info) and refused(f"{info}?key=guess")
        assert refused(info, headers=auth("not-a-seat-token"))
        assert client.get(f"{info}?key={key}").json()["id"] == table_id
        assert client.get(info, headers=auth(token)).json()["id"] == table_id
        start_response = client.post(f"/api/tables/{table_id}/start", headers=auth(token))
        assert start_response.status_code == 200, start_response.text
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            play_to_end(ws)
        server = client.app.state.server  # type: ignore[attr-defined]
        deadline = time.monotonic() + 10
        while table_id in server.tables:
            assert time.monotonic() < deadline, "the finished table stayed in memory"
            time.sleep(0.05)
        for path in (info, f"{info}/replay", f"{info}/replay/views?every_seat=true"):
            assert refused(path), path
            sep = "&" if "?" in path else "?"
            assert client.get(f"{path}{sep}key={key}").status_code == 200, path
            assert client.get(path, headers=auth(token)).status_code == 200, path
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "protocol": 1, "token": None, "key": "guess"})
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["code"] == "table.private"
        for greeting in ({"key": key, "token": None}, {"key": None, "token": token}):
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                ws.send_json({"type": "hello", "protocol": 1, **greeting})
                welcome = ws.receive_json()
                assert welcome["type"] == "welcome" and welcome["table"]["result"]["winners"]
