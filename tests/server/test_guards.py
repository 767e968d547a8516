"""What one address may hold (``server/guards.py``): unfinished tables, whether waiting or
running, counted atomically; running tables nobody looks at end as abandoned; WebSockets,
each given a time to say hello, sharing one message allowance."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx2
import pytest
from starlette.websockets import WebSocketDisconnect

from tests.server.client import (
    app_client,
    auth,
    create_table,
    free_port,
    profile,
    running_server,
)
from tests.server.test_cluster_faults import database, services, workers  # noqa: F401
from twintable.server import guards

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]


def test_running_tables_count_toward_an_address_share(sqlite_url: str) -> None:
    with app_client(sqlite_url, max_open_tables_per_client=3) as client:
        for _ in range(3):  # create, join, start: each table leaves "waiting"
            made = create_table(client, "timo", 2, seats=TWO_PEOPLE)
            table_id = made["table"]["id"]
            joined = client.post(f"/api/tables/{table_id}/join",
                                 json={"display_name": "Bob"})
            assert joined.status_code == 200, joined.text
            started = client.post(f"/api/tables/{table_id}/start", headers=auth(made["token"]))
            assert started.json()["status"] == "running"
        refused = client.post("/api/tables", json={"game": "timo", "players": 2,
                                                   "display_name": "Ann"})
        assert refused.status_code == 429, refused.text
        assert refused.json()["code"] == "tables.too_many"


def test_a_profile_has_a_share_of_its_own(sqlite_url: str) -> None:
    """A profile's tables count toward its own share as well as its address's: past it,
    the profile is refused (saying so) while the address, unnamed, may still create."""
    with app_client(sqlite_url, max_open_tables_per_client=10,
                    max_open_tables_per_profile=2) as client:
        identity = profile(client)
        for _ in range(2):
            create_table(client, "timo", 2, identity=identity)
        refused = client.post("/api/tables", json={
            "game": "timo", "players": 2, "display_name": "Ann", **identity})
        assert refused.status_code == 429, refused.text
        assert refused.json()["code"] == "tables.too_many"
        assert "profile" in refused.json()["message"]
        # The address's own share is not spent: a table without the profile is made.
        create_table(client, "timo", 2)
        # And another profile from the same address has a share of its own.
        create_table(client, "timo", 2, identity=profile(client, "Bo"))


def _create_at_once(bases: list[str], count: int) -> list[int]:
    async def run() -> list[int]:
        async with httpx2.AsyncClient(timeout=20) as http:
            answers = await asyncio.gather(*(
                http.post(f"{bases[n % len(bases)]}/api/tables",
                          json={"game": "timo", "players": 2, "display_name": "Ann"})
                for n in range(count)))
        return [answer.status_code for answer in answers]

    return asyncio.run(run())


def test_creates_at_once_cannot_pass_the_share_together(sqlite_url: str,
                                                        tmp_path: Path) -> None:
    port = free_port()
    with running_server(sqlite_url, port):
        statuses = _create_at_once([f"http://127.0.0.1:{port}"], 60)
    assert statuses.count(201) == 20, statuses  # the default share
    assert set(statuses) == {201, 429}


def test_a_profile_share_holds_across_workers(database: str,  # noqa: F811
                                              tmp_path: Path) -> None:
    """Tables made with one profile through two workers count in one share (in Redis)."""
    with workers(database, "redis://127.0.0.1:6379/13", tmp_path,
                 extra=("--tables-per-profile", "2")) as pair:
        made = httpx2.post(f"{pair[0].base}/api/profiles", json={"display_name": "Ann"}).json()
        identity = {"player_id": made["player_id"], "player_secret": made["secret"]}
        answers = [httpx2.post(f"{pair[n % 2].base}/api/tables", json={
            "game": "timo", "players": 2, "display_name": "Ann", **identity}, timeout=20)
            for n in range(4)]
        assert [a.status_code for a in answers] == [201, 201, 429, 429], [
            a.text for a in answers]
        # Without the profile, the address (raised for one machine) still creates.
        plain = httpx2.post(f"{pair[1].base}/api/tables", json={
            "game": "timo", "players": 2, "display_name": "Ann"}, timeout=20)
        assert plain.status_code == 201, plain.text


def test_the_share_holds_across_workers(database: str, tmp_path: Path) -> None:  # noqa: F811
    with workers(database, "redis://127.0.0.1:6379/13", tmp_path,
                 one_machine=False) as pair:
        statuses = _create_at_once([worker.base for worker in pair], 60)
    assert statuses.count(201) == 20, statuses
    assert set(statuses) == {201, 429}


def test_a_running_table_nobody_looks_at_is_abandoned(sqlite_url: str) -> None:
    with app_client(sqlite_url, unattended_after_s=0.3, bot_delay_ms=60_000) as client:
        server = client.app.state.server  # type: ignore[attr-defined]
        left, watched = (client.post("/api/tables", json={
            "game": "timo", "players": 2, "display_name": "Ann", "grace_s": 0,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}).json()
            for _ in range(2))
        client.post(f"/api/tables/{left['table']['id']}/start", headers=auth(left["token"]))
        client.post(f"/api/tables/{watched['table']['id']}/start",
                    headers=auth(watched["token"]))
        with client.websocket_connect(f"/ws/tables/{watched['table']['id']}") as ws:
            ws.send_json({"type": "hello", "token": watched["token"]})
            assert ws.receive_json()["type"] == "welcome"
            deadline = time.monotonic() + 10
            while left["table"]["id"] in server.tables:
                assert time.monotonic() < deadline, "the table nobody looks at stayed"
                time.sleep(0.05)
            assert server.tables[watched["table"]["id"]].status == "running"
        info = client.get(f"/api/tables/{left['table']['id']}").json()
        assert info["status"] == "abandoned"


def test_one_address_holds_a_bounded_number_of_sockets(sqlite_url: str) -> None:
    with app_client(sqlite_url, max_sockets_per_client=2) as client:
        table_id = create_table(client)["table"]["id"]
        with client.websocket_connect(f"/ws/tables/{table_id}"), \
                client.websocket_connect(f"/ws/tables/{table_id}"):
            with pytest.raises(WebSocketDisconnect) as refused, \
                    client.websocket_connect(f"/ws/tables/{table_id}") as third:
                third.send_json({"type": "hello"})
                third.receive_json()
            assert refused.value.code == 1008
        with client.websocket_connect(f"/ws/tables/{table_id}") as again:  # places freed
            again.send_json({"type": "hello"})
            assert again.receive_json()["type"] == "welcome"


def test_a_socket_that_says_no_hello_is_closed(sqlite_url: str) -> None:
    with app_client(sqlite_url, hello_timeout_s=0.3) as client:
        table_id = create_table(client)["table"]["id"]
        with client.websocket_connect(f"/ws/tables/{table_id}") as silent:
            time.sleep(0.6)
            with pytest.raises(WebSocketDisconnect) as closed:
                silent.send_json({"type": "ping"})
                silent.receive_json()
            assert closed.value.code == 1008
        with client.websocket_connect(f"/ws/tables/{table_id}") as greeted:
            greeted.send_json({"type": "hello"})
            assert greeted.receive_json()["type"] == "welcome"
            time.sleep(0.5)
            greeted.send_json({"type": "ping"})
            assert greeted.receive_json()["type"] == "pong"


def test_an_address_sockets_share_one_message_allowance(sqlite_url: str) -> None:
    with app_client(sqlite_url, client_messages_per_second=0.01,
                    client_message_burst=6) as client:
        table_id = create_table(client)["table"]["id"]
        sockets = [client.websocket_connect(f"/ws/tables/{table_id}") for _ in range(3)]
        answers = []
        with sockets[0] as a, sockets[1] as b, sockets[2] as c:
            for ws in (a, b, c, a, b, c, a, b, c):
                ws.send_json({"type": "ping"})
                answers.append(ws.receive_json().get("code", "pong"))
        assert answers == ["pong"] * 6 + ["rate.limited"] * 3


def test_an_address_that_floods_is_read_slowly_until_it_stops(
        monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(guards.time, "monotonic", lambda: now[0])
    allowance = guards.Allowance(rate=1.0, burst=2.0, checked=now[0], window=now[0])
    assert allowance.take() and allowance.take()
    for _ in range(20):  # refused, as a person sending too fast is: answered at once
        assert not allowance.take()
    assert not allowance.flooded
    assert not allowance.take()  # the 21st refusal within a second: a flood
    assert allowance.flooded
    now[0] += 0.5
    assert allowance.flooded  # for a while after its last refusal
    now[0] += guards.FLOOD_MEMORY_S + 0.1
    assert not allowance.flooded
    assert allowance.take()


def test_an_address_forwards_a_bounded_number_of_bytes_a_second() -> None:
    """Issue 38: valid but large moves sent through the worker that does not run their
    table overran the table worker's subscription. Each address has a byte budget there:
    a person's moves pass, a flood of large ones is refused."""
    settings = guards.Settings(forwarded_bytes_per_second=4096, messages_per_second=1e6,
                               message_burst=1_000_000, max_frame_bytes=16_384)
    book = guards.AddressBook(settings)
    guard = guards.ForwardGuard(settings, shared_bytes=book.forwarded_bytes("198.51.100.7"))
    guard.hello_pending = guard.seated = True
    small = '{"type": "action", "id": "m1", "kind": "draw", "payload": {}}'
    # Well-formed: seven strings within the JSON limits, 13 KB together.
    payload = {f"k{n}": "y" * 1_900 for n in range(7)}
    large = json.dumps({"type": "action", "id": "m2", "kind": "play", "payload": payload})
    answers = [guard.check(large) for _ in range(6)]
    passed = [onward for onward, _ in answers if onward is not None]
    refused = [answer for onward, answer in answers if onward is None]
    assert 1 <= len(passed) <= 3 and refused
    assert all(answer.code == "rate.limited" for answer in refused)
    # Another address has a budget of its own.
    other = guards.ForwardGuard(settings, shared_bytes=book.forwarded_bytes("198.51.100.8"))
    other.hello_pending = other.seated = True
    assert other.check(small)[0] is not None


def test_everything_forwarded_to_one_worker_has_a_byte_budget_of_its_own() -> None:
    """Issue 38: each address's budget bounds one sender, but many addresses together
    could still overrun the table worker's subscription: everything a worker sends on
    to one other worker shares a budget too, whatever the addresses."""
    settings = guards.Settings(forwarded_bytes_per_second=10**9, messages_per_second=1e6,
                               message_burst=1_000_000, max_frame_bytes=16_384)
    book = guards.AddressBook(settings)
    to_owner = guards.Allowance(20_000, 80_000)
    payload = {f"k{n}": "y" * 1_900 for n in range(7)}
    large = json.dumps({"type": "action", "id": "m", "kind": "play", "payload": payload})
    passed = refused = 0
    for address in range(40):  # forty addresses, each well within its own budget
        guard = guards.ForwardGuard(settings, shared_bytes=book.forwarded_bytes(
            f"198.51.100.{address}"), destination_bytes=to_owner)
        guard.hello_pending = guard.seated = True
        onward, answer = guard.check(large)
        if onward is not None:
            passed += 1
        else:
            assert answer is not None and answer.code == "rate.limited"
            refused += 1
    assert passed * len(large) <= 80_000 + len(large) and refused >= 30
