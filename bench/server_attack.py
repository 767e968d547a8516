"""Benchmark: honest tables while two attackers try each attack of issues #16 and #29, on
one server and on two workers (PostgreSQL + Redis), in one run.

Honest people: four Timo tables of four, every seat a WebSocket of its own from an
address of its own (127.1.<run>.<n>: loopback answers the whole 127/8), playing at a set
pace (open loop: the move at version v is due at start + v x interval) and, like the
browser, reconnecting after a drop and resending an unanswered move with its id. On two
workers half the seats connect to each worker without following redirects, so they are
served through the table's worker over Redis. The servers keep their default
per-address limits: every attacker is an address of its own (127.2.<run>.<n>).

Each mode runs once without attackers, then once per attack, each on fresh tables:

- ``hostile-frames``: hostile JSON on the attacker's own table (NaN, lone surrogates, deep
  nesting, 15 KB strings, NUL ids, 5,000-digit numbers, binary), a clean move every fifth;
- ``huge-frames``: at the honest tables' sockets, on the worker that does not run them
  where there are two (#29 High 1): frames over the protocol's 16 KiB, then 16 MiB ones;
- ``table-flood``: create, join and start tables with an hour's grace, as fast as answered
  (#29 High 2);
- ``socket-flood``: idle sockets that never say hello, reopened as they close (Medium 5);
- ``message-flood``: 60 spectator sockets each pinging 20 times a second (Medium 5);
- ``big-headers``: requests with a 1 MiB header, four at a time (Medium 4);
- ``forged-xff``: creates with a forged X-Forwarded-For each (Medium 6);
- ``rematch-flood``: games against a bot that a stand-in ends at once, each followed by
  Play again, the rematches left waiting (#38 High): "rematch 200" counts the tables
  it holds, which must stay within the address's share (20 by default);
- ``seat-squat``: every free seat of every public table waiting, joined as fast as
  answered (#38 Medium): "join 200" must stay within the address's seats (12);
- ``profile-flood``: profiles made as fast as answered (#38 Low): "profile 201" must
  stay within the address's 30 a minute;
- ``slow-connections``: HTTP connections opened as fast as taken, each sending its head a
  byte a second (#38 Medium): "held" must stay within the address's 128 connections,
  and each is closed when its head is late (10 s);
- ``pipelined-headers``: a small request with a 1 MiB head pipelined behind it, four at a
  time (#38 Low): every answer 431;
- ``bus-flood``: valid-looking 15 KB moves on the attacker's own table, sent as fast as
  taken through every server (on two workers, half through the one that does not run
  the table, over Redis) (#38 Medium): the owner's subscription is never cut;
- ``replay-flood``: the replay of a finished game, its views and pages, asked 16 at a
  time (#38 Medium): answered or refused 429, never blocking the others.

Each run also asks every server's ``/healthz`` ten times a second from an address of
its own and prints the answer times' 99th percentile (target: <= 100 ms).

For each it prints the honest acknowledged moves against the run without attackers
(target: >= 95%), stalled honest tables (5 s or more without an ack at any time; target
0), honest moves never answered (target 0), honest reconnects, the servers' memory (RSS
of every server process, the peak during the run over the figure before it; target <=
300 MB), the servers' CPU seconds, the machine's load average and what the attackers
got. Attackers run in processes of their own on the same machine, at a lower priority
(nice +8), standing for machines of their own: what they cost the servers shows in the
servers' CPU and the honest figures; on a small shared machine what other work takes
shows in the load average (compare with the run without attackers).

Usage: python bench/server_attack.py [--seconds 10] [--rate 40] [--modes single,workers]
       [--attacks hostile-frames,...] [--attackers 2] [--db postgresql+asyncpg://postgres@127.0.0.1/test]
       [--redis redis://127.0.0.1:6379/0]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from server_workers import drop_redis_keys, scratch_database

HONEST_TABLES = 4
TARGET_RATIO, TARGET_MEMORY_MB = 0.95, 300.0
STALL_S = 5.0
TICKS = os.sysconf("SC_CLK_TCK")
#: How much lower the attackers' processes run than the rest (see attack_process).
ATTACKER_NICE = 8
ATTACKS = ("hostile-frames", "huge-frames", "table-flood", "socket-flood", "message-flood",
           "big-headers", "forged-xff", "rematch-flood", "seat-squat", "profile-flood",
           "slow-connections", "pipelined-headers", "bus-flood", "replay-flood")
TARGET_HEALTH_P99_MS = 100.0


# -- servers ----------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def platform(mode: str, args: argparse.Namespace, scratch: str
             ) -> Iterator[list[tuple[str, subprocess.Popen[bytes]]]]:
    """(base URL, process) of each server: one on SQLite (or --db), or two workers on a
    scratch PostgreSQL database and a Redis prefix of their own. Default limits."""
    common = ["--bot-delay-ms", "0", "--log-level", "warning"]
    with contextlib.ExitStack() as stack:
        if mode == "single":
            commands = [["--db", args.db_single or f"sqlite:///{scratch}/attack.sqlite3"]]
        else:
            db = stack.enter_context(scratch_database(
                args.db, f"tt_attack_{secrets.token_hex(4)}", True))
            prefix = f"tt-attack-{secrets.token_hex(4)}:"
            stack.callback(drop_redis_keys, args.redis, prefix)
            commands = [["--db", db, "--redis", args.redis, "--redis-prefix", prefix]] * 2
        servers = []
        for n, command in enumerate(commands):
            port = free_port()
            log = open(f"{scratch}/{mode}{n}.log", "wb")  # noqa: SIM115 (closed below)
            stack.callback(log.close)
            process = subprocess.Popen(
                [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port),
                 *command, *common], stdout=log, stderr=subprocess.STDOUT)
            stack.callback(stop, process)
            servers.append((f"http://127.0.0.1:{port}", process))
        deadline = time.monotonic() + 60
        for base, _ in servers:
            while True:
                with contextlib.suppress(httpx2.HTTPError):
                    if httpx2.get(f"{base}/readyz").status_code == 200:
                        break
                assert time.monotonic() < deadline, "a server did not start"
                time.sleep(0.2)
        yield servers


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def cpu_s(pids: list[int]) -> float:
    """User + system CPU seconds of these processes so far."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            stat = Path(f"/proc/{pid}/stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            total += int(fields[11]) + int(fields[12])
    return total / TICKS


