"""Benchmark: 2,000 spectators join one table (issue #16).

One server process, one running table (its only person away, its bots waiting for them,
so nothing moves). A separate process opens the spectators' WebSockets, says hello
without a token and waits for each welcome, then keeps reading (counting, not parsing)
whatever the server sends. Meanwhile this process asks ``/healthz`` every 10 ms.

It prints the time from the first connection to the last welcome (target: under 3 s),
``/healthz`` p50/p99/max during the joins (target p99: under 50 ms), the frames the
spectators received while joining, and the server's memory per connection; then the
same for the spectators leaving.

Usage: python bench/server_spectators.py [--spectators 2000] [--concurrency 200]
       [--timeout 120] [--db postgresql://127.0.0.1/test]

On PostgreSQL, use a database no test run resets meanwhile (the tests' ``db_url`` fixture
drops the ``test`` schema).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import connect

from serving import serving

TARGET_CONNECT_S, TARGET_HEALTHZ_P99_MS = 3.0, 50.0


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def spectators(ws_url: str, table_id: str, count: int, concurrency: int,
               joined: Any, leave: Any, results: Any) -> None:
    """The spectators' process: join, report, hold until told to leave, then leave."""

    async def run() -> dict[str, Any]:
        gate = asyncio.Semaphore(concurrency)
        welcomed = 0
        frames = 0
        failures: list[str] = []
        all_in = asyncio.Event()
        go = asyncio.Event()
        started = time.monotonic()

        async def one() -> None:
            nonlocal welcomed, frames
            try:
                async with gate:
                    ws = await connect(f"{ws_url}/ws/tables/{table_id}", max_size=2**22,
                                       open_timeout=120, ping_interval=None)
                    await ws.send('{"type": "hello"}')
                    welcome = json.loads(await ws.recv())
                    assert welcome["type"] == "welcome", welcome
                welcomed += 1
                if welcomed == count:
                    all_in.set()
                async with ws:
                    reading = asyncio.ensure_future(_count(ws))
                    await go.wait()
                    reading.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await reading
            except Exception as error:  # a refused or dropped spectator is a finding
                failures.append(f"{type(error).__name__}: {error}"[:200])
                if welcomed + len(failures) == count:
                    all_in.set()

        async def _count(ws: Any) -> None:
            nonlocal frames
            with contextlib.suppress(Exception):
                async for _ in ws:
                    frames += 1

        tasks = [asyncio.ensure_future(one()) for _ in range(count)]
        await all_in.wait()
        connected_s = time.monotonic() - started
        joined.set()
        await asyncio.get_running_loop().run_in_executor(None, leave.wait)
        left_started = time.monotonic()
        go.set()
        await asyncio.gather(*tasks)
        return {"connected_s": connected_s, "welcomed": welcomed, "failures": failures,
                "frames": frames, "left_s": time.monotonic() - left_started}

    try:
        import uvloop
    except ImportError:
        results.put(asyncio.run(run()))
    else:
        results.put(uvloop.run(run()))


def poll_healthz(url: str, stop: threading.Event, latencies: list[float]) -> None:
    """Ask every 10 ms; an ask that fails counts as taking forever."""
    with httpx2.Client(base_url=url, timeout=30) as http:
        while not stop.is_set():
            started = time.perf_counter()
            try:
                http.get("/healthz").raise_for_status()
                latencies.append(time.perf_counter() - started)
            except httpx2.HTTPError:
                latencies.append(float("inf"))
            time.sleep(0.01)


def figures(latencies: list[float]) -> str:
    values = sorted(latencies)
    if not values:
        return "no answers"
    p99 = values[max(0, int(len(values) * 0.99) - 1)] * 1000
    return (f"p50 {statistics.median(values) * 1000:.1f} ms, p99 {p99:.1f} ms, "
            f"max {values[-1] * 1000:.1f} ms ({len(values)} asks)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=200,
                        help="handshakes in flight at once")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as scratch, serving(args.db, scratch) as (
            url, ws_url, server):
        with httpx2.Client(base_url=url) as http:
            made = http.post("/api/tables", json={
                "game": "timo", "players": 3, "display_name": "Away", "grace_s": 3600,
                "options": {"target": 300}}).json()
            table_id = made["table"]["id"]
            http.post(f"/api/tables/{table_id}/start",
                      headers={"Authorization": f"Bearer {made['token']}"})
        before = rss_kib(server.pid)
        joined, leave = multiprocessing.Event(), multiprocessing.Event()
        results: Any = multiprocessing.Queue()
        process = multiprocessing.Process(target=spectators, args=(
            ws_url, table_id, args.spectators, args.concurrency, joined, leave, results))
        join_latencies: list[float] = []
        stop = threading.Event()
        poller = threading.Thread(target=poll_healthz, args=(url, stop, join_latencies))
        poller.start()
        process.start()
        in_time = joined.wait(timeout=args.timeout)
        stop.set()
        poller.join()
        during = rss_kib(server.pid)
        time.sleep(1.0)
        held = rss_kib(server.pid)
        leave_latencies: list[float] = []
        stop = threading.Event()
        poller = threading.Thread(target=poll_healthz, args=(url, stop, leave_latencies))
        poller.start()
        leave.set()
        outcome = results.get(timeout=args.timeout * 2) if in_time else None
        stop.set()
        poller.join()
        process.join(timeout=30)
        if process.is_alive():
            process.terminate()
    where = args.db.split(":")[0] if args.db else "SQLite"
    print(f"{args.spectators} spectators joining one running table ({args.concurrency} "
          f"handshakes in flight at most), {where}; load average before: {load:.1f} on "
          f"{os.cpu_count()} cores")
    if outcome is None:
        print(f"  not all connected within {args.timeout:.0f} s")
        print(f"  /healthz during the joins: {figures(join_latencies)}")
        return
    connected = outcome["connected_s"]
    healthz_p99 = (sorted(join_latencies)[max(0, int(len(join_latencies) * 0.99) - 1)] * 1000
                   if join_latencies else float("nan"))
    failures = outcome["failures"]
    print(f"  all welcomed after       : {connected:.2f} s ({outcome['welcomed']} welcomed, "
          f"{len(failures)} failed{': ' + failures[0] if failures else ''}) "
          f"(target < {TARGET_CONNECT_S:.0f} s: "
          f"{'met' if connected < TARGET_CONNECT_S else 'MISSED'})")
    print(f"  /healthz during the joins: {figures(join_latencies)} (target p99 < "
          f"{TARGET_HEALTHZ_P99_MS:.0f} ms: "
          f"{'met' if healthz_p99 < TARGET_HEALTHZ_P99_MS else 'MISSED'})")
    print(f"  frames to spectators     : {outcome['frames']:,} from their welcomes to leaving "
          f"({outcome['frames'] / args.spectators:.0f} each)")
    print(f"  server memory            : {(during - before) / args.spectators:.1f} KiB per "
          f"connection when the last joined, {(held - before) / args.spectators:.1f} KiB "
          "a second later")
    print(f"  all left after           : {outcome['left_s']:.2f} s; /healthz meanwhile: "
          f"{figures(leave_latencies)}")


if __name__ == "__main__":
    main()
