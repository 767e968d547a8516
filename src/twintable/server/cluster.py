"""Several workers, one platform: what crosses workers goes through Redis.

- **Leases.** A worker runs a table only while it holds the table's lease, a Redis key
  set with ``NX`` and a time to live and renewed while the table lives. Each grant comes
  with a fencing token from a per-table counter (``INCR``); the worker claims the table
  in PostgreSQL with it, and every later write of the table carries it
  (``storage/store.py``), so a worker that lost its lease (paused, cut off) can no longer
  write: the lease decides who should run a table, the fence makes it safe when two
  think they do. The counter is raised above the token PostgreSQL last saw when a lease
  is granted, so a Redis that restarted empty never hands out an old token.
- **The bus.** Each worker subscribes to one pub/sub channel of its own. Clients that
  reach another worker are served through the owner: the receiving worker forwards
  their frames there and the owner's frames back, lobby requests for a table go to its
  owner as calls (typed messages: ``server/bus.py``). Publishing goes through one task,
  so frames keep their order. Pub/sub delivers at most once: when the subscription
  breaks, every forwarded connection is closed and its client reconnects and resumes
  (the protocol's hello), as after any network drop. A break is noticed however it
  happens: the Redis client reconnects and resubscribes by itself (Redis closes a
  subscriber that falls behind, "output buffer limits"), so a callback on its connection
  reports each reconnection; and every message carries its sender and a number counting
  up per receiving channel, so a message lost any other way shows as a gap in the next
  one's number. Either is logged, counted (``twintable_bus_resets_total``) and answered
  with that reset.
- **Addresses.** A worker may have an address of its own (``serve --workers`` gives each
  a port of its own; ``--advertise-url`` names one behind a proxy), kept in its heartbeat
  key. A client whose hello says it follows redirects is sent there (``moved``) instead
  of being served through Redis: the frames of a move then cross no worker.
- **The lobby.** Each owner keeps its tables' descriptions in one hash, and its public
  tables' ids in one sorted set per status (by creation time), so any worker lists a page
  of every worker's tables reading only that page; a heartbeat key per worker says which
  workers are alive.
- **Placement.** Each worker reports how many tables it runs; a new table is made on the
  live worker that runs the fewest (a lobby call when that is another worker), so the
  workers share the play whichever of them the lobby requests reach. The choice is one
  script (read every count, pick, reserve), so requests reaching two workers at once do
  not both pick the same one; a reservation counts as a table until the heartbeat that
  reports the table made removes it, in the same transaction (a count written before the
  table was made can never erase it), or until it expires (the create never happened).
- **Per-address counts.** An address's unfinished tables and its open WebSockets are
  sorted sets of places (``places:``, ``sockets:``) added by one script that checks the
  limit (``claim_table``, ``open_socket``) and renewed by their worker's heartbeat, so
  a dead worker's places expire (three lease times) and a live one's never do.

No consensus of our own: leases are Redis keys, safety is PostgreSQL's row lock.

Each round trip to Redis that the server waits on is timed (``redis_seconds``: lease
grants, renewals and releases, heartbeats, the bus's batches, calls to other workers),
and the leases gained and lost are counted, for ``server/metrics.py``.

Two clients: the worker's own loops (heartbeat, leases, bus) tolerate a slow Redis for a
third of a lease's life, but what a person's request waits on (placing and counting a
new table, a socket's place, the lobby's pages) goes through :attr:`Cluster.asking`,
which gives up after :data:`ASKING_TIMEOUT_S` with no retry: a hung Redis made table
creation wait 20 s for its 503 (issue #38).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import redis.asyncio as redis
from redis.asyncio.retry import Retry
from redis.backoff import ConstantBackoff, NoBackoff
from redis.exceptions import RedisError

from twintable.server import cluster_scripts as scripts
from twintable.server.bus import (
    AnyCall,
    BusMessage,
    CallAnswer,
    LobbyAnswer,
    LobbyCall,
    SocketClosed,
    SocketFrame,
    decode,
    encode,
)
from twintable.server.logs import without_password
from twintable.server.metrics import Timings, redis_timings
from twintable.server.stopping import cancel_within

log = logging.getLogger("twintable.server")

#: The statuses the lobby lists public tables under (a sorted set each).
LISTED_STATUSES = ("open", "running", "finished", "abandoned")
#: A live worker's heartbeat value when it has no address of its own.
NO_ADDRESS = "-"
#: How long a lobby call to another worker may take before it is given up.
CALL_TIMEOUT_S = 5.0
#: Longest a closing worker waits for its bus and lease loops to end.
CLOSE_WITHIN_S = 2.0
#: How long one Redis round trip of a person's request may take (answered 503 after).
ASKING_TIMEOUT_S = 1.0


@dataclass(frozen=True)
class Placement:
    """Where a new table is to be made, and the reservation that counts it until then."""

    worker: str | None
    """Another worker's id, or None: here."""
    reservation: str


