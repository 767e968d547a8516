"""The table host the settings pick: one process (``LocalHost``) or workers sharing the
tables through Redis (``RedisHost``), behind the one interface the game server uses."""

from __future__ import annotations

import asyncio
from pathlib import Path

from twintable.server.app import host_for
from twintable.server.hosting import LocalHost
from twintable.server.metrics import Metrics
from twintable.server.redis_host import RedisHost
from twintable.server.settings import Settings
from twintable.server.storage.store import Store


def test_the_settings_pick_the_host(tmp_path: Path) -> None:
    async def run() -> None:
        url = f"sqlite+aiosqlite:///{tmp_path / 'a.sqlite3'}"
        store = Store(url)
        try:
            alone = host_for(Settings(db_url=url), store, Metrics())
            assert isinstance(alone, LocalHost) and alone.alone and alone.cluster is None
            metrics = Metrics()
            shared = host_for(Settings(db_url=url, redis_url="redis://127.0.0.1:1/0"),
                              store, metrics)
            # Made without a round trip: Redis is first reached when the host starts.
            assert isinstance(shared, RedisHost) and not shared.alone
            assert shared.cluster is not None and metrics.worker == shared.worker
        finally:
            await store.close()

    asyncio.run(run())


def test_one_process_runs_every_table_of_its_sqlite_file(tmp_path: Path) -> None:
    async def run() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'b.sqlite3'}")
        await store.migrate()
        host = LocalHost(store)
        try:
            assert await host.acquire("t1") == (True, None)
            assert await host.hold_new("t2") is None  # writes carry no token
            assert await host.owner("t1") is None  # nobody else runs a table
            assert host.leases() is None  # nothing for /metrics to count
            assert await host.hand_over({"t1": True}, ["t1"]) == {}  # nobody to take it
        finally:
            await host.close()
            await store.close()

    asyncio.run(run())
