"""Benchmark: one server process, N tables of 4 scripted WebSocket clients playing
Timo's Twist as fast as the protocol allows.

The clients live in separate processes (not bots inside the server). Reports acknowledged
actions per second, p50/p99 action-to-broadcast latency (from sending a move to receiving
its own event frame) and server memory per table, against the targets (200 tables,
>= 1,000 acks/s, p99 < 100 ms, SQLite).
Usage: python bench/server_timo.py [--tables 200] [--seconds 20] [--client-processes 2]
"""

from __future__ import annotations

import argparse
import asyncio
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
                      latencies: list[float]) -> int:
    acks = 0
    sent_at: dict[str, float] = {}
    in_flight: str | None = None
    latest: dict[str, Any] | None = None
    counter = 0
    my_seat = -1
    async with connect(f"{url}/ws/tables/{table_id}", max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while time.monotonic() < until:
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), until - time.monotonic()))
            except TimeoutError:
                break
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
                action = latest["view"]["legal"][0]
                counter += 1
                in_flight = f"b{counter}"
                sent_at[in_flight] = time.monotonic()
                await ws.send(json.dumps({"type": "action", "id": in_flight,
                                          "version": latest["version"], "kind": action["kind"],
                                          "payload": action["payload"]}))
                latest = None
    return acks


def client_process(url: str, seats: list[tuple[str, str]], seconds: float,
                   results: Any) -> None:
    async def run() -> tuple[int, list[float]]:
        latencies: list[float] = []
        until = time.monotonic() + seconds
        counts = await asyncio.gather(*(seat_client(url, table_id, token, until, latencies)
                                        for table_id, token in seats))
        return sum(counts), latencies

    results.put(asyncio.run(run()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--client-processes", type=int, default=2)
    args = parser.parse_args()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as scratch:
        server = subprocess.Popen(
            [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db",
             f"sqlite:///{scratch}/bench.sqlite3", "--bot-delay-ms", "0",
             "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    if httpx2.get(f"{url}/readyz").status_code == 200:
                        break
                except httpx2.HTTPError:
                    time.sleep(0.1)
            before = rss_kib(server.pid)
            seats: list[tuple[str, str]] = []
            with httpx2.Client(base_url=url) as http:
                for _ in range(args.tables):
                    joined = http.post("/api/tables", json={
                        "game": "timo", "players": 4, "display_name": "P0",
                        "options": {"target": 100_000},
                        "seats": [{"kind": "human"}] * 4}).json()
                    table_id = joined["table"]["id"]
                    seats.append((table_id, joined["token"]))
                    for n in range(1, 4):
                        other = http.post(f"/api/tables/{table_id}/join",
                                          json={"display_name": f"P{n}"}).json()
                        seats.append((table_id, other["token"]))
                    http.post(f"/api/tables/{table_id}/start",
                              headers={"Authorization": f"Bearer {joined['token']}"})
            per_table_kib = (rss_kib(server.pid) - before) / args.tables
            results: Any = multiprocessing.Queue()
            chunks = [seats[i::args.client_processes] for i in range(args.client_processes)]
            processes = [multiprocessing.Process(target=client_process,
                                                 args=(ws_url, chunk, args.seconds, results))
                         for chunk in chunks]
            started = time.monotonic()
            for process in processes:
                process.start()
            totals = [results.get() for _ in processes]
            elapsed = time.monotonic() - started
            for process in processes:
                process.join()
        finally:
            server.terminate()
            server.wait(timeout=30)
    acks = sum(count for count, _ in totals)
    latencies = sorted(x for _, values in totals for x in values)
    p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000 if latencies else float("nan")
    rate = acks / elapsed
    print(f"{args.tables} tables x 4 WebSocket clients in {args.client_processes} processes, "
          f"{elapsed:.1f} s, SQLite")
    print(f"  acknowledged actions/s : {rate:8.0f}   ({rate / TARGET_ACKS:.2f}x the target "
          f"{TARGET_ACKS})")
    print(f"  action to broadcast p50: {p50:8.1f} ms")
    print(f"  action to broadcast p99: {p99:8.1f} ms ({p99 / TARGET_P99_MS:.2f}x the "
          f"{TARGET_P99_MS} ms budget)")
    print(f"  server memory per table: {per_table_kib:8.0f} KiB")


if __name__ == "__main__":
    main()
