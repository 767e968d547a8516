"""Where tables run: one process, or several workers sharing them through Redis.

The game server (``server/game_server.py``) keeps the tables of this process and asks a
:class:`TableHost` whether it may run one, what token its writes carry, who runs it
otherwise, and whom to hand its tables to when it leaves. Two hosts, picked from the
settings by ``server/app.py``'s :func:`~twintable.server.app.host_for`:

- :class:`LocalHost`: this process runs every table it is asked about (on PostgreSQL,
  shared with other single servers, through per-table advisory locks:
  ``storage/ownership.py``). Writes carry no token.
- :class:`~twintable.server.redis_host.RedisHost`: each table runs on the worker holding
  its lease (``server/cluster.py``); a lease comes with a fencing token claimed in
  PostgreSQL that every write carries, a lease lost drops the table here, and a scan
  takes over the tables in play that no worker holds. Imported only when the settings
  name a Redis.

Nothing about leases, fences being claimed or the bus reaches the single-table path;
the multi-worker facade (``server/lobby.py``, ``server/relay.py``, the routes) reaches
the bus through :attr:`TableHost.cluster`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING, Protocol

from twintable.server.storage.ownership import TableLeases
from twintable.server.storage.store import Store

if TYPE_CHECKING:
    from twintable.server.cluster import Cluster


class HostedServer(Protocol):
    """What a host uses of the game server whose tables it hosts."""

    @property
    def tables(self) -> Mapping[str, object]:
        """The tables this process runs, by id."""

    def take_over(self, table_id: str) -> Awaitable[object | None]:
        """Run a table no worker holds here (None: another got it first)."""

    def lose_later(self, table_id: str) -> None:
        """Drop a table this process may no longer run."""

    def tables_in_play(self) -> int: ...


class TableHost(Protocol):
    """Who may run which table, and what their writes carry."""

    @property
    def alone(self) -> bool:
        """True: no other worker runs this database's tables through this host (a table
        asked about is either here or read from the database)."""

    @property
    def cluster(self) -> Cluster | None:
        """The bus to the other workers (None: alone)."""

    @property
    def worker(self) -> str | None:
        """This worker's id among the others (None: alone)."""

    @property
    def address(self) -> str | None:
        """Where clients reach this worker directly, when it has an address of its own."""

    async def start(self, server: HostedServer) -> None:
        """Begin hosting ``server``'s tables (with others: join them, scan for tables)."""

    async def acquire(self, table_id: str) -> tuple[bool, int | None]:
        """Whether this process may run the stored table now, and the token its writes
        carry."""

    async def hold_new(self, table_id: str) -> int | None:
        """Hold a table about to be made here: the token its writes carry. Raises
        :class:`~twintable.server.errors.LobbyError` when it cannot be held now."""

    async def release(self, table_id: str, listed: bool = False) -> None:
        """Give a table up; ``listed``: it also leaves the shared lobby."""

    async def owner(self, table_id: str) -> str | None:
        """The worker that runs the table, None when none does (alone: always None)."""

    def publish(self, table_id: str, created_ms: int, info_json: str,
                listed_as: str | None, relist: bool) -> None:
        """Give the shared lobby a table's new description (alone: nobody to tell)."""

    def leases(self) -> tuple[int, int, int] | None:
        """For ``/metrics``: the tables held, gained and lost (None: alone)."""

    async def stop_scanning(self) -> None:
        """Take no more free tables over (a drain)."""

    async def hand_over(self, given_up: Mapping[str, bool],
                        in_play: list[str]) -> dict[str, str | None]:
        """Leave the others (a drain), give up the tables in ``given_up`` (each: whether
        it leaves the shared lobby too), and ask the live workers to take ``in_play``
        over now: the tables taken, with their sockets there."""

    async def close(self) -> None:
        """Give every table back and let go of what hosting holds."""


class LocalHost:
    """One process runs the tables it is asked about: every table of a SQLite file, each
    table whose advisory lock it holds on PostgreSQL."""

    alone = True
    cluster = None
    worker = None
    address = None

    def __init__(self, store: Store):
        self._leases = TableLeases(store.engine)

    async def start(self, server: HostedServer) -> None:
        return None

    async def acquire(self, table_id: str) -> tuple[bool, int | None]:
        return await self._leases.acquire(table_id), None

    async def hold_new(self, table_id: str) -> int | None:
        await self._leases.acquire(table_id)  # a fresh random id: nobody else holds it
        return None

    async def release(self, table_id: str, listed: bool = False) -> None:
        await self._leases.release(table_id)

    async def owner(self, table_id: str) -> str | None:
        return None

    def publish(self, table_id: str, created_ms: int, info_json: str,
                listed_as: str | None, relist: bool) -> None:
        return None

    def leases(self) -> tuple[int, int, int] | None:
        return None

    async def stop_scanning(self) -> None:
        return None

    async def hand_over(self, given_up: Mapping[str, bool],
                        in_play: list[str]) -> dict[str, str | None]:
        for table_id in given_up:
            await self._leases.release(table_id)
        return {}  # nobody to hand them to: the clients come back after a restart

    async def close(self) -> None:
        await self._leases.close()