# -- honest people ----------------------------------------------------------------------
def open_honest_tables(bases: list[str], run: int) -> list[tuple[str, str, str]]:
    """Started Timo tables of four people, each seat made from an address of its own:
    (table, seat token, address) of every seat."""
    seats = []

    def post(base: str, path: str, address: str, **kwargs: Any) -> Any:
        with httpx2.Client(base_url=base, timeout=30, transport=httpx2.HTTPTransport(
                local_address=address)) as http:
            answer = http.post(path, **kwargs)
        assert answer.status_code < 300, answer.text
        return answer.json()

    for table in range(HONEST_TABLES):
        base = bases[table % len(bases)]
        address = f"127.1.{run}.{4 * table + 1}"
        made = post(base, "/api/tables", address, json={
            "game": "timo", "players": 4, "display_name": "P0", "grace_s": 3600,
            "options": {"target": 100_000}, "seats": [{"kind": "human"}] * 4})
        table_id = made["table"]["id"]
        seats.append((table_id, made["token"], address))
        for n in range(1, 4):
            address = f"127.1.{run}.{4 * table + 1 + n}"
            other = post(base, f"/api/tables/{table_id}/join", address,
                         json={"display_name": f"P{n}"})
            seats.append((table_id, other["token"], address))
        post(base, f"/api/tables/{table_id}/start", f"127.1.{run}.{4 * table + 1}",
             headers={"Authorization": f"Bearer {made['token']}"})
    return seats


