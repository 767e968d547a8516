"""server/cluster.py against the real Redis: the shared lobby forgets a dead worker's
tables, and new tables go to the live worker that runs the fewest."""

from __future__ import annotations

import asyncio
import json
import secrets

import pytest

from tests.server.test_cluster_faults import services  # noqa: F401 (a fixture)
from twintable.server.cluster import Cluster

pytestmark = pytest.mark.services
REDIS = "redis://127.0.0.1:6379/13"


async def _flushed(cluster: Cluster) -> None:
    """Wait until what the cluster queued has reached Redis."""
    while not cluster._outbox.empty():
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)


def test_the_lobby_forgets_tables_that_no_worker_holds(services: None) -> None:  # noqa: F811
    async def run() -> None:
        prefix = f"tt-test-{secrets.token_hex(4)}:"
        alive, dead = Cluster(REDIS, prefix, 2000), Cluster(REDIS, prefix, 2000)
        await alive.start()
        await dead.start()
        try:
            for cluster, table_id in ((alive, "kept"), (dead, "orphan"), (dead, "moved")):
                assert await cluster.acquire(table_id)
                cluster.put_info(table_id, 1, json.dumps({"id": table_id}))
            await _flushed(dead)
            await _flushed(alive)
            # The dead worker's leases go (expired); "moved" was taken over meanwhile.
            await dead.redis.delete(*(dead._lease_key(t) for t in ("orphan", "moved")))
            assert await alive.acquire("moved")
            assert await alive.prune_lobby({"kept", "moved"}) == 1
            assert sorted(json.loads(info)["id"] for _, info in await alive.infos()) == [
                "kept", "moved"]
        finally:
            await dead.close()
            await alive.close()

    asyncio.run(run())


def test_new_tables_go_to_the_live_worker_that_runs_fewest(services: None) -> None:  # noqa: F811
    async def run() -> None:
        prefix = f"tt-test-{secrets.token_hex(4)}:"
        here, there, gone = (Cluster(REDIS, prefix, 2000) for _ in range(3))
        counts = {here: 5, there: 2, gone: 0}
        for cluster in counts:
            cluster.load = lambda cluster=cluster: counts[cluster]
            await cluster.start()
        try:
            await gone.close()  # it ran nothing, but it is not alive any more
            # Tables go to the other worker, each counted at once, until it runs as many
            # as this one (2, 3, 4 -> 5): then here.
            chosen = []
            for _ in range(4):
                chosen.append(await here.place())
                await _flushed(here)
            assert chosen == [there.worker_id] * 3 + [None]
        finally:
            await there.close()
            await here.close()

    asyncio.run(run())
