"""Input at the server's edge (issue #16): strict move payloads, bounded JSON, body limits,
security headers, and a log batch where one bad row cannot fail the others."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert

from tests.server.client import app_client, create_table, hello, play_to_end, start
from twintable.server.limits import SECURITY_HEADERS, with_worker_sockets
from twintable.server.public import worker_sockets
from twintable.server.storage.models import ActionRow
from twintable.server.storage.store import Store, StoredAction


def first_legal_move(ws: Any) -> tuple[dict[str, Any], int]:
    while True:
        frame = ws.receive_json()
        if frame["type"] in ("snapshot", "event") and frame["view"]["legal"]:
            return frame["view"]["legal"][0], frame["version"]


def answer_to(ws: Any, message_id: str) -> dict[str, Any]:
    while True:
        frame = ws.receive_json()
        if frame["type"] in ("ack", "error") and frame.get("id") in (message_id, None):
            return frame  # type: ignore[no-any-return]


def started_timo(client: Any) -> tuple[str, str]:
    joined = create_table(client, "timo", 2, {"target": 30})
    start(client, joined["table"]["id"], joined["token"])
    return joined["table"]["id"], joined["token"]


@pytest.mark.parametrize("extra", [{"x": "NaN"}, {"x": '"\\ud800"'}, {"x": "[" * 40 + "]" * 40},
                                   {"x": '"' + "y" * 3000 + '"'}, {"sneaky": "1"}])
def test_a_legal_move_with_an_extra_key_is_refused_and_nothing_is_stored(
        db_url: str, extra: dict[str, str]) -> None:
    with app_client(db_url) as client:
        table_id, token = started_timo(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            move, version = first_legal_move(ws)
            # Written by hand: json.dumps would never produce NaN or a lone surrogate.
            payload = json.dumps(move["payload"])[:-1].rstrip("{")
            payload = ("{" if payload == "" else payload + ", ") + ", ".join(
                f'"{key}": {value}' for key, value in extra.items()) + "}"
            if payload.startswith("{,"):
                payload = "{" + payload[2:]
            ws.send_text(f'{{"type": "action", "id": "m1", "version": {version}, '
                         f'"kind": "{move["kind"]}", "payload": {payload}}}')
            answer = answer_to(ws, "m1")
            assert answer["type"] == "error", answer
            assert answer["code"] in ("action.invalid", "json.not_finite", "json.bad_unicode",
                                      "json.too_deep", "json.string_too_long"), answer
            # The same move without the extra key is played.
            ws.send_json({"type": "action", "id": "m2", "version": version,
                          "kind": move["kind"], "payload": move["payload"]})
            assert answer_to(ws, "m2")["type"] == "ack"


def test_moves_of_the_wrong_shape_are_refused_with_a_clear_code(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table_id, token = started_timo(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            _, version = first_legal_move(ws)
            cases = [("tick", {}, "action.unknown"), ("play", {"card": "3"}, "action.invalid"),
                     ("play", {"card": True}, "action.invalid"),
                     ("play", {"card": 1.0}, "action.invalid"),
                     ("catch", {"target": 10**6}, "action.invalid"),
                     ("play", [], "message.invalid")]
            for index, (kind, payload, code) in enumerate(cases):
                ws.send_json({"type": "action", "id": f"w{index}", "version": version,
                              "kind": kind, "payload": payload})
                answer = answer_to(ws, f"w{index}")
                assert answer["code"] == code, (kind, payload, answer)


def test_a_timo_move_needs_a_version_and_a_twin_it_touch_does_not(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table_id, token = started_timo(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            move, _ = first_legal_move(ws)
            ws.send_json({"type": "action", "id": "nv", "kind": move["kind"],
                          "payload": move["payload"]})
            assert answer_to(ws, "nv")["code"] == "action.version_required"
        joined = create_table(client, "twinit", 2, {"sets_to_win": 1},
                              seats=[{"kind": "human"}, {"kind": "human"}])
        table_id = joined["table"]["id"]
        other = client.post(f"/api/tables/{table_id}/join", json={"display_name": "Bo"})
        start(client, table_id, joined["token"])
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, joined["token"])
            view = first_legal_move(ws)
            assert other.status_code == 200 and view
            ws.send_json({"type": "action", "id": "t1", "kind": "touch",
                          "payload": {"card": "p0"}})
            answer = answer_to(ws, "t1")
            assert answer.get("code") != "action.version_required", answer


@pytest.mark.parametrize("text", [
    '{"type": "ping", "n": ' + "9" * 5000 + "}",
    "[" * 5000 + "]" * 5000,
    '{"type": "action", "id": "\\ud800", "kind": "draw", "version": 0}',
    '{"type": "ping", "x": NaN}',
    '{"type": "ping", "x": 1e999}',
])
def test_hostile_frames_get_an_error_frame_and_the_socket_stays_open(
        sqlite_url: str, text: str) -> None:
    with app_client(sqlite_url) as client:
        table_id, token = started_timo(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            ws.send_text(text)
            while (frame := ws.receive_json())["type"] != "error":
                pass
            assert frame["code"].startswith(("json.", "message.")), frame
            ws.send_json({"type": "ping"})
            while (frame := ws.receive_json())["type"] != "pong":
                assert frame["type"] in ("snapshot", "event", "table", "ack"), frame


def test_an_unknown_protocol_version_is_refused(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table_id, token = started_timo(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "protocol": 99, "token": token})
            frame = ws.receive_json()
            assert frame["type"] == "error" and frame["code"] == "protocol.unsupported"
            hello(ws, token)  # the right version is still welcome


def test_http_bodies_are_bounded_and_read_under_the_json_limits(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        huge = client.post("/api/tables", content=b"{" + b" " * 200_000 + b"}",
                           headers={"content-type": "application/json"})
        assert huge.status_code == 413 and huge.json()["code"] == "request.too_large"
        lying = client.post("/api/tables", content=b"{}",
                            headers={"content-type": "application/json",
                                     "content-length": "99999999"})
        assert lying.status_code == 413
        body = ('{"game": "timo", "players": 2, "display_name": "Ann", '
                '"options": {"target": NaN}}')
        nan = client.post("/api/tables", content=body.encode(),
                          headers={"content-type": "application/json"})
        assert nan.status_code == 422 and nan.json()["code"] == "json.not_finite"
        fine = create_table(client, "timo", 2)
        assert fine["table"]["game"] == "timo"


def test_every_page_carries_the_security_headers(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        for path in ("/", "/static/app.js", "/api/games", "/healthz", "/api/tables/none"):
            headers = client.get(path).headers
            policy = headers["content-security-policy"]
            assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
            assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
            assert headers["x-content-type-options"] == "nosniff"


def test_one_bad_row_in_a_log_batch_fails_only_its_own_move(db_url: str) -> None:
    """The group commit writes moves of every table together; a row that cannot be stored
    (here a duplicate sequence number) must not take the other tables' moves with it."""

    async def scenario() -> list[BaseException | None]:
        store = Store(db_url)
        await store.migrate()
        async with store.engine.begin() as connection:
            for table_id in ("t1", "t2", "t3"):
                await connection.exec_driver_sql(
                    "INSERT INTO tables (id, game, name, options, seed, players, status, "
                    "creator_hash, created_ms) VALUES "
                    f"('{table_id}', 'timo', 'x', '{{}}', 1, 2, 'running', 'h', 0)")
            await connection.execute(insert(ActionRow), [
                {"table_id": "t2", "seq": 1, "seat": 0, "kind": "draw", "payload": {},
                 "t_ms": 0, "client_id": None}])
        moves = [("t1", StoredAction(1, 0, "draw", {}, 1, None)),
                 ("t2", StoredAction(1, 0, "draw", {}, 1, None)),  # seq 1 exists already
                 ("t3", StoredAction(1, 0, "draw", {}, 1, None))]
        results = await asyncio.gather(*(store.append_action(table_id, action)
                                         for table_id, action in moves),
                                       return_exceptions=True)
        stored = {table_id: len(await store.load_actions(table_id))
                  for table_id in ("t1", "t2", "t3")}
        await store.close()
        assert stored == {"t1": 1, "t2": 1, "t3": 1}
        return [r if isinstance(r, BaseException) else None for r in results]

    results = asyncio.run(scenario())
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], Exception)