async def honest_seat(ws_url: str, table_id: str, token: str, address: str, start: float,
                      until: float, interval: float, out: dict[str, Any]) -> None:
    """Play one seat to ``until``, reconnecting after a drop and resending a move left
    unanswered (same id): what the browser client does."""
    latest: dict[str, Any] | None = None
    pending: dict[str, Any] | None = None
    sent_at = 0.0
    counter = 0
    while time.monotonic() < until:
        try:
            async with connect(f"{ws_url}/ws/tables/{table_id}", max_size=2**22,
                               local_addr=(address, 0), open_timeout=5) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                if pending is not None:
                    await ws.send(json.dumps(pending))
                while True:
                    left = until - time.monotonic()
                    if left <= 0:
                        break
                    with contextlib.suppress(TimeoutError):
                        frame = json.loads(await asyncio.wait_for(ws.recv(), left))
                        kind = frame["type"]
                        if kind in ("snapshot", "event"):
                            latest = frame
                        elif kind in ("ack", "error") and pending is not None \
                                and frame.get("id") == pending["id"]:
                            if kind == "ack":
                                out["acks"] += 1
                                out["ack_times"].setdefault(table_id, []).append(
                                    time.monotonic())
                            else:
                                out["refused"][frame["code"]] += 1
                            pending = None
                        elif kind == "error":
                            out["refused"][frame["code"]] += 1
                    if pending is None and latest is not None and latest["view"]["legal"]:
                        due = max(start + latest["version"] * interval, sent_at + 1 / 19)
                        if due > time.monotonic():
                            await asyncio.sleep(min(due, until) - time.monotonic())
                        if time.monotonic() >= until:
                            break
                        action = latest["view"]["legal"][0]
                        counter += 1
                        pending = {"type": "action", "id": f"h{counter}",
                                   "version": latest["version"], "kind": action["kind"],
                                   "payload": action["payload"]}
                        sent_at = time.monotonic()
                        await ws.send(json.dumps(pending))
                        latest = None
        except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake):
            out["reconnects"] += 1
            await asyncio.sleep(0.2)
    if pending is not None and time.monotonic() - sent_at > STALL_S:
        out["unanswered"] += 1


# -- attackers --------------------------------------------------------------------------
def hostile_frames(move: dict[str, Any], version: int, n: int) -> list[str | bytes]:
    """One cycle of hostile frames, made from the attacker's current legal move."""
    legal = json.dumps({"type": "action", "id": f"x{n}", "version": version,
                        "kind": move["kind"], "payload": move["payload"]})

    def extra(value: str) -> str:
        payload = json.dumps(move["payload"])
        inner = payload[1:-1]
        with_extra = "{" + (inner + ", " if inner else "") + f'"x": {value}}}'
        return legal.replace(f'"payload": {payload}', f'"payload": {with_extra}')

    return [extra("NaN"), extra('"\\ud800"'), extra("[" * 450 + "]" * 450),
            extra('"' + "y" * 15_000 + '"'),
            legal.replace(f'"id": "x{n}"', f'"id": "x{n}\\u0000"'),
            '{"type": "ping", "n": ' + "9" * 5_000 + "}", "[" * 5_000 + "]" * 5_000,
            os.urandom(64)]


