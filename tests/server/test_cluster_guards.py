"""What one address may hold across several workers (``server/guards.py`` with Redis):
its WebSockets, its messages a second and its unfinished tables are counted once for
the whole platform, not once per worker, and a dead worker's share is given back.

Real worker subprocesses on PostgreSQL and Redis; every client here is this machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
import websockets

from tests.server.test_cluster_faults import (  # noqa: F401 (fixtures)
    LEASE_TTL_MS,
    Worker,
    database,
    open_tables,
    services,
    workers,
)

pytestmark = pytest.mark.services

REDIS = "redis://127.0.0.1:6379/13"


def running_on(pair: list[Worker]) -> dict[int, int]:
    """How many tables each worker runs, by port."""
    return {w.port: httpx2.get(f"{w.base}/readyz").json()["tables"] for w in pair}


def open_table(worker: Worker) -> dict[str, Any]:
    made = httpx2.post(f"{worker.base}/api/tables", json={
        "game": "timo", "players": 3, "display_name": "Ann", "grace_s": 60})
    assert made.status_code == 201, made.text
    return made.json()  # type: ignore[no-any-return]


async def greeted(port: int, table_id: str) -> websockets.ClientConnection:
    """A spectator's socket, welcomed (a socket that says no hello is closed)."""
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}")
    await ws.send(json.dumps({"type": "hello"}))
    while json.loads(await asyncio.wait_for(ws.recv(), 5))["type"] != "welcome":
        pass
    return ws


async def refused(port: int, table_id: str) -> bool:
    """Whether a new socket to ``port`` is refused (before or just after it opens)."""
    try:
        ws = await greeted(port, table_id)
    except (websockets.InvalidStatus, websockets.ConnectionClosed):
        return True
    await ws.close()
    return False


def test_an_address_sockets_are_counted_across_workers(
        database: str, tmp_path: Path) -> None:  # noqa: F811
    with workers(database, REDIS, tmp_path, one_machine=False,
                 extra=("--sockets-per-address", "3")) as pair:
        table_id = open_table(pair[0])["table"]["id"]
        a, b = pair

        async def run() -> list[bool]:
            held = [await greeted(a.port, table_id), await greeted(a.port, table_id),
                    await greeted(b.port, table_id)]
            seen = [await refused(b.port, table_id), await refused(a.port, table_id)]
            await held.pop().close()
            await asyncio.sleep(0.2)  # the close reaches Redis
            seen.append(await refused(b.port, table_id))  # its place is free again
            for ws in held:
                await ws.close()
            return seen

        assert asyncio.run(run()) == [True, True, False]


def test_a_dead_workers_sockets_stop_counting(
        database: str, tmp_path: Path) -> None:  # noqa: F811
    with workers(database, REDIS, tmp_path, one_machine=False,
                 extra=("--sockets-per-address", "2")) as pair:
        a, b = pair
        table_id = open_table(a)["table"]["id"]

        async def run() -> float:
            held = [await greeted(a.port, table_id), await greeted(a.port, table_id)]
            assert await refused(b.port, table_id), "the share was counted per worker"
            a.process.send_signal(signal.SIGKILL)
            a.process.wait()
            killed = time.monotonic()
            while await refused(b.port, table_id):
                assert time.monotonic() - killed < 20, "a dead worker's sockets still count"
                await asyncio.sleep(0.2)
            for ws in held:
                await ws.close()
            return time.monotonic() - killed

        # Its places expire three lease times after its last heartbeat.
        assert asyncio.run(run()) < 3 * LEASE_TTL_MS / 1000 + 3


def test_an_address_messages_share_one_allowance_across_workers(
        database: str, tmp_path: Path) -> None:  # noqa: F811
    # 4 messages a second, 8 at once, for the whole platform.
    with workers(database, REDIS, tmp_path, one_machine=False,
                 extra=("--messages-per-address", "4")) as pair:
        a, b = pair
        table_id = open_table(a)["table"]["id"]

        async def run() -> list[str]:
            sockets = [await greeted(worker.port, table_id) for worker in (a, b, a, b)]
            await asyncio.sleep(2 * LEASE_TTL_MS / 1000)  # heartbeats share; buckets refill
            answers = []
            for n in range(24):
                ws = sockets[n % 4]
                await ws.send(json.dumps({"type": "ping"}))
                frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
                answers.append(frame.get("code") or frame["type"])
            for ws in sockets:
                await ws.close()
            return answers

        answers = asyncio.run(run())
        # One allowance of 8 (and what it refills meanwhile), not 8 at each worker.
        assert 4 <= answers.count("pong") <= 10, answers
        assert answers.count("rate.limited") >= 14, answers


