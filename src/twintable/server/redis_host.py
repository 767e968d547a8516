"""The table host of several workers: Redis leases say who runs a table, PostgreSQL
fences make it safe when two think they do (``server/cluster.py``), and a scan takes
over the tables in play that no worker holds. The interface is ``server/hosting.py``'s
:class:`~twintable.server.hosting.TableHost`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping

from redis.exceptions import RedisError

from twintable.server.bus import TakeOverCall
from twintable.server.cluster import Cluster
from twintable.server.errors import LobbyError
from twintable.server.hosting import HostedServer
from twintable.server.metrics import Metrics
from twintable.server.settings import Settings
from twintable.server.stopping import cancel_within
from twintable.server.storage.store import Store

log = logging.getLogger("twintable.server")


class RedisHost:
    """Several workers share the tables through Redis leases and PostgreSQL fences."""

    alone = False

    def __init__(self, store: Store, settings: Settings, metrics: Metrics):
        self.store = store
        self.settings = settings
        self.cluster: Cluster = Cluster(settings.redis_url or "", settings.redis_prefix,
                                        settings.lease_ttl_ms)
        self.cluster.timings = metrics.redis
        metrics.worker = self.cluster.worker_id
        self._scanner: asyncio.Task[None] | None = None

    @property
    def worker(self) -> str | None:
        return self.cluster.worker_id

    @property
    def address(self) -> str | None:
        return self.cluster.address

    async def start(self, server: HostedServer) -> None:
        lose: Callable[[str], None] = server.lose_later

        async def lost(table_id: str) -> None:
            # Dropped in a task of its own: the lease loop renews every other table, and
            # must not wait for this one's append in flight (the database may be slow).
            lose(table_id)

        self.cluster.on_lost = lost
        self.cluster.load = server.tables_in_play
        await self.cluster.start()
        self._scanner = asyncio.create_task(self._scan(server))

    async def acquire(self, table_id: str) -> tuple[bool, int | None]:
        """The lease, with a token above the one PostgreSQL last saw, claimed there."""
        floor = await self.store.fence(table_id) or 0
        for _ in range(3):
            fence = await self.cluster.acquire(table_id, floor)
            if fence is None:
                return False, None
            if await self.store.claim(table_id, fence):
                return True, fence
            # The database saw a newer token than Redis handed out (a Redis that lost its
            # data): give the lease back and ask again above that token.
            await self.cluster.release(table_id)
            floor = await self.store.fence(table_id) or 0
        return False, None

    async def hold_new(self, table_id: str) -> int | None:
        fence = await self.cluster.acquire(table_id, asking=True)
        if fence is None:
            raise LobbyError(503, "server.busy", "could not open the table; try again")
        return fence

    async def release(self, table_id: str, listed: bool = False) -> None:
        with contextlib.suppress(Exception):  # an expiring lease frees it anyway
            await self.cluster.release(table_id)
        if listed:
            self.cluster.drop_info(table_id)

    async def owner(self, table_id: str) -> str | None:
        return await self.cluster.owner(table_id)

    def publish(self, table_id: str, created_ms: int, info_json: str,
                listed_as: str | None, relist: bool) -> None:
        self.cluster.put_info(table_id, created_ms, info_json, listed_as, relist=relist)

    def leases(self) -> tuple[int, int, int] | None:
        cluster = self.cluster
        return len(cluster.held), cluster.leases_gained, cluster.leases_lost

    async def _scan(self, server: HostedServer) -> None:
        """Take over every table in play that no worker holds (a worker died, or Redis
        forgot the leases), and drop the lobby entries of tables nobody holds, a few
        times per lease time to live."""
        while True:
            try:
                in_play = await self.store.tables_in_play()
                free = [t for t in in_play if t not in server.tables]
                held = await self.cluster.leased(free)
                for table_id in free:
                    if len(server.tables) >= self.settings.max_tables:
                        break  # full: the other workers take the rest (a person asking
                        # for one still gets it here, see locate: a game is never lost)
                    if table_id not in held:
                        await server.take_over(table_id)
                await self.cluster.prune_lobby(set(server.tables))
            except Exception as error:
                log.warning("could not look for tables to take over",
                            extra={"error": repr(error)})
            await asyncio.sleep(self.settings.lease_ttl_ms / 2000)

    async def stop_scanning(self) -> None:
        if self._scanner is not None:
            await cancel_within([self._scanner], 1.0, "table scans")

    async def hand_over(self, given_up: Mapping[str, bool],
                        in_play: list[str]) -> dict[str, str | None]:
        with contextlib.suppress(RedisError, OSError):  # Redis away: the leases expire
            await self.cluster.leave()
        for table_id, listed in given_up.items():
            await self.release(table_id, listed)
        return await self._successors(in_play)

    async def _successors(self, table_ids: list[str]) -> dict[str, str | None]:
        """Ask the live workers (fewest tables first) to take ``table_ids`` over now, in
        turn; the tables each took, with their sockets there. A worker that does not
        answer leaves its share to the scans (a lease time at most)."""
        cluster = self.cluster
        try:
            peers = await cluster.peers()
        except (RedisError, OSError):
            return {}
        if not peers or not table_ids:
            return {}
        shares = {peer: table_ids[n::len(peers)] for n, peer in enumerate(peers)}

        async def ask(peer: str, tables: list[str]) -> dict[str, str | None]:
            try:
                answer = await cluster.call(peer, TakeOverCall(tables=tables))
            except (RedisError, OSError, TimeoutError):
                return {}
            return dict(answer.ok or {}) if answer.error is None else {}

        taken: dict[str, str | None] = {}
        for answered in await asyncio.gather(*(ask(p, t) for p, t in shares.items() if t)):
            taken.update(answered)
        return taken

    async def close(self) -> None:
        if self._scanner is not None:
            self._scanner.cancel()
        await self.cluster.close()  # gives every lease back