class Attacker:
    """One attacker: an address of its own, the servers, the honest tables' ids."""

    def __init__(self, address: str, bases: list[str], targets: list[str], until: float,
                 out: Counter[str]):
        self.address, self.bases, self.targets = address, bases, targets
        self.until, self.out = until, out
        self.ws_bases = [base.replace("http", "ws", 1) for base in bases]

    def live(self) -> bool:
        return time.monotonic() < self.until

    def http(self, n: int = 0) -> httpx2.AsyncClient:
        return httpx2.AsyncClient(
            base_url=self.bases[n % len(self.bases)], timeout=10,
            transport=httpx2.AsyncHTTPTransport(local_address=self.address))

    async def socket(self, n: int, table_id: str) -> Any:
        """A socket to ``table_id`` at server ``n`` (modulo their number)."""
        return await connect(f"{self.ws_bases[n % len(self.ws_bases)]}/ws/tables/{table_id}",
                             local_addr=(self.address, 0), max_size=2**22, open_timeout=5)

    async def own_table(self) -> tuple[str, str]:
        """A started Timo table of the attacker's own, for a long game: (id, seat token)."""
        async with self.http() as http:
            made = (await http.post("/api/tables", json={
                "game": "timo", "players": 2, "display_name": "Mallory", "grace_s": 3600,
                "options": {"target": 100_000}})).json()
            await http.post(f"/api/tables/{made['table']['id']}/start",
                            headers={"Authorization": f"Bearer {made['token']}"})
        return made["table"]["id"], made["token"]

    async def hostile_frames(self) -> None:
        table_id, token = await self.own_table()
        await asyncio.gather(*(self._hostile(n, table_id, token) for n in range(2)))

    async def _hostile(self, n: int, table_id: str, token: str) -> None:
        latest: dict[str, Any] = {"version": 0, "view": {"legal": []}}
        while self.live():
            try:
                async with await self.socket(n, table_id) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token}))

                    async def read() -> None:
                        nonlocal latest
                        async for text in ws:
                            frame = json.loads(text)
                            if frame["type"] in ("snapshot", "event"):
                                latest = frame
                            elif frame["type"] in ("ack", "error", "pong"):
                                self.out[frame.get("code") or frame["type"]] += 1

                    reader = asyncio.create_task(read())
                    sent = 0
                    while self.live():
                        legal = latest["view"]["legal"]
                        move = legal[0] if legal else {"kind": "draw", "payload": {}}
                        cycle = hostile_frames(move, latest["version"], sent)
                        frame = cycle[sent % len(cycle)]
                        if sent % 5 == 4:
                            frame = json.dumps({"type": "action", "id": f"c{sent}",
                                                "version": latest["version"],
                                                "kind": move["kind"],
                                                "payload": move["payload"]})
                        sent += 1
                        await ws.send(frame)
                        await asyncio.sleep(1 / 18)
                    reader.cancel()
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake) as error:
                self.out[f"closed: {type(error).__name__}"] += 1
                await asyncio.sleep(0.1)

    async def huge_frames(self) -> None:
        await asyncio.gather(*(self._huge(n) for n in range(4)))

    async def _huge(self, n: int) -> None:
        tries = 0
        while self.live():
            # Every table at every worker: on two, half of it at the one not running it.
            tries += 1
            table_id = self.targets[(n + tries // 2) % len(self.targets)]
            try:
                async with await self.socket(n + tries, table_id) as ws:
                    for _ in range(3):
                        await ws.send(json.dumps({"type": "hello", "key": "x" * 19_000}))
                        frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
                        self.out[frame.get("code") or frame["type"]] += 1
                    await ws.send("x" * (16 * 2**20))
                    await asyncio.wait_for(ws.recv(), 5)
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake) as error:
                code = getattr(getattr(error, "rcvd", None), "code", None)
                self.out[f"closed {code or type(error).__name__}"] += 1

    async def table_flood(self) -> None:
        n = 0
        while self.live():
            n += 1
            async with self.http(n) as http:
                try:
                    made = await http.post("/api/tables", json={
                        "game": "timo", "players": 2, "display_name": "Mallory",
                        "grace_s": 3600, "seats": [{"kind": "human"}] * 2})
                    self.out[f"create {made.status_code}"] += 1
                    if made.status_code != 201:
                        await asyncio.sleep(0.05)
                        continue
                    table_id, token = made.json()["table"]["id"], made.json()["token"]
                    await http.post(f"/api/tables/{table_id}/join",
                                    json={"display_name": "Mallet"})
                    started = await http.post(f"/api/tables/{table_id}/start",
                                              headers={"Authorization": f"Bearer {token}"})
                    self.out[f"start {started.status_code}"] += 1
                except httpx2.HTTPError as error:
                    self.out[type(error).__name__] += 1

    async def socket_flood(self) -> None:
        held: list[Any] = []
        try:
            await asyncio.gather(*(self._idle_sockets(n, held) for n in range(20)))
        finally:
            for ws in held:
                with contextlib.suppress(Exception):
                    await ws.close()

    async def _idle_sockets(self, n: int, held: list[Any]) -> None:
        while self.live():
            try:
                ws = await self.socket(n, self.targets[n // 2 % len(self.targets)])
            except (OSError, TimeoutError, InvalidHandshake) as error:
                self.out[f"refused {type(error).__name__}"] += 1
                await asyncio.sleep(0.05)
                continue
            self.out["opened"] += 1
            held.append(ws)
            if len(held) > 1000:
                await asyncio.sleep(0.5)

    async def message_flood(self) -> None:
        await asyncio.gather(*(self._pings(n) for n in range(60)))

    async def _pings(self, n: int) -> None:
        while self.live():
            try:
                async with await self.socket(
                        n, self.targets[n // 2 % len(self.targets)]) as ws:
                    await ws.send(json.dumps({"type": "hello"}))

                    async def read() -> None:
                        async for text in ws:
                            frame = json.loads(text)
                            if frame["type"] in ("pong", "error"):
                                self.out[frame.get("code") or "pong"] += 1

                    reader = asyncio.create_task(read())
                    while self.live():
                        await ws.send('{"type": "ping"}')
                        await asyncio.sleep(1 / 20)
                    reader.cancel()
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake) as error:
                self.out[f"closed {type(error).__name__}"] += 1
                await asyncio.sleep(0.2)

    async def big_headers(self) -> None:
        await asyncio.gather(*(self._big_header(n) for n in range(4)))

    async def _big_header(self, n: int) -> None:
        base = self.bases[n % len(self.bases)]
        port = int(base.rsplit(":", 1)[1])
        while self.live():
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(self.address, 0))
                writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
                for _ in range(16):
                    writer.write(b"a" * 65_536)
                    await writer.drain()
                writer.write(b"\r\n\r\n")
                await writer.drain()
                status = (await asyncio.wait_for(reader.readline(), 5)).split(b" ")[1:2]
                self.out[f"status {status[0].decode() if status else '?'}"] += 1
                writer.close()
            except (OSError, TimeoutError) as error:
                self.out[f"cut {type(error).__name__}"] += 1

    async def forged_xff(self) -> None:
        n = 0
        async with self.http() as http:
            while self.live():
                n += 1
                try:
                    made = await http.post("/api/tables", headers={
                        "X-Forwarded-For": f"10.{n % 250}.{n // 250 % 250}.7"}, json={
                        "game": "timo", "players": 2, "display_name": "Mallory"})
                    self.out[f"create {made.status_code}"] += 1
                except httpx2.HTTPError as error:
                    self.out[type(error).__name__] += 1


    async def rematch_flood(self) -> None:
        playing: list[tuple[str, str, int]] = []
        n = 0
        while self.live():
            n += 1
            async with self.http(n) as http:
                try:
                    made = await http.post("/api/tables", json={
                        "game": "timo", "players": 2, "display_name": "Mallory",
                        "grace_s": 0, "options": {"target": 1},
                        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
                    self.out[f"create {made.status_code}"] += 1
                    if made.status_code == 201:
                        table_id, token = made.json()["table"]["id"], made.json()["token"]
                        await http.post(f"/api/tables/{table_id}/start",
                                        headers={"Authorization": f"Bearer {token}"})
                        playing.append((table_id, token, n))
                    for game in list(playing):
                        info = (await http.get(f"/api/tables/{game[0]}")).json()
                        if info.get("status") != "finished":
                            continue
                        playing.remove(game)
                        again = await http.post(f"/api/tables/{game[0]}/rematch",
                                                headers={"Authorization": f"Bearer {game[1]}"})
                        self.out[f"rematch {again.status_code}"] += 1
                except httpx2.HTTPError as error:
                    self.out[type(error).__name__] += 1
            await asyncio.sleep(0.02)


    async def seat_squat(self) -> None:
        n = 0
        async with self.http() as http:
            # Tables for the squatter to find, made by a host of another address.
            async with httpx2.AsyncClient(base_url=self.bases[0], timeout=10) as host:
                for _ in range(6):
                    await host.post("/api/tables", json={
                        "game": "timo", "players": 4, "display_name": "Host",
                        "seats": [{"kind": "human"}] * 4})
            while self.live():
                n += 1
                try:
                    listed = (await http.get("/api/tables?status=open&limit=100")).json()
                    for table in listed:
                        for seat in table["seats"]:
                            if seat["kind"] == "empty" and not seat.get("reserved"):
                                joined = await http.post(
                                    f"/api/tables/{table['id']}/join",
                                    json={"display_name": f"Squat{n}"})
                                self.out[f"join {joined.status_code}"] += 1
                except httpx2.HTTPError as error:
                    self.out[type(error).__name__] += 1
                await asyncio.sleep(0.05)

    async def profile_flood(self) -> None:
        async with self.http() as http:
            while self.live():
                try:
                    made = await http.post("/api/profiles", json={"display_name": "Bot"})
                    self.out[f"profile {made.status_code}"] += 1
                except httpx2.HTTPError as error:
                    self.out[type(error).__name__] += 1

    async def slow_connections(self) -> None:
        held: list[asyncio.StreamWriter] = []
        try:
            await asyncio.gather(self._open_slowly(held), self._drip(held))
        finally:
            for writer in held:
                writer.close()

    async def _open_slowly(self, held: list[asyncio.StreamWriter]) -> None:
        n = 0
        while self.live():
            n += 1
            port = int(self.bases[n % len(self.bases)].rsplit(":", 1)[1])
            try:
                _, writer = await asyncio.wait_for(asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(self.address, 0)), 2)
                writer.write(b"G")
                await writer.drain()
                held.append(writer)
                self.out["opened"] += 1
            except (OSError, TimeoutError) as error:
                self.out[f"refused {type(error).__name__}"] += 1
            if len(held) > 2_000:
                await asyncio.sleep(0.2)
            else:
                await asyncio.sleep(0.002)

    async def _drip(self, held: list[asyncio.StreamWriter]) -> None:
        """A byte a second on every connection; those the server closed are counted."""
        while self.live():
            await asyncio.sleep(1.0)
            for writer in list(held):
                try:
                    if writer.transport.is_closing():
                        raise ConnectionResetError
                    writer.write(b"E")
                    await writer.drain()
                except OSError:
                    held.remove(writer)
                    self.out["closed by the server"] += 1
            self.out["held at most"] = max(self.out["held at most"], len(held))

    async def pipelined_headers(self) -> None:
        await asyncio.gather(*(self._pipelined(n) for n in range(4)))

    async def _pipelined(self, n: int) -> None:
        port = int(self.bases[n % len(self.bases)].rsplit(":", 1)[1])
        small = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        huge = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 2**20 + b"\r\n\r\n"
        while self.live():
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(self.address, 0))
                writer.write(small + huge)
                await writer.drain()
                answers = await asyncio.wait_for(reader.read(), 5)
                for status in (b"200", b"431"):
                    self.out[f"status {status.decode()}"] += answers.count(
                        b"HTTP/1.1 " + status)
                writer.close()
            except (OSError, TimeoutError) as error:
                self.out[f"cut {type(error).__name__}"] += 1

    async def bus_flood(self) -> None:
        table_id, token = await self.own_table()
        await asyncio.gather(*(self._heavy_moves(n, table_id, token) for n in range(4)))

    async def _heavy_moves(self, n: int, table_id: str, token: str) -> None:
        # Under the JSON limits (strings of 2,000 characters at most): read, then forwarded.
        padding = ["y" * 1_900] * 8
        while self.live():
            try:
                async with await self.socket(n, table_id) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token}))

                    async def read() -> None:
                        with contextlib.suppress(ConnectionClosed):
                            async for text in ws:
                                frame = json.loads(text)
                                if frame["type"] in ("ack", "error"):
                                    self.out[frame.get("code") or frame["type"]] += 1

                    reader = asyncio.create_task(read())
                    sent = 0
                    while self.live():
                        sent += 1
                        await ws.send(json.dumps({
                            "type": "action", "id": f"b{n}-{sent}", "version": 0,
                            "kind": "draw", "payload": {"pad": padding}}))
                        self.out["sent"] += 1
                        await asyncio.sleep(0)
                    reader.cancel()
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake) as error:
                code = getattr(getattr(error, "rcvd", None), "code", None)
                self.out[f"closed {code or type(error).__name__}"] += 1
                await asyncio.sleep(0.1)

    async def replay_flood(self) -> None:
        async with self.http() as http:
            made = (await http.post("/api/tables", json={
                "game": "timo", "players": 4, "display_name": "Mallory", "grace_s": 0,
                "options": {"target": 200}, "seats": [{"kind": "human"}] + [
                    {"kind": "bot", "bot": "random"}] * 3})).json()
            table_id = made["table"]["id"]
            await http.post(f"/api/tables/{table_id}/start",
                            headers={"Authorization": f"Bearer {made['token']}"})
            while self.live() and (await http.get(f"/api/tables/{table_id}")
                                   ).json().get("status") != "finished":
                await asyncio.sleep(0.2)
        paths = [f"/api/tables/{table_id}/replay", f"/api/tables/{table_id}/replay/views",
                 f"/api/tables/{table_id}/replay/steps?from=0&count=100"]
        await asyncio.gather(*(self._replays(n, paths) for n in range(16)))

    async def _replays(self, n: int, paths: list[str]) -> None:
        async with self.http(n) as http:
            while self.live():
                try:
                    answer = await http.get(paths[n % len(paths)])
                    self.out[f"replay {answer.status_code}"] += 1
                    if answer.status_code == 429:
                        await asyncio.sleep(0.05)
                except httpx2.HTTPError as error:
                    self.out[type(error).__name__] += 1


