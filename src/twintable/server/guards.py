"""What one client, or one address, may send before anything acts on it.

- :func:`screen` reads one WebSocket frame the way a table's socket does (size, JSON
  limits, a known message shape) and gives the message or the refusal.
- :class:`ForwardGuard` stands at a worker that serves a client through the worker that
  runs its table (``server/cluster.py``): nothing crosses Redis that the table's worker
  would refuse on sight. Only a well-formed message goes, re-encoded from its parsed form
  (so at most a few hundred bytes of it, never the client's raw text; a hello's token
  and key as their hashes, :class:`~twintable.server.bus.RelayedHello`); an action only
  once the table's worker welcomed the client into a seat; one hello at a time; pings are
  answered here; the rate limit applies here too.
- :class:`Allowance` is a token bucket: messages per second, with a burst.
- :class:`TableQuota` bounds the unfinished tables one address has made, counted
  atomically, across workers where there are several.
- :class:`ProfileQuota` bounds the profiles one address group makes a minute.
- :class:`AddressBook` bounds what one address holds at once: its WebSockets, and one
  message allowance shared by all of them (20 sockets get no more than one), counted
  across workers where there are several.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from redis.exceptions import RedisError

from twintable.server.bus import RelayedHello
from twintable.server.limits import BadJson, bounded_json, glanced_id, readable_id
from twintable.server.protocol import (
    CLIENT_TYPES,
    ActionMessage,
    ChatReact,
    ChatSay,
    ChatSetting,
    ErrorMessage,
    Hello,
    Ping,
    Pong,
    chat_refusal,
    client_message,
)
from twintable.server.seating import digest
from twintable.server.settings import Settings

if TYPE_CHECKING:
    from twintable.server.cluster import Cluster


Screened = Hello | ActionMessage | Ping | ChatSay | ChatReact | ChatSetting


def screen(text: str, settings: Settings) -> Screened | ErrorMessage:
    """One client frame as a message, or the refusal its table's socket would answer."""
    if len(text.encode()) > settings.max_frame_bytes:
        return ErrorMessage(code="message.too_large",
                            message=f"frames are limited to {settings.max_frame_bytes} bytes")
    try:
        data = bounded_json(text)
    except BadJson as error:
        code = "message.invalid_json" if error.code == "json.invalid" else error.code
        return ErrorMessage(id=readable_id(text), code=code, message=error.message)
    client_id = (data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str)
                 else None)
    if not isinstance(data, dict) or data.get("type") not in CLIENT_TYPES:
        return ErrorMessage(code="message.unknown_type",
                            message="expected a message of type hello, action, ping, chat, "
                                    "react or chat_setting")
    try:
        message: Screened = client_message.validate_python(data)
    except ValidationError as error:
        if data["type"] in ("chat", "react", "chat_setting"):
            return chat_refusal(client_id, error)
        first = error.errors()[0]
        return ErrorMessage(id=client_id, code="message.invalid",
                            message=f"{'.'.join(map(str, first['loc']))}: {first['msg']}")
    return message


#: How long a socket of a flooding address is not read after each refusal.
FLOOD_PAUSE_S = 1.0
#: How long an address counts as flooding after its last refusal while it was.
FLOOD_MEMORY_S = 5.0


