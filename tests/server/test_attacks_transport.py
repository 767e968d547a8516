"""Attacks on the transport, generated (#29): request heads of any size, WebSocket frames
of any size, floods of sockets and forged forwarded headers, against uvicorn with the
limits ``serve`` gives it (``server/transport.py``), served in this process.

The invariant each time: the bad input gets a clear refusal (431, ``message.too_large``,
a close with 1009 or 1008, 429) and changes nothing; honest people are unaffected: a
player at another table, from another address (another loopback address: Linux routes
all of 127/8 to this machine), has a move acknowledged right after every attack.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.server.test_attacks import HonestPlayer
from tests.server.test_strict_input import served_here
from twintable.server.app import create_app
from twintable.server.settings import Settings
from twintable.server.transport import MAX_HEAD_BYTES, WS_FRAME_SLACK, BoundedHttpTools

pytestmark = pytest.mark.timeout(300)

SETTINGS = settings(deadline=None, max_examples=30, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))
#: Four table creations an example: fewer examples.
FEWER = settings(SETTINGS, max_examples=15)
HONEST = "127.0.0.2"
TABLES_PER_ADDRESS = 3
SOCKETS_PER_ADDRESS = 5
#: A fresh attacking address for each example (127.1.x.y), so examples do not add up.
_addresses = (f"127.1.{n // 250}.{n % 250 + 1}" for n in itertools.count())


def new_address() -> str:
    return next(_addresses)


class Socket:
    """A WebSocket from a chosen local address, with the JSON calls HonestPlayer uses."""

    def __init__(self, port: int, path: str, address: str):
        raw = socket.create_connection(("127.0.0.1", port), timeout=10,
                                       source_address=(address, 0))
        self.opened = contextlib.ExitStack()
        self.connection: ClientConnection = self.opened.enter_context(connect(
            f"ws://127.0.0.1:{port}{path}", sock=raw, max_size=None, open_timeout=10))

    def send_json(self, data: Any) -> None:
        self.connection.send(json.dumps(data))

    def receive_json(self) -> dict[str, Any]:
        return json.loads(self.connection.recv(timeout=10))  # type: ignore[no-any-return]

    def close(self) -> None:
        self.opened.close()


def http(address: str) -> httpx2.Client:
    return httpx2.Client(transport=httpx2.HTTPTransport(local_address=address), timeout=10)


def create(port: int, address: str, headers: dict[str, str] | None = None) -> httpx2.Response:
    with http(address) as client:
        return client.post(f"http://127.0.0.1:{port}/api/tables", headers=headers, json={
            "game": "timo", "players": 2, "display_name": "Ann", "options": {"target": 500}})


@contextlib.contextmanager
def server_with_honest_player(tmp_path: Any, **limits: Any
                              ) -> Iterator[tuple[int, HonestPlayer, FastAPI]]:
    """A server (small per-address limits) and an honest player seated at a running
    table of their own, from their own address; the server's app."""
    options: dict[str, Any] = {
        "db_url": f"sqlite+aiosqlite:///{tmp_path / 'attacked.sqlite3'}", "bot_delay_ms": 0,
        "max_open_tables_per_client": TABLES_PER_ADDRESS,
        "max_sockets_per_client": SOCKETS_PER_ADDRESS, **limits}
    app = create_app(Settings(**options))
    with served_here(Settings(**options), app) as port:
        made = create(port, HONEST).json()
        with http(HONEST) as client:
            started = client.post(f"http://127.0.0.1:{port}/api/tables/"
                                  f"{made['table']['id']}/start",
                                  headers={"Authorization": f"Bearer {made['token']}"})
            assert started.status_code == 200, started.text
        ws = Socket(port, f"/ws/tables/{made['table']['id']}", HONEST)
        ws.send_json({"type": "hello", "token": made["token"]})
        player = HonestPlayer(ws)  # type: ignore[arg-type]
        player.move()
        try:
            yield port, player, app
        finally:
            ws.close()