def test_a_replay_never_answers_500_on_a_log_with_junk_from_older_servers(
        db_url: str) -> None:
    with app_client(db_url) as client:
        table_id, token = started_timo(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            play_to_end(ws)

    async def poison() -> None:
        store = Store(db_url)
        async with store.engine.begin() as connection:
            rows = (await connection.exec_driver_sql(
                f"SELECT seq, payload FROM actions WHERE table_id = '{table_id}' "
                "AND kind = 'play' ORDER BY seq LIMIT 1")).all()
            seq, payload = rows[0]
            payload = json.loads(payload) if isinstance(payload, str) else payload
            payload["junk"] = {"deep": [[[[1]]]], "text": "z" * 16_000}
            await connection.exec_driver_sql(
                "UPDATE actions SET payload = $1 WHERE table_id = $2 AND seq = $3"
                if "postgresql" in db_url else
                "UPDATE actions SET payload = ? WHERE table_id = ? AND seq = ?",
                (json.dumps(payload), table_id, seq))
        await store.close()

    asyncio.run(poison())
    with app_client(db_url) as client:
        replay = client.get(f"/api/tables/{table_id}/replay")
        assert replay.status_code == 200, replay.text
        assert "junk" not in replay.text
        views = client.get(f"/api/tables/{table_id}/replay/views")
        assert views.status_code == 200 and "junk" not in views.text


def test_with_workers_ports_the_page_may_open_sockets_there_on_the_public_host() -> None:
    sources = worker_sockets("http://play.example.org:8000", [8001, 8002])
    assert sources == ["ws://play.example.org:8001", "ws://play.example.org:8002"]
    assert worker_sockets("https://play.example.org", [8001, 8001]) == [
        "wss://play.example.org:8001"]
    policy = dict(with_worker_sockets(SECURITY_HEADERS, sources)
                  )[b"content-security-policy"].decode()
    assert policy.split("connect-src ")[1].split(";")[0].split() == ["'self'", *sources]
    # Anything else in the policy is as without workers; no public host adds nothing.
    assert policy.replace(" " + " ".join(sources), "") \
        == dict(SECURITY_HEADERS)[b"content-security-policy"].decode()
    assert worker_sockets(None, [8001, 8002]) == []
    assert with_worker_sockets(SECURITY_HEADERS, []) == SECURITY_HEADERS


def test_the_page_policy_never_names_the_host_a_request_gave(sqlite_url: str) -> None:
    with app_client(sqlite_url, public_url="http://play.example.org:8000",
                    worker_ports=[8001, 8002]) as client:
        for host in ("evil.example", "evil.example:8000", "play.example.org:8000"):
            policy = client.get("/", headers={"Host": host}).headers[
                "content-security-policy"]
            assert "evil" not in policy, policy
            assert "ws://play.example.org:8001 ws://play.example.org:8002" in policy, policy


async def store_with_a_running_table(url: str, table_id: str) -> Store:
    """A migrated store whose log has a running table ``table_id`` to write moves for."""
    store = Store(url)
    await store.migrate()
    async with store.engine.begin() as connection:
        await connection.exec_driver_sql(
            "INSERT INTO tables (id, game, name, options, seed, players, status, "
            "creator_hash, created_ms) VALUES "
            f"('{table_id}', 'timo', 'x', '{{}}', 1, 2, 'running', 'h', 0)")
    return store


def test_a_log_that_cannot_open_its_database_refuses_moves_and_recovers(
        sqlite_url: str, tmp_path: Path) -> None:
    """The SQLite log's writer thread answers every move even when it cannot open the
    database (the move is refused, never left waiting with its table locked), and the
    next move, once the database is there, is written."""

    async def scenario() -> None:
        store = await store_with_a_running_table(sqlite_url, "t1")
        log = store._sqlite_log
        assert log is not None
        path, log.path = log.path, str(tmp_path / "missing" / "twintable.sqlite3")
        refused = await asyncio.wait_for(asyncio.gather(
            *(store.append_action("t1", StoredAction(seq, 0, "draw", {}, 1, None))
              for seq in (1, 2)), return_exceptions=True), 30)
        assert all(isinstance(answer, Exception) for answer in refused), refused
        log.path = path
        await asyncio.wait_for(store.append_action(
            "t1", StoredAction(1, 0, "draw", {}, 1, "c1")), 30)
        assert [a.client_id for a in await store.load_actions("t1")] == ["c1"]
        await store.close()

    asyncio.run(scenario())


def test_a_move_waits_for_sqlites_lock_in_the_writer_thread_not_on_the_loop(
        sqlite_url: str) -> None:
    """Moves are committed on the event loop, but never by waiting there for SQLite's
    write lock: while another writer holds it, the loop runs on and the move is written
    by the log's thread once the lock is free (acknowledged only then)."""

    async def scenario() -> None:
        store = await store_with_a_running_table(sqlite_url, "t1")
        await store.append_action("t1", StoredAction(1, 0, "draw", {}, 1, "c1"))
        log = store._sqlite_log
        assert log is not None and log.thread is None  # written on the loop
        other = sqlite3.connect(log.path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        move = asyncio.ensure_future(
            store.append_action("t1", StoredAction(2, 0, "draw", {}, 1, "c2")))
        started = time.monotonic()
        await asyncio.sleep(0.3)
        assert time.monotonic() - started < 2  # the loop was never held
        assert not move.done()  # not acknowledged before it is written
        assert log.thread is not None
        other.execute("COMMIT")
        other.close()
        await asyncio.wait_for(move, 30)
        assert [a.client_id for a in await store.load_actions("t1")] == ["c1", "c2"]
        await store.close()

    asyncio.run(scenario())