@dataclass
class Allowance:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once.

    An address refused more than twice its burst (at least 20) within a second is
    *flooding* until it has had no refusal for :data:`FLOOD_MEMORY_S`: its sockets are
    then read again only :data:`FLOOD_PAUSE_S` after each refusal, so that a flood costs
    the server about one refusal a second per socket (the sender's buffers fill instead)
    rather than one per frame it sends. A person never comes near it."""

    rate: float
    burst: float
    left: float = -1.0
    checked: float = field(default_factory=time.monotonic)
    window: float = field(default_factory=time.monotonic)
    """When the current second of refusals began."""
    refused: int = 0
    """Refusals in the current second."""
    flooded_until: float = 0.0

    def __post_init__(self) -> None:
        if self.left < 0:
            self.left = self.burst

    def scale(self, share: float, rate: float, burst: float) -> None:
        """Allow ``share`` of ``rate`` and ``burst`` from now on (at least one message at
        once, so that a small share still lets a socket speak)."""
        self._refill()
        self.rate, self.burst = rate * share, max(1.0, burst * share)
        self.left = min(self.left, self.burst)

    def _refill(self) -> None:
        now = time.monotonic()
        self.left = min(self.burst, self.left + (now - self.checked) * self.rate)
        self.checked = now

    def take(self, amount: float = 1) -> bool:
        """Spend ``amount`` (a message; or bytes, for an allowance counted in bytes)."""
        self._refill()
        if self.left < amount:
            self._refusal()
            return False
        self.left -= amount
        return True

    def _refusal(self) -> None:
        now = self.checked
        if now - self.window >= 1.0:
            self.window, self.refused = now, 0
        self.refused += 1
        if self.refused > max(2 * self.burst, 20) or now < self.flooded_until:
            self.flooded_until = now + FLOOD_MEMORY_S

    @property
    def flooded(self) -> bool:
        return time.monotonic() < self.flooded_until


class ForwardGuard:
    """One forwarded client's frames, checked at the worker it reached (see the module)."""

    def __init__(self, settings: Settings, shared: Allowance | None = None,
                 shared_bytes: Allowance | None = None,
                 destination_bytes: Allowance | None = None):
        self.settings = settings
        self.allowance = Allowance(settings.messages_per_second, settings.message_burst)
        self.shared = shared
        """The allowance every socket of the client's address draws from too."""
        self.shared_bytes = shared_bytes
        """The bytes a second the client's address may put on the bus from here: valid
        but large moves from a dozen addresses overran a table worker's subscription
        (Redis cut it at 33.5 MB in issue #38), so each address gets a budget."""
        self.destination_bytes = destination_bytes
        """The bytes a second this worker may put on the bus to the table's worker, all
        clients together (``Settings.forwarded_bytes_per_worker``)."""
        self.seated = False
        """The client holds a seat, or its hello on its way claims one with a token."""
        self.welcomed = False
        self.hello_pending = False
        self.refused_in_a_row = 0

    def check(self, text: str) -> tuple[str | None, Any]:
        """``(to forward, answer here)``: what to send on to the table's worker (None:
        nothing) and what to answer the client here (None: nothing)."""
        if not self.allowance.take() or (self.shared is not None and not self.shared.take()):
            # Refused before it is read: a flood's frames cost no parsing.
            return self._refuse(ErrorMessage(id=glanced_id(text), code="rate.limited",
                                             message="too many messages; slow down"))
        message = screen(text, self.settings)
        if isinstance(message, ErrorMessage):
            return self._refuse(message)
        if isinstance(message, Ping):
            self.refused_in_a_row = 0
            return None, Pong()
        if isinstance(message, Hello):
            if self.welcomed or self.hello_pending:
                return self._refuse(ErrorMessage(code="hello.repeated",
                                                 message="already greeted"))
            self.hello_pending, self.seated = True, message.token is not None
            # The token and the key go on as their hashes: no secret crosses Redis.
            return RelayedHello(type="hello", protocol=message.protocol,
                                token_hash=digest(message.token),
                                key_hash=digest(message.key), since=message.since
                                ).model_dump_json(exclude_none=True), None
        # An action may follow its hello before the answer comes back (a client resending
        # its last move after a reconnect): the table's worker takes both in order.
        if not (self.welcomed or self.hello_pending):
            return self._refuse(ErrorMessage(id=message.id, code="auth.required",
                                             message="send hello with your seat token first"))
        # Spectators chat too (their own channel); only moves need a seat.
        if isinstance(message, ActionMessage) and not self.seated:
            return self._refuse(ErrorMessage(id=message.id, code="auth.spectator",
                                             message="spectators cannot act"))
        onward = message.model_dump_json(exclude_defaults=True)
        if self.shared_bytes is not None and not self.shared_bytes.take(len(onward)):
            return self._refuse(ErrorMessage(id=message.id, code="rate.limited",
                                             message="too many messages; slow down"))
        if self.destination_bytes is not None and \
                not self.destination_bytes.take(len(onward)):
            return self._refuse(ErrorMessage(
                id=message.id, code="rate.limited",
                message="the table's server is receiving too much; try again in a moment"))
        return onward, None

    def _refuse(self, error: ErrorMessage) -> tuple[None, ErrorMessage]:
        self.refused_in_a_row += 1
        return None, error

    @property
    def abusive(self) -> bool:
        return self.refused_in_a_row >= self.settings.abuse_limit

    @property
    def flooded(self) -> bool:
        """Its address floods (see :class:`Allowance`): read it slowly."""
        return self.shared is not None and self.shared.flooded

    def answered(self, frame: str) -> None:
        """A frame from the table's worker to this client: its welcome (and seat), or the
        refusal of its hello, which lets it say hello again."""
        if not self.hello_pending:
            if frame.startswith('{"type":"ack"'):
                self.refused_in_a_row = 0
            return
        if frame.startswith('{"type":"welcome"'):
            self.hello_pending, self.welcomed = False, True
            self.seated = ForwardGuard._seat(frame) is not None
        elif frame.startswith('{"type":"error"'):
            self.hello_pending = self.seated = False

    @staticmethod
    def _seat(welcome: str) -> int | None:
        try:
            seat = bounded_json(welcome).get("seat")
        except (BadJson, AttributeError):
            return None
        return seat if isinstance(seat, int) else None


class AddressBook:
    """What each client address holds at once: its open WebSockets, and one message
    allowance shared by them.

    With several workers (``cluster``) the sockets are counted in Redis across every
    worker, each in a place that its worker renews with every heartbeat (a dead
    worker's sockets stop counting a few lease times after it died), and each worker
    gives an address the share of its message allowance that its sockets here are of
    all of its sockets (updated when one opens here and at each heartbeat), so that the
    workers together allow it one allowance. Without Redis (or while it is away) each
    process counts its own."""

    def __init__(self, settings: Settings, cluster: Cluster | None = None):
        self.settings = settings
        self.cluster = cluster
        self.sockets: dict[str, set[str]] = {}
        """The ids of each address's sockets open here."""
        self.allowances: dict[str, Allowance] = {}
        self.byte_allowances: dict[str, Allowance] = {}
        self._opened = 0
        if cluster is not None:
            cluster.sockets_by = lambda: self.sockets
            cluster.on_socket_totals = self.share

    async def open(self, address: str) -> str | None:
        """Count one more socket from ``address``: its id, or None (nothing counted) past
        the cap."""
        limit = self.settings.max_sockets_per_client
        held = self.sockets.get(address, set())
        self._opened += 1
        cluster = self.cluster
        ident = f"{cluster.worker_id if cluster else 'here'}:{self._opened}"
        total = len(held) + 1
        if cluster is not None:
            try:
                given, total = await cluster.open_socket(address, ident, limit)
            except (RedisError, OSError):  # Redis is away: this worker's own count
                cluster = None
            else:
                if not given:
                    return None
        if cluster is None and len(held) >= limit:
            return None
        self.sockets.setdefault(address, set()).add(ident)
        self.share({address: total})
        return ident

    def close(self, address: str, ident: str) -> None:
        held = self.sockets.get(address, set())
        held.discard(ident)
        if self.cluster is not None:
            self.cluster.close_socket(address, ident)
        if not held:
            self.sockets.pop(address, None)
            self.allowances.pop(address, None)

    def forwarded_bytes(self, address: str) -> Allowance:
        """The bytes a second ``address``'s clients here may forward to other workers."""
        if address not in self.byte_allowances:
            if len(self.byte_allowances) > 100_000:  # addresses long gone
                self.byte_allowances.clear()
            self.byte_allowances[address] = Allowance(
                self.settings.forwarded_bytes_per_second,
                max(self.settings.forwarded_bytes_per_second * 4,
                    self.settings.max_frame_bytes * 2))
        return self.byte_allowances[address]

    def allowance(self, address: str) -> Allowance:
        """The allowance every socket of ``address`` here draws from (opened first)."""
        if address not in self.allowances:
            self.allowances[address] = Allowance(self.settings.client_messages_per_second,
                                                 self.settings.client_message_burst)
        return self.allowances[address]

    def share(self, totals: dict[str, int]) -> None:
        """Each address's allowance here, for how many sockets it holds everywhere."""
        for address, total in totals.items():
            here = len(self.sockets.get(address, ()))
            if here:
                self.allowance(address).scale(min(1.0, here / max(total, here)),
                                              self.settings.client_messages_per_second,
                                              self.settings.client_message_burst)


PROFILE_SHARE = "profile "
"""Before a profile id, the name of its share of unfinished tables (no address holds a
space, so the shares of addresses and of profiles never meet)."""


def profile_share(player_id: str) -> str:
    """The name under which a profile's unfinished tables are counted."""
    return PROFILE_SHARE + player_id


def shares_of(address: str | None, player_id: str | None) -> list[str]:
    """The shares a table counts in: its maker's address and, when a checked profile made
    it, that profile's."""
    return ([address] if address is not None else []) + (
        [profile_share(player_id)] if player_id else [])


def unfinished_by(tables: Mapping[str, Any], share: str) -> list[str]:
    """The tables (of ``tables``, by id) waiting or running that count in ``share`` (an
    address, or a :func:`profile_share`)."""
    return [table_id for table_id, table in tables.items()
            if share in table.counted_as and table.status in ("open", "running")]


def unfinished_by_address(tables: Mapping[str, Any]) -> dict[str, list[str]]:
    """The tables waiting or running, by each share they count in (the address that
    made them, and the profile that did)."""
    found: dict[str, list[str]] = {}
    for table_id, table in tables.items():
        if table.status in ("open", "running"):
            for share in table.counted_as:
                found.setdefault(share, []).append(table_id)
    return found


class TooManyTables(Exception):
    """An address, or a profile, already has its share of unfinished tables."""

    def __init__(self, held: int, share: str = ""):
        super().__init__(f"{held} unfinished tables")
        self.held = held
        self.by_profile = share.startswith(PROFILE_SHARE)


class TableQuota:
    """Unfinished tables (waiting or running) per share (an address, or a profile from
    any address): a create holds a place before it awaits anything, so creates racing
    each other cannot all pass the check; with several workers the places are counted in
    Redis (``Cluster.claim_table``), across every worker."""

    def __init__(self, limit: int, unfinished: Callable[[str], int],
                 cluster: Cluster | None = None, profile_limit: int | None = None):
        self.limit = limit
        self.profile_limit = limit if profile_limit is None else profile_limit
        self.unfinished = unfinished
        """How many unfinished tables an address made here."""
        self.cluster = cluster
        self.pending: dict[str, int] = {}
        """Creates under way, by address (made tables are counted by ``unfinished``)."""

    @contextlib.asynccontextmanager
    async def places(self, shares: list[str]) -> AsyncIterator[Callable[[str], None]]:
        """A place in each of ``shares`` (see :meth:`place`), all held or none."""
        async with contextlib.AsyncExitStack() as stack:
            made = [await stack.enter_async_context(self.place(share)) for share in shares]

            def made_all(table_id: str) -> None:
                for each in made:
                    each(table_id)

            yield made_all

    @contextlib.asynccontextmanager
    async def place(self, address: str) -> AsyncIterator[Callable[[str], None]]:
        """Hold a place for one table from ``address`` (or a profile's share) while it
        is made, or raise :class:`TooManyTables`; the body calls what it yields with the
        new table's id."""
        limit = self.profile_limit if address.startswith(PROFILE_SHARE) else self.limit
        held = self.unfinished(address) + self.pending.get(address, 0)
        if self.cluster is None and held >= limit:
            raise TooManyTables(held, address)
        self.pending[address] = self.pending.get(address, 0) + 1
        try:
            reservation = None
            if self.cluster is not None:
                reservation = secrets.token_hex(8)
                try:
                    held = await self.cluster.claim_table(address, reservation, limit)
                except (RedisError, OSError):  # Redis is away: this worker's own count
                    reservation = None
                    if held >= limit:
                        raise TooManyTables(held, address) from None
                else:
                    if held >= 0:
                        raise TooManyTables(held, address)
            made: list[str] = []
            yield made.append
        finally:
            if (left := self.pending[address] - 1) > 0:
                self.pending[address] = left
            else:
                del self.pending[address]
            if self.cluster is not None and reservation is not None and held < 0:
                self.cluster.settle_claim(address, reservation, made[0] if made else None)


class ProfileQuota:
    """Profiles made per address group and clock minute: counted in Redis across workers
    where there are several (one counter per group and minute), in this process
    otherwise or while Redis is away. A person makes one profile per browser; a script
    making hundreds a second (320/s in a probe of issue #38) is refused."""

    def __init__(self, per_minute: int, cluster: Cluster | None = None):
        self.per_minute = per_minute
        self.cluster = cluster
        self.here: dict[tuple[str, int], int] = {}

    async def take(self, group: str) -> float | None:
        """Count one profile for ``group``: None when it may be made, else the seconds
        until the next minute, when it may."""
        now = time.time()
        minute = int(now // 60)
        made: int | None = None
        if self.cluster is not None:
            with contextlib.suppress(RedisError, OSError):
                made = await self.cluster.count(f"profiles:{group}:{minute}", 120)
        if made is None:
            for key in [key for key in self.here if key[1] < minute]:
                del self.here[key]
            made = self.here[group, minute] = self.here.get((group, minute), 0) + 1
        return None if made <= self.per_minute else 60 - now % 60


@contextlib.asynccontextmanager
async def hello_deadline(websocket: Any, greeted: Callable[[], bool],
                         seconds: float) -> AsyncIterator[None]:
    """Close ``websocket`` (1008) and stop what serves it if it has not been greeted
    ``seconds`` after this opens: a silent socket holds a descriptor and memory for
    nothing."""
    serving = asyncio.current_task()
    assert serving is not None
    timed_out = False

    async def watch() -> None:
        nonlocal timed_out
        await asyncio.sleep(seconds)
        if not greeted():
            timed_out = True
            with contextlib.suppress(Exception):
                await websocket.close(code=1008, reason="no hello in time")
            serving.cancel()

    watcher = asyncio.create_task(watch())
    try:
        yield
    except asyncio.CancelledError:
        if not timed_out:
            raise
        serving.uncancel()
    finally:
        watcher.cancel()
