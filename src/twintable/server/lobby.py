"""The lobby facade: what the routes ask about tables, wherever the table runs.

With one process every table is here. With several workers (``settings.redis_url``) a
request about a table runs on the worker that owns it: this facade finds the owner
(:meth:`GameServer.locate`) and either runs the request here or sends it there as a
typed call over the cluster bus (``server/bus.py``), and answers the calls other workers
send here. A new table is made on the worker placement chooses, once its address holds a
place among its share of unfinished tables (``server/guards.py``). The routes never ask
where a table is.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from redis.exceptions import RedisError

from twintable.bots.registry import default_bot
from twintable.core.registry import GameRegistry
from twintable.server.bus import (
    AnyCall,
    CallAnswer,
    CallError,
    ConcedeCall,
    CreateCall,
    JoinCall,
    LeaveCall,
    OwnerCall,
    RematchCall,
    Seated,
    StartCall,
    TakeOverCall,
)
from twintable.server.errors import LobbyError
from twintable.server.game_server import GameServer
from twintable.server.guards import (
    AddressBook,
    ProfileQuota,
    TableQuota,
    TooManyTables,
    shares_of,
    unfinished_by,
)
from twintable.server.protocol import CreateTable, Joined, JoinTable
from twintable.server.public import table_socket
from twintable.server.replay_cache import ReplayCache
from twintable.server.seating import digest, hash_token, new_token
from twintable.server.settings import Settings
from twintable.server.storage.store import Store
from twintable.server.tables import Table
from twintable.server.tutorials import guided_request

log = logging.getLogger("twintable.server")


def bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


class Lobby:
    """Tables for the routes: made, opened, and changed where they run."""

    def __init__(self, server: GameServer, settings: Settings):
        self.server = server
        self.settings = settings
        self.store: Store = server.store
        self.registry: GameRegistry = server.registry
        self.addresses = AddressBook(settings, server.host.cluster)
        """The WebSockets and the message allowance of each client address."""
        self.quota = TableQuota(settings.max_open_tables_per_client,
                                lambda share: len(unfinished_by(server.tables, share)),
                                server.host.cluster, settings.max_open_tables_per_profile)
        """Each address's and each profile's share of unfinished tables, across
        workers."""
        self.profile_quota = ProfileQuota(settings.profiles_per_minute, server.host.cluster)
        self.replays = ReplayCache()
        """Finished games' replay answers, made off the loop and kept."""

    # -- answers ------------------------------------------------------------------------
    def joined(self, seated: Seated, token: str, key: str | None = None) -> Joined:
        """The answer to a create, join or rematch, made by the worker the client reached
        (its token and a private table's key were made or given here: they never cross
        workers); a private table's link carries its secret."""
        info = seated.table
        key = key if info.private else None
        invite = (f"{self.settings.public_url or ''}/?table={info.id}"
                  + (f"&key={key}" if key else ""))
        return Joined(table=info, seat=seated.seat, token=token, invite=invite, key=key,
                      socket=seated.socket)

    def seated(self, table: Table, seat: int) -> Seated:
        """A seat at a table this worker runs, with the table's socket at this worker's
        own address (several workers)."""
        cluster = self.server.host.cluster
        return Seated(table=table.listing.info(), seat=seat,
                      socket=table_socket(cluster.address, table.id)
                      if cluster is not None else None)

    def default_bot(self, game_id: str) -> str:
        if game_id not in self.registry:
            return "random"
        return default_bot(self.registry.entry(game_id))

    # -- new tables ---------------------------------------------------------------------
    async def create(self, request: CreateTable, client: str) -> Joined:
        """A new table, made on the worker that runs the fewest (here with one)."""
        server = self.server
        if request.tutorial:  # the game's own deal and seats, private, no profile
            request = guided_request(request, server.registry)
        await server.check_profile(request.player_id, request.player_secret)
        token = new_token()
        key = new_token() if request.private else None  # 192 random bits
        # What goes on: no profile secret (checked here), the token and key as hashes.
        sealed = request.model_copy(update={"player_secret": None})
        token_hash, invite_hash = hash_token(token), digest(key)
        reservation = None
        if server.host.cluster is not None and server.accepting:
            # Several workers: the table is made on the one running the fewest.
            # Redis out of reach: no lease either, so no table anywhere; the placement's
            # own error is the answer (503 cluster.down), within one round trip.
            placed = await server.host.cluster.place()
            try:
                if placed.worker is None:
                    reservation = placed.reservation
                else:
                    answer = await server.host.cluster.call(placed.worker, CreateCall(
                        request=sealed, client=client, reservation=placed.reservation,
                        token_hash=token_hash, invite_hash=invite_hash))
                    return self.joined(Seated.model_validate(self._result(answer)),
                                       token, key)
            except (RedisError, OSError, TimeoutError):
                pass  # that worker cannot be asked now: the table is made here
        seated = await self.create_placed(sealed, client, reservation, token_hash,
                                          invite_hash)
        return self.joined(seated, token, key)

    async def create_placed(self, request: CreateTable, client: str,
                            reservation: str | None, token_hash: str,
                            invite_hash: str | None) -> Seated:
        """A table made here, its placement's reservation turned into this worker's count
        (or dropped, when it could not be made)."""
        cluster = self.server.host.cluster
        if reservation is None or cluster is None:
            return await self.create_here(request, client, token_hash, invite_hash)
        try:
            made = await self.create_here(request, client, token_hash, invite_hash)
        except BaseException:
            cluster.not_made(reservation)
            raise
        cluster.made(reservation)
        return made

    async def create_here(self, request: CreateTable, client: str, token_hash: str,
                          invite_hash: str | None) -> Seated:
        # The profile was checked by the worker the request reached (see create).
        async with self.admitted(client, request.player_id) as made:
            seated = await self.create_counted(request, client, token_hash, invite_hash)
            made(seated.table.id)
            return seated

    @contextlib.asynccontextmanager
    async def admitted(self, client: str | None,
                       player_id: str | None) -> AsyncIterator[Callable[[str], None]]:
        """Room for one more table made here for ``client`` (and ``player_id``'s
        profile): the server's bound and a place in each of their shares of unfinished
        tables, held while the body makes it (the body calls what this yields with the
        new table's id), or the refusal. Every path that makes a table goes through
        here: a create and a rematch alike."""
        server = self.server
        if not server.accepting:
            raise LobbyError(503, "server.stopping", "the server is shutting down")
        server.check_capacity()
        try:
            async with self.quota.places(shares_of(client, player_id)) as made:
                yield made
        except TooManyTables as refused:
            whose = "your profile already has" if refused.by_profile else "you already have"
            raise LobbyError(429, "tables.too_many",
                             f"{whose} {refused.held} unfinished tables") from None

    async def create_counted(self, request: CreateTable, client: str, token_hash: str,
                             invite_hash: str | None) -> Seated:
        """A table made here once its address's place is held (its creator's profile
        was checked by the worker the request reached)."""
        server = self.server
        kinds: list[tuple[str, str | None]] = (
            [(s.kind, s.bot) for s in request.seats] if request.seats is not None
            else [("human", None)]
            + [("bot", self.default_bot(request.game))] * (request.players - 1))
        table = await server.create(
            request.game, request.players, request.options, kinds, request.name,
            request.display_name, request.player_id, request.turn_limit_s, request.grace_s,
            invite_hash=invite_hash, created_by=client, token_hash=token_hash,
            counted_profile=request.player_id, tutorial=request.tutorial)
        return self.seated(table, 0)

    # -- joining and playing again -------------------------------------------------------
    async def join(self, table_id: str, request: JoinTable,
                   client: str | None = None) -> Joined:
        """A seat at a table for the person asking (its token made here); ``client``:
        their address group."""
        await self.server.check_profile(request.player_id, request.player_secret)
        token = new_token()
        seated = Seated.model_validate(await self.on_owner(JoinCall(
            table=table_id, display_name=request.display_name, player_id=request.player_id,
            seat=request.seat, key_hash=digest(request.key), token_hash=hash_token(token),
            client=client)))
        return self.joined(seated, token, request.key)

    async def rematch(self, table_id: str, authorization: str | None,
                      client: str) -> Joined:
        """A seat at a finished table's rematch for one of its players (made by the first
        to ask)."""
        token = new_token()
        seated = Seated.model_validate(await self.on_owner(RematchCall(
            table=table_id, token_hash=digest(bearer(authorization)),
            new_token_hash=hash_token(token), client=client)))
        return self.joined(seated, token)

    def check_seats_held(self, client: str) -> None:
        """Refuse one more seat to an address group holding its share of seats at the
        tables waiting here (one address took all 30 free seats of 10 public tables in
        0.28 s in a probe of issue #38)."""
        held = sum(1 for table in self.server.tables.values() if table.status == "open"
                   for joiner in table.seating.joined_from.values() if joiner == client)
        if held >= self.settings.max_seats_per_client:
            raise LobbyError(429, "seats.too_many",
                             f"you already hold {held} seats at tables waiting to start")

    # -- tables to look at --------------------------------------------------------------
    async def opened_table(self, table_id: str, key: str | None,
                           authorization: str | None) -> Table:
        """The table, in memory or finished, for someone allowed to see it: anyone for a
        public table; for a private one, whoever has its invite key or a seat's token."""
        server = self.server
        table = server.tables.get(table_id)
        if table is None:
            loaded = await self.store.load_table(table_id)
            if loaded is None:
                raise LobbyError(404, "table.unknown", "no such table")
            table = Table(server, *loaded)
        seating = table.seating
        if not seating.admits(key) and seating.seat_for_token(bearer(authorization)) is None:
            raise LobbyError(403, "table.private", "this table is private: use its invite link")
        return table

    # -- changes, where the table runs ---------------------------------------------------
    async def on_owner(self, call: OwnerCall) -> Any:
        """Run ``call`` where the table runs: here, or on the worker that owns it; its
        answer as JSON data."""
        server = self.server
        if server.host.cluster is None:
            table = (await server.load(call.table) if isinstance(call, RematchCall)
                     else server.get(call.table))
            return await self.table_op(table, call)
        try:
            found = await server.locate(call.table)
            if found is None:
                raise LobbyError(404, "table.unknown", "no such table")
            if isinstance(found, Table):
                return await self.table_op(found, call)
            answer = await server.host.cluster.call(found, call)
        except (RedisError, OSError, TimeoutError):
            raise LobbyError(503, "server.unavailable",
                             "the server running this table cannot be reached; retry") from None
        return self._result(answer)

    @staticmethod
    def _result(answer: CallAnswer) -> Any:
        if answer.error is not None:
            raise LobbyError(**answer.error.model_dump())
        return answer.ok

    async def table_op(self, table: Table, call: OwnerCall) -> Any:
        """One lobby request about a table this worker runs; its answer as JSON data."""
        server = self.server
        seating = table.seating
        if isinstance(call, JoinCall):
            if not seating.admits_hash(call.key_hash):
                raise LobbyError(403, "table.private",
                                 "this table is private: use its invite link")
            if call.client is not None:
                self.check_seats_held(call.client)
            seat = await seating.join(call.display_name, call.player_id, call.seat,
                                      call.token_hash, call.client)
            return self.seated(table, seat).model_dump(mode="json")
        if isinstance(call, ConcedeCall):
            conceding = seating.seat_for_hash(call.token_hash)
            if conceding is None:
                raise LobbyError(401, "auth.invalid", "a seat token of this table is needed")
            async with table.lock:  # between two moves, never inside one
                await seating.concede(conceding)
            return table.listing.info().model_dump(mode="json")
        if isinstance(call, LeaveCall):
            leaving = seating.seat_for_hash(call.token_hash)
            if leaving is None:
                raise LobbyError(401, "auth.invalid", "a seat token is needed")
            await seating.leave(leaving)
            return {}
        if isinstance(call, RematchCall):
            player = seating.seat_for_hash(call.token_hash)
            if player is None:
                raise LobbyError(401, "auth.invalid", "a seat token of this table is needed")
            new = await server.rematch(
                table, player, call.new_token_hash, call.client,
                admitted=lambda: self.admitted(call.client, table.seats[player].player_id))
            return self.seated(new, player).model_dump(mode="json")
        if not seating.is_creator(call.token_hash):
            raise LobbyError(403, "auth.not_creator", "only the table's creator may do that")
        if isinstance(call, StartCall):
            await table.start()
        else:
            if call.seat == seating.creator_seat:
                raise LobbyError(409, "seat.creator", "that seat is the creator's")
            await seating.set_bot(call.seat, call.bot)
        return table.listing.info().model_dump(mode="json")

    async def answer_call(self, call: AnyCall) -> CallAnswer:
        """A call from another worker, run here: its answer (a refusal included)."""
        try:
            if isinstance(call, CreateCall):
                made = await self.create_placed(call.request, call.client, call.reservation,
                                                call.token_hash, call.invite_hash)
                return CallAnswer(ok=made.model_dump(mode="json"))
            if isinstance(call, TakeOverCall):
                return CallAnswer(ok=await self.server.take_over_now(call.tables))
            table = self.server.tables.get(call.table)
            if table is None:
                raise LobbyError(503, "table.moving", "the table moved to another server; retry")
            return CallAnswer(ok=await self.table_op(table, call))
        except LobbyError as error:
            return CallAnswer(error=CallError(status=error.status, code=error.code,
                                              message=error.message))
        except Exception:
            log.exception("a request from another worker failed")
            return CallAnswer(error=CallError(status=500, code="server.error",
                                              message="the request failed"))
