"""Benchmark: one server process, N tables of 4 scripted WebSocket clients playing
Timo's Twist, first as fast as the protocol allows, then at a set load.

The clients live in separate processes (not bots inside the server). Each phase reports
acknowledged actions per second, p50/p99 action-to-broadcast latency (from sending a move
to receiving its own event frame) and server memory per table, against the targets (200
tables, >= 1,000 acks/s, p99 < 100 ms, SQLite).

- "flat out": every client moves the moment its frame arrives. This finds the most the
  server can acknowledge; latency there is queueing by construction (Little's law: with
  one move in flight per table, mean latency is tables / throughput).
- "at N/s": each table's k-th move is due at a fixed time (k / (N / tables) seconds after
  the start, plus a per-table phase), whatever the latency so far (open loop), so the
  server carries N acks/s and the latency is what a player would feel at that load.
Usage: python bench/server_timo.py [--tables 200] [--seconds 15] [--rate 1000]
       [--client-processes 2] [--db postgresql://127.0.0.1/test]  (default: a fresh SQLite)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import connect

TARGET_ACKS, TARGET_P99_MS = 1000, 100


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def seat_client(url: str, table_id: str, token: str, until: float,
                      latencies: list[float], pace: tuple[float, float]) -> int:
    """Play one seat; the move made at version v is due at ``pace[0] + v * pace[1]``."""
    acks = 0
    sent_at: dict[str, float] = {}
    in_flight: str | None = None
    latest: dict[str, Any] | None = None
    counter = 0
    my_seat = -1
    loop = asyncio.get_running_loop()
    # One deadline for the whole conversation: a timer per frame costs the clients, which
    # share the 2 cores with the server, more than the parsing.
    with contextlib.suppress(TimeoutError):
        async with connect(f"{url}/ws/tables/{table_id}", max_size=2**20) as ws, \
                asyncio.timeout_at(loop.time() + until - time.monotonic()):
            await ws.send(json.dumps({"type": "hello", "token": token}))
            while True:
                frame = json.loads(await ws.recv())
                kind = frame["type"]
                if kind == "welcome":
                    my_seat = frame["seat"]
                elif kind in ("snapshot", "event"):
                    latest = frame
                    if kind == "event" and frame["seat"] == my_seat and in_flight in sent_at:
                        # Our own move, broadcast back: the action-to-broadcast latency.
                        latencies.append(time.monotonic() - sent_at.pop(in_flight))
                elif kind in ("ack", "error") and frame.get("id") == in_flight:
                    acks += kind == "ack"
                    sent_at.pop(in_flight, None)
                    in_flight = None
                if in_flight is None and latest is not None and latest["view"]["legal"]:
                    due = pace[0] + latest["version"] * pace[1]
                    if due > time.monotonic():
                        await asyncio.sleep(due - time.monotonic())
                    action = latest["view"]["legal"][0]
                    counter += 1
                    in_flight = f"b{counter}"
                    sent_at[in_flight] = time.monotonic()
                    await ws.send(json.dumps({
                        "type": "action", "id": in_flight, "version": latest["version"],
                        "kind": action["kind"], "payload": action["payload"]}))
                    latest = None
    return acks


def client_process(url: str, seats: list[tuple[str, str]], start: float, seconds: float,
                   interval: float, results: Any) -> None:
    async def run() -> tuple[int, list[float]]:
        latencies: list[float] = []

        def pace(table_id: str) -> tuple[float, float]:
            # A per-table phase spreads the tables' moves over the interval.
            phase = (int(table_id.encode().hex(), 16) % 1000) / 1000 * interval
            return start + phase, interval

        # Clients connect at once but make no move before ``start``.
        counts = await asyncio.gather(*(seat_client(url, table_id, token, start + seconds,
                                                    latencies, pace(table_id))
                                        for table_id, token in seats))
        return sum(counts), latencies

    try:
        import uvloop  # installed with the server; the clients need the CPU too
    except ImportError:
        results.put(asyncio.run(run()))
    else:
        results.put(uvloop.run(run()))


def open_tables(url: str, tables: int) -> list[tuple[str, str]]:
    seats: list[tuple[str, str]] = []
    with httpx2.Client(base_url=url) as http:
        for _ in range(tables):
            joined = http.post("/api/tables", json={
                "game": "timo", "players": 4, "display_name": "P0",
                "options": {"target": 100_000}, "seats": [{"kind": "human"}] * 4}).json()
            table_id = joined["table"]["id"]
            seats.append((table_id, joined["token"]))
            for n in range(1, 4):
                other = http.post(f"/api/tables/{table_id}/join",
                                  json={"display_name": f"P{n}"}).json()
                seats.append((table_id, other["token"]))
            http.post(f"/api/tables/{table_id}/start",
                      headers={"Authorization": f"Bearer {joined['token']}"})
    return seats


def run_phase(url: str, ws_url: str, args: argparse.Namespace, rate: float,
              server_pid: int) -> None:
    """Fresh tables (every version starts at 0), played for ``args.seconds``."""
    before = rss_kib(server_pid)
    seats = open_tables(url, args.tables)
    opened = rss_kib(server_pid)
    results: Any = multiprocessing.Queue()
    chunks = [seats[i::args.client_processes] for i in range(args.client_processes)]
    # Every client connects before the clock starts, so the first moves are not a burst.
    start = time.monotonic() + 3.0
    interval = args.tables / rate if rate > 0 else 0.0
    processes = [multiprocessing.Process(target=client_process, args=(
        ws_url, chunk, start, args.seconds, interval, results)) for chunk in chunks]
    for process in processes:
        process.start()
    totals = [results.get() for _ in processes]
    for process in processes:
        process.join()
    acks = sum(count for count, _ in totals)
    latencies = sorted(x for _, values in totals for x in values)
    p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000 if latencies else float("nan")
    achieved = acks / args.seconds  # moves start at ``start`` and stop at its end
    title = f"at {rate:.0f} acks/s offered" if rate > 0 else "flat out"
    print(f"{args.tables} tables x 4 WebSocket clients in {args.client_processes} processes, "
          f"{title}, {args.seconds:.0f} s, {args.db.split(':')[0] if args.db else 'SQLite'}")
    print(f"  acknowledged actions/s : {achieved:8.0f}   ({achieved / TARGET_ACKS:.2f}x the "
          f"target {TARGET_ACKS})")
    print(f"  action to broadcast p50: {p50:8.1f} ms")
    print(f"  action to broadcast p99: {p99:8.1f} ms ({p99 / TARGET_P99_MS:.2f}x the "
          f"{TARGET_P99_MS} ms budget)")
    print(f"  server memory per table: {(opened - before) / args.tables:8.0f} KiB opened, "
          f"{(rss_kib(server_pid) - before) / args.tables:.0f} KiB after play (the process "
          "keeps freed memory for reuse)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--rate", type=float, default=TARGET_ACKS,
                        help="acks/s offered in the second phase (0: skip it)")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as scratch:
        server = subprocess.Popen(
            [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db",
             args.db or f"sqlite:///{scratch}/bench.sqlite3", "--bot-delay-ms", "0",
             "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    if httpx2.get(f"{url}/readyz").status_code == 200:
                        break
                except httpx2.HTTPError:
                    time.sleep(0.1)
            run_phase(url, ws_url, args, 0.0, server.pid)
            if args.rate > 0:
                run_phase(url, ws_url, args, args.rate, server.pid)
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
