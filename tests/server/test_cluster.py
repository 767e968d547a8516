"""server/cluster.py against the real Redis: the shared lobby lists a page of every
worker's public tables and forgets a dead worker's, and new tables go to the live worker
that runs the fewest."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import secrets
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx2
import pytest

from tests.server.test_cluster_faults import (  # noqa: F401 (fixtures)
    database,
    services,
    workers,
)
from twintable.server.cluster import Cluster

pytestmark = pytest.mark.services
REDIS = "redis://127.0.0.1:6379/13"


async def _flushed(cluster: Cluster) -> None:
    """Wait until what the cluster queued has reached Redis."""
    while not cluster._outbox.empty():
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def workers_running(counts: list[int]) -> AsyncIterator[tuple[list[Cluster], list[int]]]:
    """Started workers of one platform, each reporting its entry of ``counts`` (a list
    the test may change) as its number of tables; closed at the end."""
    prefix = f"tt-test-{secrets.token_hex(4)}:"
    workers = [Cluster(REDIS, prefix, 2000) for _ in counts]
    for n, cluster in enumerate(workers):
        cluster.load = functools.partial(counts.__getitem__, n)
        await cluster.start()
    try:
        yield workers, counts
    finally:
        for cluster in workers:
            await cluster.close()


def test_the_lobby_forgets_tables_that_no_worker_holds(services: None) -> None:  # noqa: F811
    async def run() -> None:
        prefix = f"tt-test-{secrets.token_hex(4)}:"
        alive, dead = Cluster(REDIS, prefix, 2000), Cluster(REDIS, prefix, 2000)
        await alive.start()
        await dead.start()
        try:
            for cluster, table_id in ((alive, "kept"), (dead, "orphan"), (dead, "moved")):
                assert await cluster.acquire(table_id)
                cluster.put_info(table_id, 1, json.dumps({"id": table_id}), "running")
            await _flushed(dead)
            await _flushed(alive)
            # The dead worker's leases go (expired); "moved" was taken over meanwhile.
            await dead.redis.delete(*(dead._lease_key(t) for t in ("orphan", "moved")))
            assert await alive.acquire("moved")
            assert await alive.prune_lobby({"kept", "moved"}) == 1
            assert sorted(json.loads(info)["id"]
                          for info in await alive.listed("running", 0, 10)) == ["kept", "moved"]
        finally:
            await dead.close()
            await alive.close()

    asyncio.run(run())


def test_new_tables_go_to_the_live_worker_that_runs_fewest(services: None) -> None:  # noqa: F811
    async def run() -> None:
        async with workers_running([5, 2]) as ((here, there), _):
            # A worker that died without a word: its count stays, its heartbeat went.
            await here.redis.hset(here._load_key, "gone", 0)
            await here.redis.zadd(here._placing_key("gone"), {"old": 2**50})
            # Tables go to the other worker, each reserved at once, until it runs as many
            # as this one (2, 3, 4 -> 5): then here.
            chosen = [(await here.place()).worker for _ in range(4)]
            assert chosen == [there.worker_id] * 3 + [None]
            assert "gone" not in await here.redis.hkeys(here._load_key)
            assert not await here.redis.exists(here._placing_key("gone"))

    asyncio.run(run())


def test_a_reservation_counts_until_the_heartbeat_that_counts_its_table(
        services: None) -> None:  # noqa: F811
    async def run() -> None:
        async with workers_running([0, 0]) as ((here, there), counts):
            first = await here.place()
            assert first.worker is None  # a tie: here
            # A heartbeat written before the table is made (still 0 tables) does not
            # erase the reservation: the next table goes to the other worker.
            await here._beat()
            second = await here.place()
            assert second.worker == there.worker_id
            # Both made; their workers' heartbeats count them and drop the reservations
            # (one table each, not two), so the next goes to the first again.
            counts[:] = [1, 1]
            here.made(first.reservation)
            there.made(second.reservation)
            await here._beat()
            await there._beat()
            assert await here.redis.zcard(here._placing_key(here.worker_id)) == 0
            assert await here.redis.zcard(here._placing_key(there.worker_id)) == 0
            third = await there.place()
            assert third.worker is None
            # A table that could not be made gives its reservation back.
            there.not_made(third.reservation)
            await _flushed(there)
            assert (await here.place()).worker is None

    asyncio.run(run())


def test_tables_opened_at_once_on_both_workers_are_shared_evenly(
        services: None) -> None:  # noqa: F811
    async def run() -> None:
        async with workers_running([0, 0, 0]) as (workers, _):
            asking = [workers[n % 2] for n in range(30)]  # the third is only chosen
            placed = await asyncio.gather(*(cluster.place() for cluster in asking))
            chosen = [p.worker or asker.worker_id
                      for p, asker in zip(placed, asking, strict=True)]
            assert sorted(chosen.count(c.worker_id) for c in workers) == [10, 10, 10]

    asyncio.run(run())


def test_the_lobby_lists_a_page_of_public_tables_by_status_newest_first(
        services: None) -> None:  # noqa: F811
    async def run() -> None:
        prefix = f"tt-test-{secrets.token_hex(4)}:"
        one, two = Cluster(REDIS, prefix, 2000), Cluster(REDIS, prefix, 2000)
        for cluster in (one, two):
            await cluster.start()
        try:
            # Tables of both workers; t3 is private; t4 started after it was made.
            for n, cluster in enumerate((one, two, one, two, one)):
                cluster.put_info(f"t{n}", 100 + n, json.dumps({"id": f"t{n}"}),
                                 None if n == 3 else "open")
            one.put_info("t4", 104, json.dumps({"id": "t4", "started": True}), "running")
            for cluster in (one, two):
                await _flushed(cluster)

            async def ids(status: str, offset: int = 0, limit: int = 10) -> list[str]:
                return [json.loads(info)["id"]
                        for info in await two.listed(status, offset, limit)]

            assert await ids("open") == ["t2", "t1", "t0"]
            assert await ids("open", 1, 1) == ["t1"]
            assert await ids("running") == ["t4"]
            assert await ids("finished") == [] and await ids("nonsense") == []
            one.drop_info("t2")
            await _flushed(one)
            assert await ids("open") == ["t1", "t0"]
        finally:
            await two.close()
            await one.close()

    asyncio.run(run())


def test_a_new_public_table_is_listed_by_every_worker_at_once(
        database: str, tmp_path: Path) -> None:  # noqa: F811
    with workers(database, REDIS, tmp_path, one_machine=False) as pair:
        made = httpx2.post(f"{pair[0].base}/api/tables", json={
            "game": "timo", "players": 3, "display_name": "Ann"}).json()["table"]["id"]
        deadline = time.monotonic() + 3
        while not all(made in {t["id"] for t in httpx2.get(f"{w.base}/api/tables").json()}
                      for w in pair):
            assert time.monotonic() < deadline, "nobody joined, and the table is not listed"
            time.sleep(0.1)
