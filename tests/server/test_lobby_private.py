"""Private tables: reached only through the invite link's secret, never listed; and the
host's name sent apart from the table's name, for clients to translate."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.server.client import app_client, auth, hello
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
        assert client.get(f"/api/tables/{table_id}").json()["seats"][1]["kind"] == "empty"
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