class ClusterUnavailable(RuntimeError):
    """Redis cannot be reached."""


class Cluster:
    """This worker's view of the others: its leases, its channel, the shared lobby."""

    def __init__(self, url: str, prefix: str = "twintable:", lease_ttl_ms: int = 10_000):
        self.url = url
        self.prefix = prefix
        self.ttl_ms = lease_ttl_ms
        self.worker_id = secrets.token_hex(6)
        self.timings: Timings = redis_timings()
        """Where round trips are timed (the worker's metrics replace this one)."""
        self.leases_gained = self.leases_lost = 0
        self.redis = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=max(1.0, lease_ttl_ms / 3000),
            socket_connect_timeout=1.0, retry=Retry(ConstantBackoff(0.05), 1),
            health_check_interval=0)
        self.asking = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=ASKING_TIMEOUT_S,
            socket_connect_timeout=ASKING_TIMEOUT_S, retry=Retry(NoBackoff(), 0),
            health_check_interval=0)
        """The client for the round trips a person's request waits on."""
        self.address: str | None = None
        """Where clients reach this worker directly: a WebSocket base URL made from its
        configuration (``server/public.py``); None: only through the shared address."""
        self.held: dict[str, int] = {}
        """Tables whose lease this worker holds, with their fencing tokens."""
        self.leaving = False
        """Draining: the heartbeat no longer says this worker is alive (:meth:`leave`)."""
        self.on_lost: Callable[[str], Awaitable[None]] | None = None
        self.on_message: Callable[[BusMessage], None] | None = None
        """Called with each message received (but answers to this worker's calls)."""
        self.on_reset: Callable[[str], None] | None = None
        """Called, with why, when messages may have been lost: the subscription broke or
        was renewed, a publish failed, or a message's number skipped some."""
        self._sent: dict[str, int] = {}
        """The number of the last message sent to each worker."""
        self._received: dict[str, int] = {}
        """The number of the last message received from each worker."""
        self.made_by: Callable[[], dict[str, list[str]]] = dict
        """The unfinished tables made here, by the address that made them: each
        heartbeat renews their places in the per-address counts (``claim_table``)."""
        self._counted: dict[str, set[str]] = {}
        self.sockets_by: Callable[[], dict[str, set[str]]] = dict
        """The WebSockets open here, by client address (their ids): each heartbeat
        renews their places in the per-address counts (``open_socket``)."""
        self.on_socket_totals: Callable[[dict[str, int]], None] = lambda _: None
        """Called after each heartbeat with how many WebSockets each address that has
        some here holds across every worker."""
        self._sockets_counted: dict[str, set[str]] = {}
        self._settled: list[tuple[str, str, str | None]] = []
        self.load: Callable[[], int] = lambda: len(self.held)
        """How many tables this worker runs, reported with each heartbeat."""
        self._outbox: asyncio.Queue[tuple[str, ...]] = asyncio.Queue()
        """Redis commands to send in order: (command, key, arguments...)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._calls: dict[str, asyncio.Future[CallAnswer]] = {}
        self._renewed_at = time.monotonic()
        self._acquire = self.redis.register_script(scripts.ACQUIRE)
        self._renew = self.redis.register_script(scripts.RENEW)
        self._release = self.redis.register_script(scripts.RELEASE)
        self._place = self.redis.register_script(scripts.PLACE)
        self._claim = self.redis.register_script(scripts.CLAIM)
        self._open_socket = self.redis.register_script(scripts.OPEN_SOCKET)
        self._made: list[str] = []
        """Reservations of tables made here, to remove with the next reported count."""

    # -- keys -----------------------------------------------------------------------
    def _lease_key(self, table_id: str) -> str:
        return f"{self.prefix}lease:{table_id}"

    def _channel(self, worker_id: str) -> str:
        return f"{self.prefix}worker:{worker_id}"

    def _alive_key(self, worker_id: str) -> str:
        return f"{self.prefix}alive:{worker_id}"

    @property
    def _lobby_key(self) -> str:
        return f"{self.prefix}lobby"

    def _listed_key(self, status: str) -> str:
        return f"{self.prefix}lobby:{status}"

    @property
    def _load_key(self) -> str:
        return f"{self.prefix}load"

    def _placing_key(self, worker_id: str) -> str:
        return f"{self.prefix}placing:{worker_id}"

    def _places_key(self, address: str) -> str:
        return f"{self.prefix}places:{address}"

    def _sockets_key(self, address: str) -> str:
        return f"{self.prefix}sockets:{address}"

    # -- life -----------------------------------------------------------------------
    async def ping(self) -> None:
        try:
            await self.redis.ping()
        except (RedisError, OSError) as error:
            raise ClusterUnavailable(f"Redis at {without_password(self.url)} is unreachable: "
                                     f"{error}") from None

    async def start(self) -> None:
        await self.ping()
        await self._beat()
        for loop in (self._listen, self._publish, self._keep_leases):
            self._tasks.append(asyncio.create_task(loop()))

    async def close(self) -> None:
        await cancel_within(self._tasks, CLOSE_WITHIN_S, "worker bus")
        with contextlib.suppress(RedisError, OSError):
            for table_id in list(self.held):
                await self.release(table_id)
            await self.redis.delete(self._alive_key(self.worker_id))
            await self.redis.hdel(self._load_key, self.worker_id)
            await self.redis.delete(self._placing_key(self.worker_id))
        await self.redis.aclose()
        await self.asking.aclose()

    # -- leases ---------------------------------------------------------------------
    async def acquire(self, table_id: str, floor: int = 0, asking: bool = False
                      ) -> int | None:
        """The table's lease and a fencing token above ``floor`` (the token PostgreSQL
        last saw), or None while another worker holds it. ``asking``: a person's request
        waits on it (a new table)."""
        started = time.perf_counter()
        token = int(await self._acquire(
            keys=[self._lease_key(table_id), f"{self.prefix}fence:{table_id}"],
            args=[self.worker_id, self.ttl_ms, floor],
            client=self.asking if asking else None))
        self.timings.observe(("acquire",), time.perf_counter() - started)
        if not token:
            return None
        self.held[table_id] = token
        self.leases_gained += 1
        return token

    async def release(self, table_id: str) -> None:
        token = self.held.pop(table_id, None)
        if token is not None:
            started = time.perf_counter()
            await self._release(keys=[self._lease_key(table_id)],
                                args=[f"{self.worker_id}:{token}"])
            self.timings.observe(("release",), time.perf_counter() - started)

    def forget(self, table_id: str) -> None:
        """Stop renewing a lease this worker no longer has."""
        self.held.pop(table_id, None)

    async def owner(self, table_id: str) -> str | None:
        """The worker holding the table's lease, if any."""
        value = await self.redis.get(self._lease_key(table_id))
        return str(value).rsplit(":", 1)[0] if value else None

    async def leased(self, table_ids: list[str]) -> set[str]:
        """Which of these tables some worker holds."""
        if not table_ids:
            return set()
        values = await self.redis.mget([self._lease_key(t) for t in table_ids])
        return {t for t, value in zip(table_ids, values, strict=True) if value}

    async def count(self, name: str, ttl_s: int) -> int:
        """Add one to the platform-wide counter ``name`` (kept ``ttl_s`` after its first
        count): its new value."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.incr(f"{self.prefix}count:{name}")
            pipe.expire(f"{self.prefix}count:{name}", ttl_s, nx=True)
            value, _ = await pipe.execute()
        return int(value)

    async def leave(self) -> None:
        """Stop being a live worker (a drain): no new table is placed here, and the
        heartbeat no longer says this worker is alive; its leases are renewed until they
        are given back."""
        self.leaving = True
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._alive_key(self.worker_id))
            pipe.hdel(self._load_key, self.worker_id)
            pipe.delete(self._placing_key(self.worker_id))
            await pipe.execute()

    async def peers(self) -> list[str]:
        """The other live workers, those running the fewest tables first."""
        loads = {str(worker): int(count) for worker, count in
                 (await self.redis.hgetall(self._load_key)).items()}
        others = [worker for worker in loads if worker != self.worker_id]
        alive = await self.redis.mget([self._alive_key(w) for w in others]) if others else []
        return sorted((w for w, up in zip(others, alive, strict=True) if up),
                      key=loads.__getitem__)

    async def alive(self, worker_id: str) -> bool:
        return bool(await self.redis.exists(self._alive_key(worker_id)))

    async def address_of(self, worker_id: str) -> str | None:
        """A live worker's own address (see :attr:`address`), if it has one."""
        value = await self.redis.get(self._alive_key(worker_id))
        return None if value in (None, NO_ADDRESS) else str(value)

    async def _beat(self) -> None:
        # The count and the removal of the reservations it now includes in one
        # transaction: placement never sees a table counted twice, or not at all.
        made, self._made = self._made, []
        settled, self._settled = self._settled, []
        counted = {address: set(ids) for address, ids in self.made_by().items()}
        sockets = {address: set(ids) for address, ids in self.sockets_by().items() if ids}
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                if not self.leaving:
                    pipe.set(self._alive_key(self.worker_id), self.address or NO_ADDRESS,
                             px=self.ttl_ms)
                    pipe.hset(self._load_key, self.worker_id, self.load())
                if made:
                    pipe.zrem(self._placing_key(self.worker_id), *made)
                self._count_places(pipe, counted, settled)
                self._count_sockets(pipe, sockets)
                started = time.perf_counter()
                results = await pipe.execute()
                self.timings.observe(("heartbeat",), time.perf_counter() - started)
        except BaseException:
            self._made[:0] = made
            self._settled[:0] = settled
            raise
        self._counted, self._sockets_counted = counted, sockets
        # The pipeline ends with each address's count of sockets, in ``sockets``' order.
        totals = results[len(results) - len(sockets):] if sockets else []
        self.on_socket_totals(dict(zip(sockets, map(int, totals), strict=True)))

    @property
    def _place_ms(self) -> int:
        """How long a place in a per-address count lasts unless a heartbeat renews it
        (a dead worker's tables stop counting this long after it died)."""
        return 3 * self.ttl_ms

    def _count_places(self, pipe: Any, counted: dict[str, set[str]],
                      settled: list[tuple[str, str, str | None]]) -> None:
        expiry = int(time.time() * 1000) + self._place_ms
        for address, ids in counted.items():
            pipe.zadd(self._places_key(address), dict.fromkeys(ids, expiry))
            pipe.pexpire(self._places_key(address), self._place_ms)
        for address, ids in self._counted.items():  # finished or given up since
            if gone := ids - counted.get(address, set()):
                pipe.zrem(self._places_key(address), *gone)
        for address, reservation, _ in settled:
            pipe.zrem(self._places_key(address), reservation)

    def _count_sockets(self, pipe: Any, sockets: dict[str, set[str]]) -> None:
        """Renew the places of the sockets open here (a dead worker's expire), drop
        those closed since the last heartbeat (a close racing a renewal may have put
        one back), then read each address's count across workers (last, in order)."""
        now = int(time.time() * 1000)
        expiry = now + self._place_ms
        for address, ids in sockets.items():
            pipe.zadd(self._sockets_key(address), dict.fromkeys(ids, expiry))
            pipe.pexpire(self._sockets_key(address), self._place_ms)
        for address, ids in self._sockets_counted.items():
            if gone := ids - sockets.get(address, set()):
                pipe.zrem(self._sockets_key(address), *gone)
        for address in sockets:
            pipe.zremrangebyscore(self._sockets_key(address), "-inf", now)
        for address in sockets:
            pipe.zcard(self._sockets_key(address))

    async def open_socket(self, address: str, ident: str, limit: int) -> tuple[bool, int]:
        """A place for one more WebSocket from ``address`` (``ident``: the socket's id),
        across every worker: whether it was given, and how many the address holds now."""
        given, held = await self._open_socket(keys=[self._sockets_key(address)],
                                              args=[limit, ident, self._place_ms],
                                              client=self.asking)
        return bool(given), int(held)

    def close_socket(self, address: str, ident: str) -> None:
        """A socket of ``address`` closed here: its place goes."""
        self._outbox.put_nowait(("zrem", self._sockets_key(address), ident))

    async def claim_table(self, address: str, reservation: str, limit: int) -> int:
        """A place for a new table from ``address``, across every worker: -1 when it was
        given (held by ``reservation`` until :meth:`settle_claim`), else how many places
        the address holds already."""
        return int(await self._claim(keys=[self._places_key(address)],
                                     args=[limit, reservation, self._place_ms],
                                     client=self.asking))

    def settle_claim(self, address: str, reservation: str, table_id: str | None) -> None:
        """The create that held ``reservation`` is over: its table (if it was made)
        holds the place from the next heartbeat, which drops the reservation."""
        if table_id is None:
            self._outbox.put_nowait(("zrem", self._places_key(address), reservation))
        else:
            self._settled.append((address, reservation, table_id))

    # -- placement ------------------------------------------------------------------
    async def place(self) -> Placement:
        """Where a new table should be made: on the live worker running the fewest, this
        one on a tie. The choice holds a reservation there at once, so tables opened in a
        burst, on whichever worker, spread before the next heartbeats; the worker that
        makes the table reports it with :meth:`made`, or :meth:`not_made`."""
        reservation = secrets.token_hex(8)
        chosen = str(await self._place(
            keys=[self._load_key],
            args=[self.worker_id, self.load(), self.prefix, reservation,
                  self._reservation_ms], client=self.asking))
        return Placement(None if chosen == self.worker_id else chosen, reservation)

    @property
    def _reservation_ms(self) -> int:
        # Outlives a create and the heartbeat after it (a third of the time to live).
        return max(10_000, 2 * self.ttl_ms)

    def made(self, reservation: str) -> None:
        """A table placed here was made: the next heartbeat counts it instead."""
        self._made.append(reservation)

    def not_made(self, reservation: str) -> None:
        """A table placed here could not be made: its reservation goes."""
        self._outbox.put_nowait(("zrem", self._placing_key(self.worker_id), reservation))

    async def _keep_leases(self) -> None:
        """Renew every lease a few times per time to live; hand the lost ones over."""
        while True:
            await asyncio.sleep(self.ttl_ms / 3000)
            held = dict(self.held)
            try:
                await self._beat()
                started = time.perf_counter()
                renewed = await self._renew(
                    keys=[self._lease_key(t) for t in held],
                    args=[self.ttl_ms, *(f"{self.worker_id}:{f}" for f in held.values())]
                ) if held else []
                if held:
                    self.timings.observe(("renew",), time.perf_counter() - started)
            except (RedisError, OSError) as error:
                # Redis is away: keep running what we hold (the fence keeps it safe);
                # what we really lost shows when it is back.
                log.warning("could not renew table leases", extra={"error": str(error)})
                continue
            self._renewed_at = time.monotonic()
            for (table_id, token), kept in zip(held.items(), renewed, strict=True):
                if not kept and self.held.get(table_id) == token:
                    self.held.pop(table_id, None)
                    self.leases_lost += 1
                    log.warning("table lease lost", extra={"table": table_id})
                    if self.on_lost is not None:
                        await self.on_lost(table_id)

    # -- the bus --------------------------------------------------------------------
    def send(self, worker_id: str, message: BusMessage) -> None:
        """Queue one message for a worker (kept in order with every other one sent)."""
        number = self._sent[worker_id] = self._sent.get(worker_id, 0) + 1
        # The envelope (sender and number) lets the receiver notice a lost message.
        self._outbox.put_nowait(("publish", self._channel(worker_id),
                                 f"{self.worker_id}:{number}:{encode(message)}"))

    def put_info(self, table_id: str, created_ms: int, info_json: str,
                 listed_as: str | None, relist: bool = True) -> None:
        """A table's description, listed under the status ``listed_as`` (None: never
        listed, a private table). ``relist``: its status changed, or this is the worker's
        first word on the table (it made it or took it over): the table leaves every other
        status's list. Without it only the description is written."""
        self._outbox.put_nowait(("hset", self._lobby_key, table_id,
                                 f"{created_ms} {info_json}"))
        if not relist:
            return
        for status in LISTED_STATUSES:
            if status == listed_as:
                self._outbox.put_nowait(("zadd", self._listed_key(status), str(created_ms),
                                         table_id))
            else:
                self._outbox.put_nowait(("zrem", self._listed_key(status), table_id))

    def drop_info(self, table_id: str) -> None:
        self._outbox.put_nowait(("hdel", self._lobby_key, table_id))
        for status in LISTED_STATUSES:
            self._outbox.put_nowait(("zrem", self._listed_key(status), table_id))

    async def listed(self, status: str, offset: int, limit: int) -> list[str]:
        """A page of the public tables in ``status``, newest first: their descriptions."""
        if status not in LISTED_STATUSES:
            return []
        ids = [str(table_id) for table_id in await self.asking.zrevrange(
            self._listed_key(status), offset, offset + limit - 1)]
        if not ids:
            return []
        values = await self.asking.hmget(self._lobby_key, ids)
        return [str(value).partition(" ")[2] for value in values if value is not None]

    async def prune_lobby(self, mine: set[str]) -> int:
        """Drop the lobby entries of tables that no worker holds (``mine``: this worker's
        tables): a worker that died took its finished tables' entries with it, and the
        tables still in play are listed again by whoever takes them over. How many went."""
        listed = {str(table_id) for table_id in await self.redis.hkeys(self._lobby_key)}
        for status in LISTED_STATUSES:  # and ids whose description went
            listed.update(str(t) for t in await self.redis.zrange(self._listed_key(status), 0, -1))
        others = [table_id for table_id in listed if table_id not in mine]
        held = await self.leased(others)
        stale = [table_id for table_id in others if table_id not in held]
        if stale:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hdel(self._lobby_key, *stale)
                for status in LISTED_STATUSES:
                    pipe.zrem(self._listed_key(status), *stale)
                await pipe.execute()
        return len(stale)

    async def info(self, table_id: str) -> str | None:
        value = await self.asking.hget(self._lobby_key, table_id)
        return str(value).partition(" ")[2] if value else None

    async def call(self, worker_id: str, call: AnyCall) -> CallAnswer:
        """Run a lobby request on another worker (the table's owner, or the worker chosen
        for a new table); its answer."""
        call_id = secrets.token_hex(8)
        answer: asyncio.Future[CallAnswer] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = answer
        self.send(worker_id, LobbyCall(call_id, self.worker_id, call))
        started = time.perf_counter()
        try:
            return await asyncio.wait_for(answer, CALL_TIMEOUT_S)
        finally:
            self._calls.pop(call_id, None)
            self.timings.observe(("call",), time.perf_counter() - started)

    def answer(self, worker_id: str, call_id: str, answer: CallAnswer) -> None:
        self.send(worker_id, LobbyAnswer(call_id, answer))

    async def _publish(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 1000:
                batch.append(self._outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for command, *arguments in batch:
                        pipe.execute_command(command.upper(), *arguments)
                    started = time.perf_counter()
                    await pipe.execute()
                    self.timings.observe(("publish",), time.perf_counter() - started)
            except (RedisError, OSError) as error:
                self._lost("publish", str(error))

    def _lost(self, reason: str, error: str) -> None:
        """Messages between workers may have gone: say so, and reset what they carried."""
        log.warning("the worker bus lost messages: forwarded clients reconnect",
                    extra={"reason": reason, "error": error})
        if self.on_reset is not None:
            self.on_reset(reason)

    def _resubscribed(self, _: Any) -> None:
        """The Redis client reconnected the subscription by itself: what was published
        to this worker meanwhile is gone."""
        self._received.clear()
        self._lost("resubscribed", "the subscription's connection was renewed")

    async def _listen(self) -> None:
        while True:
            try:
                async with self.redis.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(self._channel(self.worker_id))
                    connection = pubsub.connection
                    assert connection is not None
                    connection.register_connect_callback(self._resubscribed)
                    try:
                        while True:
                            message = await pubsub.get_message(timeout=None)
                            if message is not None:
                                self._dispatch(message["data"])
                    finally:  # the connection goes back to the pool, to serve others
                        connection.deregister_connect_callback(self._resubscribed)
            except (RedisError, OSError) as error:
                self._received.clear()
                self._lost("subscription", str(error))
                await asyncio.sleep(0.2)

    def _dispatch(self, data: str) -> None:
        try:
            sender, number, line = data.split(":", 2)
            seq = int(number)
        except ValueError:
            log.warning("a message no worker sends came on the bus", extra={"data": data[:80]})
            return
        last = self._received.get(sender)
        self._received[sender] = seq
        if last is not None and seq != last + 1:
            self._lost("gap", f"from worker {sender}: {seq - last - 1} missing")
        try:
            message = decode(line)
        except (ValueError, KeyError):
            log.warning("a message no worker sends came on the bus", extra={"data": data[:80]})
            return
        if isinstance(message, LobbyAnswer):
            answer = self._calls.get(message.ident)
            if answer is not None and not answer.done():
                answer.set_result(message.answer)
        elif self.on_message is not None:
            self.on_message(message)


class RemoteSocket:
    """On the owner: a client connected to another worker, shaped like the WebSocket a
    :class:`~twintable.server.tables.Connection` and a socket session use."""

    def __init__(self, cluster: Cluster, peer: str, ident: str, client: str):
        self.cluster, self.peer, self.ident, self.client = cluster, peer, ident, client
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.closed = False

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    def deliver(self, text: str) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": text})

    def gone(self) -> None:
        self.closed = True
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1006})

    async def send_text(self, text: str) -> None:
        if not self.closed:
            self.cluster.send(self.peer, SocketFrame(self.ident, text))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            self.cluster.send(self.peer, SocketClosed(self.ident, code))
