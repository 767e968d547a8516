"""Limits at the HTTP server (``server/transport.py``), against a real ``twintable serve``:
frames and headers refused before they are read whole, forwarded headers believed only
from a trusted proxy, the descriptor limit checked."""

from __future__ import annotations

import asyncio
import json
import re
import socket
from pathlib import Path

import httpx2
import pytest
import websockets

from tests.server.client import app_client, free_port, running_server
from twintable.server.transport import MAX_HEAD_BYTES, WANTED_DESCRIPTORS, descriptor_warning


def test_a_huge_frame_closes_the_socket_before_it_is_read(sqlite_url: str) -> None:
    port = free_port()
    with running_server(sqlite_url, port):
        table_id = httpx2.post(f"http://127.0.0.1:{port}/api/tables", json={
            "game": "timo", "players": 2, "display_name": "Ann"}).json()["table"]["id"]

        async def send_huge() -> int | None:
            async with websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
                await ws.send(json.dumps({"type": "hello", "key": "x" * 1_000_000}))
                with pytest.raises(websockets.ConnectionClosed):
                    await asyncio.wait_for(ws.recv(), 5)
                return ws.close_code

        assert asyncio.run(send_huge()) == 1009  # message too big


def _raw_request(port: int, head: bytes) -> bytes:
    """What the server answers ``head`` with, until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        raw.sendall(head)
        answer = b""
        while chunk := raw.recv(65536):
            answer += chunk
        return answer


def test_huge_request_headers_are_refused(sqlite_url: str) -> None:
    port = free_port()
    with running_server(sqlite_url, port):
        # A little over the cap, and never ended: all of it is read before the refusal.
        over = MAX_HEAD_BYTES + 1024
        huge = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * over
        assert _raw_request(port, huge).startswith(b"HTTP/1.1 431")
        assert _raw_request(port, b"GET /healthz?" + b"q" * over).startswith(b"HTTP/1.1 431")
        normal = b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        assert _raw_request(port, normal).startswith(b"HTTP/1.1 200")


def _creates_with_forged_addresses(port: int, count: int) -> list[int]:
    return [httpx2.post(f"http://127.0.0.1:{port}/api/tables",
                        headers={"X-Forwarded-For": f"203.0.113.{n}"},
                        json={"game": "timo", "players": 2, "display_name": "Ann"}
                        ).status_code for n in range(count)]


def test_forwarded_addresses_are_believed_only_from_a_trusted_proxy(
        sqlite_url: str, tmp_path: Path) -> None:
    port = free_port()
    with running_server(sqlite_url, port):
        statuses = _creates_with_forged_addresses(port, 21)
    assert statuses == [201] * 20 + [429]  # one address, whatever the header says
    port = free_port()
    with running_server(f"sqlite+aiosqlite:///{tmp_path / 'behind-a-proxy.sqlite3'}", port,
                        extra_args=("--trusted-proxy", "127.0.0.1")):
        assert _creates_with_forged_addresses(port, 21) == [201] * 21


def test_few_file_descriptors_are_warned_about() -> None:
    warning = descriptor_warning(1024, 1024)
    assert warning is not None and "1024" in warning
    assert descriptor_warning(WANTED_DESCRIPTORS, WANTED_DESCRIPTORS) is None


def test_invite_keys_stay_out_of_the_server_log(sqlite_url: str, tmp_path: Path) -> None:
    port, log = free_port(), tmp_path / "server.log"
    secret = "k3y-that-must-not-be-logged"
    with running_server(sqlite_url, port, log=log):
        made = httpx2.post(f"http://127.0.0.1:{port}/api/tables", json={
            "game": "timo", "players": 2, "display_name": "Ann", "private": True}).json()
        table_id = made["table"]["id"]
        httpx2.get(f"http://127.0.0.1:{port}/api/tables/{table_id}?key={secret}")

        async def knock() -> None:
            async with websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/tables/{table_id}?key={secret}") as ws:
                await ws.send(json.dumps({"type": "hello", "key": secret}))
                await asyncio.wait_for(ws.recv(), 5)

        asyncio.run(knock())
    written = log.read_text()
    assert f"/api/tables/{table_id}?key=" in written  # the request is logged...
    assert secret not in written  # ...without its key


def test_the_api_pages_are_served_only_when_asked_for(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        assert client.get("/docs").status_code == 404
        assert client.get("/redoc").status_code == 404
        assert client.get("/openapi.json").status_code == 200
    with app_client(sqlite_url, api_docs=True) as client:
        assert client.get("/docs").status_code == 200
        # The CDN and inline scripts are allowed on the API pages alone.
        assert "cdn.jsdelivr.net" in client.get("/redoc").headers["content-security-policy"]
        for path in ("/", "/openapi.json", "/api/games", "/docs/x"):
            policy = client.get(path).headers["content-security-policy"]
            assert "script-src 'self';" in policy and "cdn" not in policy, (path, policy)


def test_each_request_on_a_kept_alive_connection_has_the_whole_head_allowance(
        sqlite_url: str) -> None:
    """The head is counted before it is parsed (a whole head in one read used to pass
    uncounted); a body is not head, and the next request's head is counted afresh."""
    port = free_port()
    with running_server(sqlite_url, port):
        pad = b"a" * (MAX_HEAD_BYTES * 3 // 4)
        body = b'{"display_name": "' + b"\r\n\r\n" * 5000 + b'"}'
        requests = (b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + pad + b"\r\n\r\n"
                    + b"POST /api/profiles HTTP/1.1\r\nHost: x\r\nContent-Type: "
                    b"application/json\r\nContent-Length: " + str(len(body)).encode()
                    + b"\r\n\r\n" + body
                    + b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Pad: "
                    + pad + b"\r\n\r\n")
        answers = re.findall(rb"HTTP/1\.1 (\d{3})", _raw_request(port, requests))
        assert answers == [b"200", b"422", b"200"], answers  # the body is bad JSON
