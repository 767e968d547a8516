"""Benchmark: the server's answer time while replays are asked for (issue #38: the views
of a 2,392-move game took 0.51 s on the event loop, and 16 requests at once pushed
``/healthz``'s p99 to 1.6 s).

One server (SQLite, bots without delay) plays a long Timo game of four bots; then
``/healthz`` is timed for a few seconds alone, and again while 16 clients ask for that
game's replay (every view, each seat's too) and for pages of it from every step, as fast
as answered, from one address and then from 16 addresses. It prints the p50/p99 of
``/healthz`` in each phase and their ratios to the quiet phase, and what the replay
clients got (answers and refusals).

Usage: python bench/server_replays.py [--seconds 5] [--target 500]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from typing import Any

import httpx2

from server_attack import free_port


async def healthz_times(base: str, seconds: float) -> list[float]:
    times = []
    async with httpx2.AsyncClient(base_url=base, timeout=10) as http:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            asked = time.perf_counter()
            await http.get("/healthz")
            times.append(time.perf_counter() - asked)
            await asyncio.sleep(0.01)
    return times


async def replay_load(base: str, table_id: str, seconds: float, addresses: int,
                      got: Counter[str]) -> None:
    async def one(n: int) -> None:
        transport = httpx2.AsyncHTTPTransport(local_address=f"127.3.0.{n % addresses + 1}")
        async with httpx2.AsyncClient(base_url=base, timeout=30, transport=transport) as http:
            end, step = time.monotonic() + seconds, n
            while time.monotonic() < end:
                step += 17
                path = (f"/api/tables/{table_id}/replay/views?every_seat=true" if n % 2
                        else f"/api/tables/{table_id}/replay/steps?from={step % 400}"
                             "&count=50&every_seat=true")
                answer = await http.get(path)
                got[f"{'views' if n % 2 else 'steps'} {answer.status_code}"] += 1

    await asyncio.gather(*(one(n) for n in range(16)))


def load_process(base: str, table_id: str, seconds: float, addresses: int,
                 results: Any) -> None:
    got: Counter[str] = Counter()
    asyncio.run(replay_load(base, table_id, seconds, addresses, got))
    results.put(got)


def percentiles(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered) * 1000, ordered[int(0.99 * (len(ordered) - 1))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--target", type=int, default=500)
    args = parser.parse_args()
    port, scratch = free_port(), tempfile.mkdtemp()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db",
         f"sqlite:///{scratch}/replays.sqlite3", "--bot-delay-ms", "0", "--log-level",
         "warning"])
    try:
        while True:
            try:
                if httpx2.get(f"{base}/readyz").status_code == 200:
                    break
            except httpx2.HTTPError:
                time.sleep(0.2)
        made = httpx2.post(f"{base}/api/tables", json={
            "game": "timo", "players": 4, "display_name": "Host", "grace_s": 0,
            "options": {"target": args.target},
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * 3}).json()
        table_id = made["table"]["id"]
        httpx2.post(f"{base}/api/tables/{table_id}/start",
                    headers={"Authorization": f"Bearer {made['token']}"})
        while httpx2.get(f"{base}/api/tables/{table_id}").json()["status"] != "finished":
            time.sleep(0.5)
        moves = len(httpx2.get(f"{base}/api/tables/{table_id}/replay").json()["actions"])
        quiet = asyncio.run(healthz_times(base, args.seconds))
        rows = [("quiet", quiet, Counter[str]())]
        for addresses in (1, 16):
            got: Counter[str] = Counter()

            # The replay clients in a process of their own: reading megabytes of views
            # there must not slow this process's clock of /healthz.
            results: Any = multiprocessing.Queue()
            load = multiprocessing.Process(target=load_process, args=(
                base, table_id, args.seconds, addresses, results))
            load.start()
            times = asyncio.run(healthz_times(base, args.seconds))
            got.update(results.get())
            load.join()
            rows.append((f"16 clients, {addresses} address(es)", times, got))
        print(f"a Timo game of {moves} moves; /healthz while replays are asked for")
        base_p50, base_p99 = percentiles(quiet)
        for name, times, got in rows:
            p50, p99 = percentiles(times)
            print(f"  {name:28} p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  "
                  f"(x{p50 / base_p50:.1f}, x{p99 / base_p99:.1f})  {dict(got) or ''}")
    finally:
        server.terminate()
        server.wait(20)


if __name__ == "__main__":
    main()
