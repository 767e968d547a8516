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
import re
import subprocess
import threading
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
from twintable.server.seating import hash_token

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
        assert re.search(r'twintable_bus_resets_total\{reason="resubscribed",worker="\w+"\} 1.0',
                         figures), figures
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


@contextlib.contextmanager
def monitored(port: int) -> Iterator[list[str]]:
    """Every command the Redis at ``port`` runs while this is open (MONITOR), as text:
    what anyone reading Redis could see."""
    seen: list[str] = []
    ready = threading.Event()

    def listen() -> None:
        with redis.Redis(port=port, decode_responses=True) as client, \
                client.monitor() as monitor:
            ready.set()
            for command in monitor.listen():
                seen.append(str(command["command"]))
                if "stop-monitoring" in command["command"]:
                    return

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    assert ready.wait(5)
    time.sleep(0.2)
    try:
        yield seen
    finally:
        with redis.Redis(port=port) as client:
            client.echo("stop-monitoring")
        thread.join(10)


def test_no_secret_crosses_redis(database: str, tmp_path: Path) -> None:  # noqa: F811
    port = free_port()
    process = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
    try:
        while not _reachable(port):
            time.sleep(0.05)
        with workers(database, f"redis://127.0.0.1:{port}/0", tmp_path) as pair, \
                monitored(port) as seen:
            secrets_seen, hashes = _play_across_workers(pair)
    finally:
        process.kill()
        process.wait()
    text = "\n".join(seen)
    leaked = [name for name, secret in secrets_seen.items() if secret in text]
    assert not leaked, f"{leaked} crossed Redis in plain text"
    assert all(digest in text for digest in hashes), "the monitor missed the calls"


def _play_across_workers(pair: list[Worker]) -> tuple[dict[str, str], list[str]]:
    """Make a private table on one worker and do everything else through the other:
    a profile's create and join, a join, a leave, a bot, the start, forwarded hellos
    with a seat token and with the invite key. The secrets used, and hashes that must
    have crossed."""
    first = pair[0]

    def counts() -> list[int]:
        return [httpx2.get(f"{w.base}/readyz").json()["tables"] for w in pair]

    def profile(name: str) -> dict[str, str]:
        made = httpx2.post(f"{first.base}/api/profiles", json={"display_name": name}).json()
        return {"player_id": made["player_id"], "player_secret": made["secret"]}

    ann, bob = profile("Ann"), profile("Bob")
    httpx2.post(f"{first.base}/api/tables", json={"game": "timo", "players": 2,
                                                   "display_name": "Cy"})
    before = counts()
    made = httpx2.post(f"{first.base}/api/tables", json={
        "game": "timo", "players": 3, "display_name": "Ann", "private": True,
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}], **ann})
    assert made.status_code == 201, made.text
    after = counts()
    owner = next(n for n in range(2) if after[n] > before[n])
    via = pair[1 - owner]  # every request below crosses to the owner
    assert via is first, "placement made the table on the worker that took the request"
    created = made.json()
    table_id, key, token = created["table"]["id"], created["key"], created["token"]
    creator = {"Authorization": f"Bearer {token}"}
    base = f"{via.base}/api/tables/{table_id}"
    left = httpx2.post(f"{base}/join", json={"display_name": "Bob", "key": key, **bob})
    assert left.status_code == 200, left.text
    assert httpx2.post(f"{base}/leave", headers={
        "Authorization": f"Bearer {left.json()['token']}"}).status_code == 204
    joined = httpx2.post(f"{base}/join", json={"display_name": "Bob", "key": key, **bob})
    assert joined.status_code == 200, joined.text
    assert httpx2.put(f"{base}/seats/2/bot", json={"bot": "random"},
                      headers=creator).status_code == 200
    assert httpx2.post(f"{base}/start", headers=creator).status_code == 200

    async def forwarded() -> None:
        for hello in ({"type": "hello", "token": token},
                      {"type": "hello", "key": key}):
            ws = await welcomed(via.port, table_id, hello)
            await ws.close()

    asyncio.run(forwarded())
    used = {"Ann's secret": ann["player_secret"], "Bob's secret": bob["player_secret"],
            "the invite key": key, "the creator's token": token,
            "Bob's first token": left.json()["token"], "Bob's token": joined.json()["token"]}
    return used, [hash_token(key), hash_token(token)]
