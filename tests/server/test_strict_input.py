"""Issue #29's small items: numbers are numbers (a string of digits is refused, not
read as one), seats are never negative, and a frame refused under the JSON limits still
names the move it refuses when its id can be read; a client that leaves early leaves no
traceback in the log."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import uvicorn
import websockets
from fastapi import FastAPI
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from tests.server.client import app_client, create_table, free_port, hello, play_to_end, start
from twintable.server.app import create_app
from twintable.server.protocol import NAME_PATTERN, DisplayName
from twintable.server.settings import Settings
from twintable.server.transport import server_options


def test_numbers_given_as_strings_are_refused(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        for field, value in (("players", "2"), ("grace_s", "60"), ("turn_limit_s", "30")):
            body = {"game": "timo", "players": 2, "display_name": "Ann", field: value}
            refused = client.post("/api/tables", json=body)
            assert refused.status_code == 422, (field, refused.text)
            assert refused.json()["code"] == "request.invalid"


def test_whole_numbers_written_with_a_fraction_are_read_and_others_refused(
        sqlite_url: str) -> None:
    """JSON Schema counts 3.0 as an integer, so the OpenAPI schema allows it (issue #38);
    3.5 and true are not whole numbers."""
    with app_client(sqlite_url) as client:
        made = client.post("/api/tables", json={
            "game": "timo", "players": 2.0, "display_name": "Ann", "grace_s": 30.0,
            "turn_limit_s": 60.0})
        assert made.status_code == 201, made.text
        assert made.json()["table"]["players"] == 2
        for value in (2.5, True):
            refused = client.post("/api/tables", json={
                "game": "timo", "players": value, "display_name": "Ann"})
            assert (refused.status_code, refused.json()["code"]) == (422, "request.invalid")


def test_a_negative_seat_is_invalid_not_taken(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        made = create_table(client, "timo", 2, seats=[{"kind": "human"}, {"kind": "human"}])
        refused = client.post(f"/api/tables/{made['table']['id']}/join",
                              json={"display_name": "Bob", "seat": -1})
        assert refused.status_code == 422, refused.text
        assert refused.json()["code"] == "request.invalid"


def test_frames_refused_under_the_limits_name_their_move(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        made = create_table(client, "timo", 2)
        with client.websocket_connect(f"/ws/tables/{made['table']['id']}") as ws:
            hello(ws, made["token"])
            ws.send_text('{"type": "action", "id": "m1", "version": 0, "kind": "draw",'
                         ' "payload": {"x": NaN}}')
            refused = ws.receive_json()
            assert (refused["code"], refused["id"]) == ("json.not_finite", "m1")
            ws.send_json({"type": "action", "id": "m2", "version": "0", "kind": "draw"})
            refused = ws.receive_json()
            assert (refused["code"], refused["id"]) == ("message.invalid", "m2")


@contextmanager
def served_here(settings: Settings, app: FastAPI | None = None) -> Iterator[int]:
    """``app`` (by default a new one) served by uvicorn in a thread of this process (its
    log reaches caplog), with the limits ``serve`` gives uvicorn; its port."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app or create_app(settings), port=port,
                                           log_config=None, **server_options(settings)))
    thread = threading.Thread(target=server.run)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def test_leaving_a_retired_private_tables_socket_early_logs_no_traceback(
        sqlite_url: str, caplog: pytest.LogCaptureFixture) -> None:
    with app_client(sqlite_url) as client:  # a private game played to its end
        made = client.post("/api/tables", json={
            "game": "timo", "players": 2, "display_name": "Ann", "private": True,
            "options": {"target": 1},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}).json()
        table_id, token = made["table"]["id"], made["token"]
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            play_to_end(ws)
    caplog.set_level(logging.INFO)
    # Served again: the finished table is read back from the database, not in memory.
    with served_here(Settings(db_url=sqlite_url)) as port:

        async def leave_before_hello() -> None:
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}"):
                pass  # closed before the hello the private table waits for
            async with websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                answer = json.loads(await asyncio.wait_for(ws.recv(), 5))
                assert answer["type"] == "welcome", answer  # the server is still fine

        asyncio.run(leave_before_hello())
    assert not [r for r in caplog.records if r.exc_info], [
        r.getMessage() for r in caplog.records if r.exc_info]


def test_the_schema_states_the_name_rules(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for model in ("CreateTable", "JoinTable", "CreateProfile", "RenameProfile"):
        name = schemas[model]["properties"]["display_name"]
        assert (name["minLength"], name["maxLength"], name["pattern"]) == (
            1, 40, NAME_PATTERN), model


@given(name=st.from_regex(NAME_PATTERN, fullmatch=True).filter(lambda n: len(n) <= 40))
@settings(max_examples=300, deadline=None)
def test_every_name_the_schema_describes_is_accepted(name: str) -> None:
    """What a schema-driven client makes from the pattern is never refused (schemathesis
    found names that looked valid by the schema and were refused)."""
    TypeAdapter(DisplayName).validate_python(name)


@pytest.mark.parametrize("name", ["Ann\u202egnp.exe", "\u200b\u200b", "A\x7fnn", "An\u0085n",
                                  "An\u2028n", "\u2066Bo\u2069", "   ", "<b>", "-"])
def test_names_the_server_refuses_are_outside_the_pattern(name: str) -> None:
    assert re.fullmatch(NAME_PATTERN, name) is None


def test_a_wrong_method_is_answered_with_every_allowed_one(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        for method, path, allowed in (("DELETE", "/api/tables", {"GET", "POST"}),
                                      ("PUT", "/api/profiles", {"POST"}),
                                      ("POST", "/healthz", {"GET"}),
                                      ("POST", "/static/app.js", {"GET", "HEAD"}),
                                      ("GET", "/api/tables/x/start", {"POST"})):
            answer = client.request(method, path)
            assert answer.status_code == 405, (method, path)
            assert set(answer.headers["allow"].split(", ")) == allowed, (method, path)
            assert answer.json()["code"] == "method.not_allowed"
