"""A rolling restart under load (``GameServer.drain``, ``server/supervisor.py``): each of
three workers in turn gets SIGTERM while people play, hands its tables to the others at
once and sends its clients there (``moved``), exits within its bound, and a new worker
takes its place. Nothing acknowledged is lost, no client loops, and no table waits for
a lease to expire (the leases here last 20 s, so a table left to the scans would pause
that long).

Real worker subprocesses on PostgreSQL and Redis (the ``services`` marker)."""

from __future__ import annotations

import asyncio
import itertools
import json
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.server.client import free_port
from tests.server.test_cluster_faults import (  # noqa: F401 (fixtures)
    ONE_MACHINE,
    SEVERAL_ROUNDS,
    Worker,
    check_logs,
    database,
    open_tables,
    play_all,
    services,
    unfinished,
)

pytestmark = pytest.mark.services

REDIS = "redis://127.0.0.1:6379/13"
#: Long enough that a table left to wait for its lease's expiry shows as a long pause.
LEASE_TTL_MS = 20_000
DRAIN_TIMEOUT_S = 10


def start_worker(db_url: str, prefix: str, tmp_path: Path, name: str, port: int) -> Worker:
    """One worker of the platform, with its own address advertised (so a drain can tell
    clients where their table went)."""
    log = tmp_path / f"{name}.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db", db_url,
         "--redis", REDIS, "--redis-prefix", prefix, "--lease-ttl-ms", str(LEASE_TTL_MS),
         "--advertise-url", f"ws://127.0.0.1:{port}", "--bot-delay-ms", "60",
         "--drain-timeout", str(DRAIN_TIMEOUT_S), "--log-level", "info", *ONE_MACHINE],
        stdout=log.open("wb"), stderr=subprocess.STDOUT)
    worker = Worker(port, log, process)
    deadline = time.monotonic() + 40
    while not worker.ready():
        assert process.poll() is None, log.read_text()[-2000:]
        assert time.monotonic() < deadline, "the worker did not start"
        time.sleep(0.2)
    return worker


def drained(worker: Worker) -> list[dict[str, object]]:
    """The worker's "drained" log lines."""
    return [json.loads(line) for line in worker.log.read_text().splitlines()
            if '"message": "drained"' in line]


def longest_pause(times: list[float], start: float, end: float) -> float:
    """The longest gap between two moves seen within ``start..end``."""
    inside = [t for t in times if start <= t <= end]
    return max((b - a for a, b in itertools.pairwise(inside)), default=0.0)


def test_a_rolling_restart_of_three_workers_under_load(database: str,  # noqa: F811
                                                       tmp_path: Path) -> None:
    prefix = f"tt-test-{secrets.token_hex(4)}:"
    # The new workers' ports are known from the start: the people try them too, as a
    # page would try the shared address a proxy serves.
    ports = [free_port() for _ in range(6)]
    running = [start_worker(database, prefix, tmp_path, f"worker{n}", ports[n])
               for n in range(3)]
    everyone = list(running)
    exits: list[float] = []
    try:
        tables = open_tables(running, 9, people=9, target=SEVERAL_ROUNDS)
        addresses = [f"127.0.0.1:{port}" for port in ports]
        window: list[float] = []

        async def rolling_restart() -> None:
            await asyncio.sleep(1.0)
            window.append(time.monotonic())
            for n in range(3):
                leaving = running[n]
                leaving.process.send_signal(signal.SIGTERM)
                asked = time.monotonic()
                while leaving.process.poll() is None:
                    assert time.monotonic() - asked < DRAIN_TIMEOUT_S + 5, "no exit"
                    await asyncio.sleep(0.05)
                exits.append(time.monotonic() - asked)
                arrived = await asyncio.to_thread(start_worker, database, prefix, tmp_path,
                                                  f"new{n}", ports[3 + n])
                everyone.append(arrived)
                running[n] = arrived
            window.append(time.monotonic())

        clients = asyncio.run(play_all(tables, addresses, 120, rolling_restart()))
        assert not unfinished(clients), unfinished(clients)
        # Each drained worker handed its tables over itself: no table waited for a scan.
        lines = [drained(w) for w in everyone[:3]]
        assert all(len(found) == 1 for found in lines), lines
        assert all(line["taken_over"] == line["in_play"] for [line] in lines), lines
        pauses = [longest_pause(c.event_times, window[0], window[1]) for c in clients]
        reconnects = [c.reconnects for c in clients]
        print(f"rolling restart: worker exits {[round(s, 2) for s in exits]} s, longest "
              f"pause per table {sorted(round(p, 2) for p in pauses)} s, reconnects "
              f"{reconnects}")
        # A pause this long would be a lease expiry (20 s), not a hand-over.
        assert max(pauses) < LEASE_TTL_MS / 2000, pauses
        # No loop: each drain costs a client one reconnect, or a few when it lands on a
        # worker that is leaving next.
        assert max(reconnects) <= 6, reconnects
        assert all(exit_s < DRAIN_TIMEOUT_S + 5 for exit_s in exits), exits
    finally:
        for worker in everyone:
            worker.stop()
    check_logs(database, tables, clients)