def attack_process(attack: str, address: str, bases: list[str], targets: list[str],
                   start: float, seconds: float, results: Any) -> None:
    # Attackers stand for machines of their own: on this one they yield the CPU to the
    # servers and the honest people first (their cost to the servers is still measured).
    os.nice(ATTACKER_NICE)

    async def run() -> Counter[str]:
        out: Counter[str] = Counter()
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        attacker = Attacker(address, bases, targets, start + seconds, out)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds + 5):
                await getattr(attacker, attack.replace("-", "_"))()
        return out

    results.put(("attack", asyncio.run(run())))


def honest_process(ws_bases: list[str], seats: list[tuple[str, str, str]], start: float,
                   seconds: float, interval: float, results: Any) -> None:
    async def run() -> dict[str, Any]:
        out: dict[str, Any] = {"acks": 0, "refused": Counter(), "reconnects": 0,
                               "unanswered": 0, "ack_times": {}}
        await asyncio.gather(*(
            honest_seat(ws_bases[n % len(ws_bases)], table_id, token, address, start,
                        start + seconds, interval, out)
            for n, (table_id, token, address) in enumerate(seats)))
        # Stalled: a table that went STALL_S without an acknowledged move at any time.
        gaps = [max(b - a for a, b in itertools.pairwise(times))
                for times in ([start, *out["ack_times"].get(table_id, []), start + seconds]
                              for table_id in {seat[0] for seat in seats})]
        out["stalled"] = sum(1 for gap in gaps if gap > STALL_S)
        out["longest_gap_s"] = max(gaps)
        del out["ack_times"]
        return out

    results.put(("honest", asyncio.run(run())))


