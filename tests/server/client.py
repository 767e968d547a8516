"""A scripted protocol client for tests: create tables, connect, play to the end; and a
real ``twintable serve`` in a subprocess for tests that need one."""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from twintable.server.app import create_app
from twintable.server.settings import Settings


def app_client(db_url: str, address: str = "testclient", **settings: Any) -> TestClient:
    """An app with instant bots; scripted clients are fast, so the rate limit is raised
    unless a test sets it; bots send no quick reactions unless a test asks (a chat frame
    could come between two frames a test reads in order). ``address``: where its
    requests come from (TestClient's own name for it by default, which is no IP
    address)."""
    settings.setdefault("messages_per_second", 10_000.0)
    settings.setdefault("message_burst", 10_000)
    settings.setdefault("client_messages_per_second", 10_000.0)
    settings.setdefault("client_message_burst", 10_000)
    settings.setdefault("bot_delay_ms", 0)
    settings.setdefault("bot_reactions", False)
    # Every test's people come from one address.
    settings.setdefault("profiles_per_minute", 100_000)
    settings.setdefault("max_seats_per_client", 100_000)
    return TestClient(create_app(Settings(db_url=db_url, **settings)), client=(address, 50000))


def profile(client: TestClient, name: str = "Ann") -> dict[str, str]:
    """A new player profile, as the fields a create or join request carries."""
    response = client.post("/api/profiles", json={"display_name": name})
    assert response.status_code == 201, response.text
    made = response.json()
    return {"player_id": made["player_id"], "player_secret": made["secret"]}


def create_table(client: TestClient, game: str = "timo", players: int = 2,
                 options: dict[str, Any] | None = None, seats: list[dict[str, Any]] | None = None,
                 identity: dict[str, str] | None = None, name: str = "Ann",
                 grace_s: int | None = None) -> dict[str, Any]:
    """A new table; ``identity``: a profile's fields (see :func:`profile`) to be rated;
    ``grace_s``: how long a person may be away before a stand-in plays for them."""
    body: dict[str, Any] = {"game": game, "players": players, "display_name": name,
                            "options": options or {}, **(identity or {})}
    if seats is not None:
        body["seats"] = seats
    if grace_s is not None:
        body["grace_s"] = grace_s
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


class Player:
    """Acts like a careful client: one action in flight at a time, always against the
    newest view; a refused action (stale after someone else's move, rate limited) is
    simply followed by a fresh choice from the newest view. ``limit``: the most moves it
    has acknowledged; none is sent after that many acks (a test that stops after so many
    moves must not leave one more in flight: the last ack feeds the player, which would
    answer the newest view with another move). A refused move does not count."""

    def __init__(self, send: Callable[[dict[str, Any]], None],
                 choose: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None,
                 limit: int | None = None):
        self.send = send
        self.limit = limit
        self.choose: Callable[[dict[str, Any]], dict[str, Any] | None] = (
            choose or (lambda view: view["legal"][0]))
        self.latest: dict[str, Any] | None = None
        self.in_flight = False
        self.sent = 0
        self.acked_seq = 0
        self.acks = 0

    def feed(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind in ("snapshot", "event"):
            self.latest = frame
        elif kind in ("ack", "error") and (frame.get("id") or "").startswith("p"):
            self.in_flight = False
            if kind == "ack":
                self.acks += 1
                self.acked_seq = max(self.acked_seq, frame["seq"])
            elif frame["code"] == "rate.limited":
                time.sleep(0.05)
        self.act()

    def act(self) -> None:
        frame = self.latest
        if self.in_flight or frame is None or is_over(frame["view"]) \
                or (self.limit is not None and self.acks >= self.limit):
            return
        if frame["view"]["legal"]:
            action = self.choose(frame["view"])
            if action is None:
                return  # nothing worth doing yet: wait for the table to change
            self.sent += 1
            self.in_flight = True
            self.send({"type": "action", "id": f"p{self.sent}", "version": frame["version"],
                       "kind": action["kind"], "payload": action["payload"]})


def play_to_end(ws: WebSocketTestSession,
                choose: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None,
                max_frames: int = 20_000,
                seen: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Play until the game ends; returns every frame received. ``seen``: frames the caller
    already read from this connection (the player starts from the newest view in them)."""
    player = Player(ws.send_json, choose)
    for frame in seen or []:
        if frame["type"] in ("snapshot", "event"):
            player.latest = frame
    player.act()
    frames: list[dict[str, Any]] = []
    for _ in range(max_frames):
        frame = ws.receive_json()
        frames.append(frame)
        if frame["type"] == "table" and frame["table"]["status"] == "finished":
            return frames
        player.feed(frame)
    raise AssertionError("the game did not end")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def free_port_run(count: int) -> int:
    """The first of ``count`` consecutive free ports, for ``serve --workers`` (its workers
    take the ports right after the shared one). Chosen below the kernel's ephemeral range:
    there, any outgoing connection of a test (a browser's, a client's) may take the port
    after a free one at any moment, and a worker left without its own port never became
    ready in CI."""
    ranges = Path("/proc/sys/net/ipv4/ip_local_port_range")
    low = int(ranges.read_text().split()[0]) if ranges.exists() else 32768
    rng = random.Random()
    for _ in range(200):
        first = rng.randrange(10_000, low - count)
        sockets = []
        try:
            for port in range(first, first + count):
                sock = socket.socket()
                sockets.append(sock)
                sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        finally:
            for sock in sockets:
                sock.close()
        return first
    raise RuntimeError(f"no {count} free ports in a row below {low}")


@contextmanager
def running_server(db_url: str, port: int, log: Path | None = None,
                   extra_args: tuple[str, ...] = ()) -> Iterator[subprocess.Popen[bytes]]:
    output = log.open("wb") if log else subprocess.DEVNULL
    process = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db", db_url,
         "--bot-delay-ms", "0", "--log-level", "info" if log else "warning", *extra_args],
        stdout=output, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx2.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                    break
            except httpx2.HTTPError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not start")
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=20)


def until(condition: Callable[[], bool], timeout_s: float = 30.0) -> None:
    """Wait until ``condition()`` holds (it is something the app's thread does), or fail."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the condition did not come about in time")
        time.sleep(0.01)
