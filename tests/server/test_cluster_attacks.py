"""Several workers under attack: what a client at a worker that does not run its table can
do to the bus between them, and what the workers do when the bus loses messages.

Real worker subprocesses on PostgreSQL and a ``redis-server`` of the test's own, whose
subscribers may queue little (``client-output-buffer-limit pubsub``), as a busy Redis's
would be when one message is huge.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import redis
import websockets

from tests.server.client import free_port
from tests.server.test_cluster_faults import (  # noqa: F401 (fixtures)
    REDIS_SERVER,
    Worker,
    _reachable,
    database,
    services,
    workers,
)
from twintable.server.cluster import Cluster

pytestmark = [pytest.mark.services,
              pytest.mark.skipif(not Path(REDIS_SERVER).exists(),
                                 reason="needs /usr/bin/redis-server")]


@contextlib.contextmanager
def small_buffered_redis(tmp_path: Path) -> Iterator[int]:
    """A redis-server of this test's own that closes a subscriber with more than 2 KiB
    waiting for it beyond its 16 KiB reply buffer; its port."""
    port = free_port()
    process = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path),
         "--client-output-buffer-limit", "pubsub 2kb 1kb 10"],
        stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not _reachable(port):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        yield port
    finally:
        process.kill()
        process.wait()


def table_on_one_worker(pair: list[Worker]) -> tuple[dict[str, Any], Worker, Worker]:
    """An open Timo table: what its creator got, the worker running it, the other one."""
    joined = httpx2.post(f"{pair[0].base}/api/tables", json={
        "game": "timo", "players": 3, "display_name": "Ann", "grace_s": 60}).json()
    running = [w for w in pair if httpx2.get(f"{w.base}/readyz").json()["tables"] == 1]
    assert len(running) == 1, "exactly one worker runs the table"
    other = next(w for w in pair if w is not running[0])
    return joined, running[0], other


def subscribers(port: int) -> set[str]:
    """The ids of the Redis connections subscribed to a channel."""
    with redis.Redis(port=port, decode_responses=True) as client:
        return {str(c["id"]) for c in client.client_list(_type="pubsub")}


async def welcomed(port: int, table_id: str, hello: dict[str, Any]
                   ) -> websockets.ClientConnection:
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}",
                                  max_size=None)
    await ws.send(json.dumps(hello))
    while (frame := json.loads(await asyncio.wait_for(ws.recv(), 5)))["type"] != "welcome":
        assert frame["type"] != "error", frame
    return ws


def test_huge_frames_at_the_other_worker_never_reach_the_bus(
        database: str, tmp_path: Path) -> None:  # noqa: F811
    with small_buffered_redis(tmp_path) as redis_port, workers(
            database, f"redis://127.0.0.1:{redis_port}/0", tmp_path) as pair:
        joined, _, other = table_on_one_worker(pair)
        table_id = joined["table"]["id"]
        before = subscribers(redis_port)
        assert len(before) == 2

        async def attack() -> list[str]:
            answers = []
            async with websockets.connect(
                    f"ws://127.0.0.1:{other.port}/ws/tables/{table_id}") as ws:
                for _ in range(3):  # over the protocol's 16 KiB, under the server's cap
                    await ws.send(json.dumps({"type": "hello", "key": "x" * 19_000}))
                    answers.append(json.loads(await asyncio.wait_for(ws.recv(), 5))["code"])
            return answers

        assert asyncio.run(attack()) == ["message.too_large"] * 3
        time.sleep(0.5)
        assert subscribers(redis_port) == before, "Redis closed a worker's subscription"

        async def person_still_served() -> None:  # through the other worker, by the bus
            ws = await welcomed(other.port, table_id,
                                {"type": "hello", "token": joined["token"]})
            await ws.close()

        asyncio.run(person_still_served())


def test_a_client_at_the_other_worker_acts_only_once_seated(
        database: str, tmp_path: Path) -> None:  # noqa: F811
    with small_buffered_redis(tmp_path) as redis_port, workers(
            database, f"redis://127.0.0.1:{redis_port}/0", tmp_path) as pair:
        joined, _, other = table_on_one_worker(pair)
        table_id = joined["table"]["id"]

        async def probe() -> list[str]:
            codes = []
            async with websockets.connect(
                    f"ws://127.0.0.1:{other.port}/ws/tables/{table_id}") as ws:
                await ws.send(json.dumps({"type": "action", "id": "a", "kind": "draw"}))
                codes.append(json.loads(await asyncio.wait_for(ws.recv(), 5))["code"])
                await ws.send(json.dumps({"type": "hello"}))  # a spectator
                while json.loads(await asyncio.wait_for(ws.recv(), 5))["type"] != "welcome":
                    pass
                await ws.send(json.dumps({"type": "action", "id": "b", "kind": "draw"}))
                while (frame := json.loads(await asyncio.wait_for(ws.recv(), 5))
                       )["type"] != "error":
                    pass
                codes.append(frame["code"])
            return codes

        assert asyncio.run(probe()) == ["auth.required", "auth.spectator"]


def test_a_renewed_subscription_resets_forwarded_clients_loudly(
        database: str, tmp_path: Path) -> None:  # noqa: F811
    with small_buffered_redis(tmp_path) as redis_port, workers(
            database, f"redis://127.0.0.1:{redis_port}/0", tmp_path) as pair:
        joined, running, other = table_on_one_worker(pair)
        table_id = joined["table"]["id"]

        async def kill_subscriptions() -> float:
            ws = await welcomed(other.port, table_id,
                                {"type": "hello", "token": joined["token"]})
            with redis.Redis(port=redis_port) as client:
                client.client_kill_filter(_type="pubsub")  # as for an output buffer overrun
            killed = time.monotonic()
            with contextlib.suppress(websockets.ConnectionClosed, TimeoutError):
                while True:
                    await asyncio.wait_for(ws.recv(), 5)
            return time.monotonic() - killed

        assert asyncio.run(kill_subscriptions()) < 2.0, "the forwarded client was not reset"
        figures = httpx2.get(f"{running.base}/metrics").text
        assert 'twintable_bus_resets_total{reason="resubscribed"} 1.0' in figures
        assert "the worker bus lost messages" in running.log.read_text()


def test_a_gap_in_a_workers_messages_is_noticed(services: None) -> None:  # noqa: F811
    async def run() -> list[str]:
        resets: list[str] = []
        cluster = Cluster("redis://127.0.0.1:6379/13", prefix=f"tt-gap-{time.time_ns()}:")
        cluster.on_reset = resets.append
        cluster.on_message = lambda *_: None
        await cluster.start()
        try:
            channel = cluster._channel(cluster.worker_id)
            while not (await cluster.redis.pubsub_numsub(channel))[0][1]:
                await asyncio.sleep(0.02)
            for number in (1, 2, 4):  # the third went missing
                await cluster.redis.publish(channel, f"peer:{number}:f:conn:text")
            for _ in range(100):
                if resets:
                    break
                await asyncio.sleep(0.02)
        finally:
            await cluster.close()
        return resets

    assert asyncio.run(run()) == ["gap"]
