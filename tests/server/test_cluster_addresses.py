"""Where several workers send their clients (#29 Low 11), against real workers and Redis:
``moved`` and the page's policy name each worker's configured address whatever Host
header a request carries, and a private table's worker is named only to whoever shows
its invite key or a seat's token."""

from __future__ import annotations

import json
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from tests.server.client import free_port_run
from tests.server.test_cluster_faults import (  # noqa: F401 (fixtures)
    Worker,
    database,
    services,
    workers,
)
from tests.server.test_cluster_serve import children

EVIL = "evil.example"


def first_answer(port: int, path: str, hello: dict[str, Any],
                 host: str | None = EVIL) -> dict[str, Any]:
    """The first frame answering ``hello`` on a WebSocket to ``path`` whose request
    carries ``host`` as its only Host header."""
    protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}{path}"))
    request = protocol.connect()
    if host is not None:
        del request.headers["Host"]
        request.headers["Host"] = host
    protocol.send_request(request)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:

        def exchange() -> None:
            for data in protocol.data_to_send():
                if data:
                    sock.sendall(data)
            if protocol.state is not State.CLOSED:
                received = sock.recv(65536)
                if received:
                    protocol.receive_data(received)
                else:
                    protocol.receive_eof()

        while protocol.state is State.CONNECTING:
            exchange()
        assert protocol.handshake_exc is None, protocol.handshake_exc
        protocol.send_text(json.dumps(hello).encode())
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            for event in protocol.events_received():
                if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                    return json.loads(event.data)  # type: ignore[no-any-return]
            assert protocol.state is not State.CLOSED, "closed without an answer"
            exchange()
    raise AssertionError("no answer")


def test_moved_names_the_workers_own_port_on_the_public_host(
        database: str, tmp_path: Path) -> None:  # noqa: F811 (the fixture)
    """``serve --workers 2``: each worker's own port, on the host of ``--public-url``."""
    port = free_port_run(3)
    own_ports = [port + 1, port + 2]
    log = tmp_path / "serve.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve", "--workers", "2", "--port",
         str(port), "--db", database, "--redis", "redis://127.0.0.1:6379/13",
         "--redis-prefix", f"tt-test-{secrets.token_hex(4)}:", "--bot-delay-ms", "15",
         "--public-url", f"http://localhost:{port}", "--log-level", "info"],
        stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 40
        while not (len(children(process.pid)) >= 2
                   and all(Worker(own, log, process).ready() for own in own_ports)):
            assert process.poll() is None, log.read_text()[-2000:]
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.2)
        policy = httpx2.get(f"http://127.0.0.1:{port}/", headers={"Host": EVIL}
                            ).headers["content-security-policy"]
        assert EVIL not in policy, policy
        assert all(f"ws://localhost:{own}" in policy for own in own_ports), policy
        # Two tables: the second is made on the worker running fewer.
        tables = [httpx2.post(f"http://127.0.0.1:{own}/api/tables", json={
            "game": "timo", "players": 2, "display_name": "Ann"}).json()
            for own in own_ports]
        sent = []
        for table in tables:
            path = f"/ws/tables/{table['table']['id']}"
            for own in own_ports:
                answer = first_answer(own, path, {"type": "hello", "token": table["token"],
                                                  "redirects": True})
                assert answer["type"] in ("welcome", "moved"), answer
                if answer["type"] == "moved":
                    other = next(o for o in own_ports if o != own)
                    assert answer["url"] == f"ws://localhost:{other}{path}", answer
                    sent.append(answer["url"])
        assert len(sent) == 2, sent  # each table's other worker sent its client on
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_a_private_tables_worker_is_named_only_to_who_may_open_it(
        database: str, tmp_path: Path) -> None:  # noqa: F811 (the fixture)
    """Single workers behind a proxy (``--advertise-url /w``): sent to the proxy's path
    on the public address, once the hello shows the key or a seat's token."""
    public = "http://proxy.test:8100"
    with workers(database, "redis://127.0.0.1:6379/13", tmp_path,
                 extra=("--advertise-url", "/w", "--public-url", public)) as pair:
        made = httpx2.post(f"{pair[0].base}/api/tables", json={
            "game": "timo", "players": 3, "display_name": "Ann", "private": True}).json()
        running = [w for w in pair if httpx2.get(f"{w.base}/readyz").json()["tables"] == 1]
        assert len(running) == 1, "exactly one worker runs the table"
        other = next(w for w in pair if w is not running[0])
        path = f"/ws/tables/{made['table']['id']}"
        sent_to = f"ws://proxy.test:8100/w{path}"
        for shown in ({}, {"key": "guess"}, {"token": "not-a-seat-token-at-all"}):
            answer = first_answer(other.port, path,
                                  {"type": "hello", "redirects": True, **shown})
            assert answer["type"] == "error", (shown, answer)
            assert answer["code"] in ("table.private", "auth.invalid"), (shown, answer)
        for shown in ({"key": made["key"]}, {"token": made["token"]}):
            for host in (EVIL, None):
                answer = first_answer(other.port, path,
                                      {"type": "hello", "redirects": True, **shown}, host)
                assert answer == {"type": "moved", "url": sent_to}, (shown, host, answer)
