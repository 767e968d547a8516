"""What the server benchmarks share: a `twintable serve` of their own on a free loopback
port (started, awaited until ready, stopped), and Timo tables of four people."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO

import httpx2

#: Every client of a benchmark comes from this machine: the per-address limits, made for
#: one person or one attacker, would stand for a crowd here.
ONE_MACHINE = ("--tables-per-address", "100000", "--sockets-per-address", "100000",
               "--messages-per-address", "1000000", "--connections-per-address", "100000",
               "--forwarded-bytes-per-address", "1000000000")


@contextmanager
def serving(db: str | None, scratch: str, extra_args: Sequence[str] = (),
            log: IO[bytes] | None = None) -> Iterator[tuple[str, str, subprocess.Popen[bytes]]]:
    """(http URL, ws URL, process) of a server on ``db`` (default: a fresh SQLite file in
    ``scratch``), writing its output to ``log`` (default: nowhere)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db",
         db or f"sqlite:///{scratch}/bench.sqlite3", *ONE_MACHINE, *extra_args,
         "--log-level", "warning"],
        stdout=log or subprocess.DEVNULL,
        stderr=subprocess.STDOUT if log else subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                if httpx2.get(f"{url}/readyz").status_code == 200:
                    break
            except httpx2.HTTPError:
                time.sleep(0.1)
        yield url, ws_url, server
    finally:
        server.terminate()
        server.wait(timeout=30)


def open_timo_tables(http: httpx2.Client, tables: int) -> list[tuple[str, str]]:
    """Started Timo tables of four people (no bots, a target nobody reaches): the
    (table, seat token) of every seat.

    Their people wait an hour for someone who left (``grace_s``): a phase's people leave
    when it ends, and after the usual minute stand-in bots (instant in the benchmarks)
    would take over every seat and play the tables flat out, charged to a later phase
    (with ``--rounds 3`` the second and third rounds ran at two thirds of the first's
    speed)."""
    seats: list[tuple[str, str]] = []
    for _ in range(tables):
        joined = http.post("/api/tables", json={
            "game": "timo", "players": 4, "display_name": "P0", "grace_s": 3600,
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