def health_process(bases: list[str], address: str, start: float, seconds: float,
                   results: Any) -> None:
    """Ask every server's /healthz ten times a second (each on a fresh connection, as a
    load balancer's check does): the answer times, in ms, and the checks that failed."""
    async def run() -> dict[str, Any]:
        times: list[float] = []
        failed = 0
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        while time.monotonic() < start + seconds:
            for base in bases:
                began = time.perf_counter()
                try:
                    async with httpx2.AsyncClient(timeout=5, transport=httpx2.AsyncHTTPTransport(
                            local_address=address)) as http:
                        ok = (await http.get(f"{base}/healthz")).status_code == 200
                except httpx2.HTTPError:
                    ok = False
                times.append((time.perf_counter() - began) * 1000)
                failed += not ok
            await asyncio.sleep(0.1)
        times.sort()
        return {"health_p99_ms": times[int(0.99 * (len(times) - 1))] if times else 0.0,
                "health_max_ms": times[-1] if times else 0.0, "health_failed": failed}

    results.put(("health", asyncio.run(run())))


# -- one run ----------------------------------------------------------------------------
def run_once(servers: list[tuple[str, subprocess.Popen[bytes]]], args: argparse.Namespace,
             attack: str | None, run: int) -> dict[str, Any]:
    bases = [base for base, _ in servers]
    ws_bases = [base.replace("http", "ws", 1) for base in bases]
    pids = [process.pid for _, process in servers]
    seats = open_honest_tables(bases, run)
    targets = sorted({seat[0] for seat in seats})
    results: Any = multiprocessing.Queue()
    start = time.monotonic() + 3.0
    interval = HONEST_TABLES / args.rate
    processes = [multiprocessing.Process(target=honest_process, args=(
        ws_bases, seats, start, args.seconds, interval, results)),
        multiprocessing.Process(target=health_process, args=(
            bases, f"127.3.{run}.1", start, args.seconds, results))]
    if attack is not None:
        processes += [multiprocessing.Process(target=attack_process, args=(
            attack, f"127.2.{run}.{n + 1}", bases, targets, start, args.seconds,
            results)) for n in range(args.attackers)]
    before, cpu_before = rss_mb(pids), cpu_s(pids)
    peak = before
    stopped = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not stopped.wait(0.25):
            peak = max(peak, rss_mb(pids))

    sampler = threading.Thread(target=sample)
    sampler.start()
    for process in processes:
        process.start()
    outs: list[tuple[str, Any]] = [results.get() for _ in processes]
    for process in processes:
        process.join()
    stopped.set()
    sampler.join()
    server_cpu = cpu_s(pids) - cpu_before
    honest = next(out for role, out in outs if role == "honest")
    health = next(out for role, out in outs if role == "health")
    attacked: Counter[str] = Counter()
    for role, out in outs:
        if role == "attack":
            attacked.update(out)
    return {"attack": attack or "none", **honest, **health, "memory_mb": peak - before,
            "rss_mb": peak, "attackers": attacked, "server_cpu_s": server_cpu,
            "load": os.getloadavg()[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=40.0,
                        help="honest moves a second offered over the 4 honest tables")
    parser.add_argument("--modes", default="single,workers")
    parser.add_argument("--attacks", default=",".join(ATTACKS))
    parser.add_argument("--attackers", type=int, default=2,
                        help="attacking addresses (a process each), e.g. 12 for the bus "
                             "overflow of issue #38")
    parser.add_argument("--db", default="postgresql+asyncpg://postgres@127.0.0.1:5432/test",
                        help="PostgreSQL server for the two workers (a scratch database "
                             "is made on it)")
    parser.add_argument("--db-single", help="database of the single server (default: a "
                                            "fresh SQLite file)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    attacks = [a for a in args.attacks.split(",") if a]
    unknown = set(attacks) - set(ATTACKS)
    if unknown:
        parser.error(f"unknown attacks {sorted(unknown)}; known: {', '.join(ATTACKS)}")
    print(f"{args.seconds:.0f} s a run, honest {args.rate:.0f} moves/s offered over "
          f"{HONEST_TABLES} tables of 4; load average before: {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    figures: dict[str, list[dict[str, Any]]] = {}
    run = 0
    for mode in args.modes.split(","):
        with tempfile.TemporaryDirectory() as scratch, \
                platform(mode, args, scratch) as servers:
            rows = figures[mode] = []
            for attack in [None, *attacks]:
                run += 1
                rows.append(run_once(servers, args, attack, run))
                report(mode, rows[0], rows[-1])
            logs = b"".join(Path(p).read_bytes() for p in sorted(Path(scratch).glob("*.log")))
        print(f"  {mode} server logs: {logs.count(b'Traceback')} tracebacks")
        if b"Traceback" in logs:
            first = logs.index(b"Traceback")
            print(logs[first:first + 3000].decode(errors="replace"))
    missed = summary(figures)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, default=dict))
    print("every target met" if not missed else f"MISSED: {', '.join(missed)}")


def report(mode: str, base: dict[str, Any], row: dict[str, Any]) -> None:
    ratio = row["acks"] / base["acks"] if base["acks"] else float("nan")
    print(f"{mode:8s} {row['attack']:17s} honest acks {row['acks']:5d} ({ratio:6.1%}), "
          f"stalled {row['stalled']}, unanswered {row['unanswered']}, reconnects "
          f"{row['reconnects']}, longest wait for an ack {row['longest_gap_s']:.1f} s, "
          f"memory +{row['memory_mb']:.0f} MB (peak {row['rss_mb']:.0f} MB), server CPU "
          f"{row['server_cpu_s']:.1f} s, load {row['load']:.1f}, /healthz p99 "
          f"{row['health_p99_ms']:.0f} ms (max {row['health_max_ms']:.0f}, failed "
          f"{row['health_failed']}), refused {dict(row['refused']) or 0}")
    if row["attackers"]:
        print(f"{'':24s} attackers got: {dict(row['attackers'].most_common(6))}")


def summary(figures: dict[str, list[dict[str, Any]]]) -> list[str]:
    print("Summary (targets: acks >= 95% of the run without attackers, no stalled table, "
          f"no unanswered move, memory <= {TARGET_MEMORY_MB:.0f} MB over the run's start, "
          f"/healthz p99 <= {TARGET_HEALTH_P99_MS:.0f} ms and none failed)")
    missed = []
    for mode, rows in figures.items():
        base = rows[0]
        for row in rows[1:]:
            ratio = row["acks"] / base["acks"] if base["acks"] else 0.0
            misses = [what for what, bad in (
                (f"acks {ratio:.0%}", ratio < TARGET_RATIO),
                (f"{row['stalled']} stalled", row["stalled"] > 0),
                (f"{row['unanswered']} unanswered", row["unanswered"] > 0),
                (f"+{row['memory_mb']:.0f} MB", row["memory_mb"] > TARGET_MEMORY_MB),
                (f"/healthz p99 {row['health_p99_ms']:.0f} ms",
                 row["health_p99_ms"] > TARGET_HEALTH_P99_MS),
                (f"{row['health_failed']} health checks failed", row["health_failed"] > 0),
            ) if bad]
            print(f"  {mode:8s} {row['attack']:17s} {ratio:6.1%}  "
                  f"/healthz p99 {row['health_p99_ms']:4.0f} ms  "
                  f"{'met' if not misses else 'MISSED: ' + ', '.join(misses)}")
            missed += [f"{mode} {row['attack']} ({', '.join(misses)})"] if misses else []
    return missed


if __name__ == "__main__":
    main()