# -- request heads -------------------------------------------------------------------
def raw_answer(port: int, head: bytes, address: str) -> bytes:
    """The first line the server answers ``head`` with (b"" if it only closed)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10,
                                  source_address=(address, 0)) as raw:
        with contextlib.suppress(OSError):  # refused mid-way: the answer is still read
            raw.sendall(head)
        answer = b""
        with contextlib.suppress(OSError):
            while b"\r\n" not in answer and (chunk := raw.recv(65536)):
                answer += chunk
        return answer.split(b"\r\n")[0]


@st.composite
def heads(draw: st.DrawFn) -> bytes:
    """A whole request head (line and headers) of about the drawn size, padded in the
    request line, in one header or in many."""
    size = draw(st.integers(0, 2 * MAX_HEAD_BYTES))
    where = draw(st.sampled_from(["path", "one header", "many headers"]))
    line, headers = "/healthz", ["Host: x", "Connection: close"]
    if where == "path":
        line += "?q=" + "a" * size
    elif where == "one header":
        headers.append("X-Pad: " + "a" * size)
    else:
        headers += [f"X-Pad-{n}: {'a' * 50}" for n in range(size // 60)]
    return (f"GET {line} HTTP/1.1\r\n" + "\r\n".join(headers) + "\r\n\r\n").encode()


def test_request_heads_past_the_cap_are_refused_and_others_served(tmp_path: Any) -> None:
    with server_with_honest_player(tmp_path) as (port, honest, _):

        @SETTINGS
        @given(head=heads())
        def attack(head: bytes) -> None:
            status = raw_answer(port, head, new_address())
            expected = b"200 OK" if len(head) <= MAX_HEAD_BYTES else b"431 "
            assert expected in status, (len(head), status)
            honest.move()

        attack()


def test_a_head_pipelined_behind_a_small_request_is_capped_too(tmp_path: Any) -> None:
    """Issue 38: requests sent together are parsed together, and only the first head of a
    read was counted; a second head of any size rode behind a small first one."""
    small = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    for padding in ("path", "header"):
        pad = "a" * (4 * MAX_HEAD_BYTES)
        line = f"/healthz?q={pad}" if padding == "path" else "/healthz"
        extra = f"X-Pad: {pad}\r\n" if padding == "header" else ""
        huge = f"GET {line} HTTP/1.1\r\nHost: x\r\n{extra}\r\n".encode()
        with server_with_honest_player(tmp_path) as (port, honest, _):
            with socket.create_connection(("127.0.0.1", port), timeout=10,
                                          source_address=(new_address(), 0)) as raw:
                with contextlib.suppress(OSError):
                    raw.sendall(small + huge)
                answers = b""
                with contextlib.suppress(OSError):
                    while chunk := raw.recv(65536):
                        answers += chunk
            statuses = re.findall(rb"HTTP/1\.1 \d{3}[^\r]*", answers)
            # The first request's answer may not be out before the connection closes.
            assert statuses[-1:] == [b"HTTP/1.1 431 Request Header Fields Too Large"], answers
            assert statuses[:-1] in ([], [b"HTTP/1.1 200 OK"]), answers
            honest.move()


# -- WebSocket frames ----------------------------------------------------------------
def sized(size: int, kind: str) -> str:
    """A frame of exactly ``size`` bytes (at least 40): a ping, a hello or an action
    padded with an unknown field."""
    start = {"ping": '{"type":"ping","pad":"', "hello": '{"type":"hello","pad":"',
             "action": '{"type":"action","id":"a","kind":"draw","pad":"'}[kind]
    return start + "a" * (size - len(start) - 2) + '"}'


def test_frames_past_the_protocols_limit_are_refused_and_huge_ones_cut_off(
        tmp_path: Any) -> None:
    limit = Settings().max_frame_bytes
    with server_with_honest_player(tmp_path, messages_per_second=10_000.0,
                                   message_burst=10_000, client_messages_per_second=10_000.0,
                                   client_message_burst=10_000) as (port, honest, _):
        made = create(port, new_address()).json()
        path, token = f"/ws/tables/{made['table']['id']}", made["token"]
        attacker: list[Socket] = []

        def greeted() -> Socket:
            if not attacker:
                ws = Socket(port, path, new_address())
                ws.send_json({"type": "hello", "token": token})
                assert ws.receive_json()["type"] == "welcome"
                attacker.append(ws)
            return attacker[0]

        @SETTINGS
        @given(size=st.integers(48, limit + WS_FRAME_SLACK + 8192),
               kind=st.sampled_from(["ping", "hello", "action"]))
        def attack(size: int, kind: str) -> None:
            ws = greeted()
            ws.connection.send(sized(size, kind))
            if size > limit + WS_FRAME_SLACK:  # past uvicorn's cap: closed unread
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        ws.receive_json()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
                attacker.clear()
            else:
                ws.send_json({"type": "ping"})
                answers = []
                while (frame := ws.receive_json())["type"] != "pong":
                    if frame["type"] == "error":
                        answers.append(frame["code"])
                too_large = ["message.too_large"]
                assert (answers == too_large) == (size > limit), (size, kind, answers)
                assert len(answers) == 1, (size, kind, answers)  # refused, not played
            honest.move()

        attack()


# -- floods of sockets ---------------------------------------------------------------
def test_sockets_past_an_addresss_share_are_refused_at_once(tmp_path: Any) -> None:
    with server_with_honest_player(tmp_path) as (port, honest, app):
        held = app.state.lobby.addresses.sockets
        made = create(port, new_address()).json()
        path = f"/ws/tables/{made['table']['id']}"

        @SETTINGS
        @given(count=st.integers(1, 3 * SOCKETS_PER_ADDRESS), greet=st.booleans())
        def attack(count: int, greet: bool) -> None:
            address = new_address()
            opened: list[Socket] = []
            try:
                for n in range(count):
                    if n < SOCKETS_PER_ADDRESS:
                        opened.append(Socket(port, path, address))
                        if greet:
                            opened[-1].send_json({"type": "hello"})
                            assert opened[-1].receive_json()["type"] == "welcome"
                        continue
                    # Refused before the upgrade: no socket, nothing held.
                    with pytest.raises(InvalidStatus) as refused:
                        Socket(port, path, address)
                    assert refused.value.response.status_code == 403
                honest.move()
            finally:
                for ws in opened:
                    ws.close()
            # Closed, they are given back (once the server has seen each close): the
            # address may open as many again.
            deadline = time.monotonic() + 10
            while held.get(address):
                assert time.monotonic() < deadline, held
                time.sleep(0.01)
            again = [Socket(port, path, address) for _ in range(min(count, SOCKETS_PER_ADDRESS))]
            for ws in again:
                ws.close()

        attack()


# -- forwarded headers ---------------------------------------------------------------
forged = st.one_of(
    st.ip_addresses().map(str),
    st.lists(st.ip_addresses().map(str), min_size=2, max_size=4).map(", ".join),
    st.sampled_from(["unknown", "", "a b", "127.0.0.1", "::1", "1.2.3.4:80", "x" * 300]))


def test_forwarded_addresses_count_only_from_a_trusted_proxy(tmp_path: Any) -> None:
    with server_with_honest_player(tmp_path, trusted_proxies=["127.0.0.1"]) as (port, honest, _):

        @FEWER
        @given(headers=st.lists(forged, min_size=TABLES_PER_ADDRESS + 1,
                                max_size=TABLES_PER_ADDRESS + 1))
        def from_a_client(headers: list[str]) -> None:
            """Not the proxy: one address, whatever each request says it forwards."""
            address = new_address()
            statuses = [create(port, address, {"X-Forwarded-For": header}).status_code
                        for header in headers]
            assert statuses == [201] * TABLES_PER_ADDRESS + [429], (headers, statuses)
            honest.move()

        from_a_client()

        @FEWER
        @given(forwarded=st.ip_addresses(v=4).map(str).filter(
            lambda a: not a.startswith("127.")))
        def from_the_proxy(forwarded: str) -> None:
            """The proxy: each client it forwards has its own share."""
            statuses = [create(port, "127.0.0.1", {"X-Forwarded-For": forwarded}).status_code
                        for _ in range(TABLES_PER_ADDRESS + 1)]
            assert statuses.count(201) <= TABLES_PER_ADDRESS, (forwarded, statuses)
            assert statuses[-1] == 429, (forwarded, statuses)
            honest.move()

        from_the_proxy()


# -- idle and slow connections ---------------------------------------------------------
def closed_by_server(raw: socket.socket, wait_s: float) -> bool:
    """Whether the server closed ``raw`` (within ``wait_s``), sending nothing."""
    raw.settimeout(wait_s)
    try:
        return raw.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:  # reset: closed at once
        return True


def test_an_address_holds_a_bounded_number_of_connections_and_silent_ones_close(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 38: 8,300 slow connections from one address made the server unreachable for
    everyone. Past its share an address's connections are cut at once, and one that says
    nothing is closed after the head's time limit; the honest player plays on."""
    monkeypatch.setattr(BoundedHttpTools, "head_timeout_s", 1.5)
    with server_with_honest_player(tmp_path, max_connections_per_client=20) as (
            port, player, _):
        attacker = new_address()
        held = [socket.create_connection(("127.0.0.1", port), timeout=10,
                                         source_address=(attacker, 0)) for _ in range(25)]
        try:
            assert [closed_by_server(raw, 0.3) for raw in held[20:]] == [True] * 5
            player.move()  # the honest player is served meanwhile
            assert create(port, new_address()).status_code == 201
            # A slow head, a byte at a time, is cut at the limit like a silent one.
            held[0].sendall(b"GET /healthz HTTP/1.1\r\n")
            assert all(closed_by_server(raw, 5) for raw in held[:20])
            # Its connections gone, the address is served again.
            assert raw_answer(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
                              attacker).startswith(b"HTTP/1.1 200")
        finally:
            for raw in held:
                raw.close()