def test_a_dead_workers_share_of_the_messages_comes_back(
        database: str, tmp_path: Path) -> None:  # noqa: F811
    """While two workers hold an address's sockets, each allows it half the messages;
    once one dies (its socket places expired), the other allows it the whole allowance."""
    with workers(database, REDIS, tmp_path, one_machine=False,
                 extra=("--messages-per-address", "4")) as pair:  # 4 a second, 8 at once
        table_id = open_table(pair[0])["table"]["id"]
        # b runs the table (its sockets are its own, not relayed through the dying one).
        b = next(w for w in pair if running_on(pair)[w.port] == 1)
        a = next(w for w in pair if w is not b)

        async def pongs(sockets: list[websockets.ClientConnection], sent: int) -> int:
            answers = []
            for n in range(sent):
                await sockets[n % len(sockets)].send(json.dumps({"type": "ping"}))
                frame = json.loads(await asyncio.wait_for(sockets[n % len(sockets)].recv(), 5))
                answers.append(frame.get("code") or frame["type"])
            return answers.count("pong")

        async def run() -> tuple[int, int]:
            at_a = [await greeted(a.port, table_id) for _ in range(2)]
            at_b = [await greeted(b.port, table_id) for _ in range(2)]
            await asyncio.sleep(2 * LEASE_TTL_MS / 1000)  # heartbeats share; buckets refill
            halved = await pongs(at_b, 16)
            a.process.send_signal(signal.SIGKILL)
            a.process.wait()
            # Its places expire three lease times after its last heartbeat; the next
            # heartbeats share again, and the whole allowance refills in two seconds.
            await asyncio.sleep(3 * LEASE_TTL_MS / 1000 + 2 * LEASE_TTL_MS / 1000 + 2)
            whole = await pongs(at_b, 16)
            for ws in at_a + at_b:
                with contextlib.suppress(websockets.ConnectionClosed):
                    await ws.close()
            return halved, whole

        halved, whole = asyncio.run(run())
        assert halved <= 6, halved  # half of 8 at once, and a little refilled meanwhile
        assert whole >= 8, whole


def test_a_taken_over_table_still_counts_toward_its_address(
        database: str, tmp_path: Path) -> None:  # noqa: F811
    with workers(database, REDIS, tmp_path, one_machine=False,
                 extra=("--tables-per-address", "2")) as pair:
        for _ in range(2):
            open_table(pair[0])
        counts = running_on(pair)
        assert sorted(counts.values()) == [1, 1], counts  # one on each worker
        dead, alive = pair
        dead.process.send_signal(signal.SIGKILL)
        dead.process.wait()
        deadline = time.monotonic() + 20
        while httpx2.get(f"{alive.base}/readyz").json()["tables"] < 2:
            assert time.monotonic() < deadline, "the table was not taken over"
            time.sleep(0.2)
        # The dead worker's places have expired (three lease times): only the table's
        # own record of who made it keeps it counted now.
        time.sleep(3 * LEASE_TTL_MS / 1000 + 1)
        again = httpx2.post(f"{alive.base}/api/tables", json={
            "game": "timo", "players": 3, "display_name": "Ann"})
        assert again.status_code == 429, again.text
        assert again.json()["code"] == "tables.too_many"


def test_a_rematch_asked_at_either_worker_counts_toward_the_address(
        database: str, tmp_path: Path) -> None:  # noqa: F811
    """Play again makes a table on the worker running the finished one: it takes a place
    in the address's platform-wide share like a create, wherever it was asked."""
    with workers(database, REDIS, tmp_path, one_machine=False,
                 extra=("--tables-per-address", "2")) as pair:
        finished = open_tables(pair, 1, people=0)[0]  # a stand-in plays seat 0 at once
        deadline = time.monotonic() + 30
        while httpx2.get(f"{pair[0].base}/api/tables/{finished['id']}").json()[
                "status"] != "finished":
            assert time.monotonic() < deadline, "the game did not end"
            time.sleep(0.1)
        # The finished table's place is given back at its worker's next heartbeat.
        time.sleep(LEASE_TTL_MS / 3000 + 0.5)
        for _ in range(2):
            open_table(pair[1])
        before = sum(running_on(pair).values())
        for worker in pair:  # one of them runs the finished table, one forwards
            asked = httpx2.post(f"{worker.base}/api/tables/{finished['id']}/rematch",
                                headers={"Authorization": f"Bearer {finished['token']}"})
            assert asked.status_code == 429, asked.text
            assert asked.json()["code"] == "tables.too_many"
        info = httpx2.get(f"{pair[0].base}/api/tables/{finished['id']}").json()
        assert info["rematch"] is None
        assert sum(running_on(pair).values()) == before


def test_a_socket_leaving_the_other_worker_before_its_hello_leaves_no_traceback(
        database: str, tmp_path: Path) -> None:  # noqa: F811
    with workers(database, REDIS, tmp_path, one_machine=False) as pair:
        table_id = open_table(pair[0])["table"]["id"]
        other = next(w for w in pair if running_on(pair)[w.port] == 0)

        async def leave_early() -> None:
            for _ in range(5):
                ws = await websockets.connect(
                    f"ws://127.0.0.1:{other.port}/ws/tables/{table_id}")
                await ws.close()
            await asyncio.sleep(0.5)

        asyncio.run(leave_early())
        assert httpx2.get(f"{other.base}/readyz").status_code == 200
    text = other.log.read_text()
    assert "Traceback" not in text, text[text.find("Traceback"):][:6000]
