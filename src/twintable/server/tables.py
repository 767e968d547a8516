"""Tables: one actor per table that owns its game state, its log and its connections.

Every change goes through :meth:`Table.submit` under the table's lock: the action is
stamped with the server's time, tried on a clone, appended to the log, and only then made
the table's state, broadcast (each connection gets its own view) and acknowledged. Bots
and timers act through the same path.

With several workers (``settings.redis_url``) a worker runs only the tables whose lease
it holds (``server/cluster.py``): it takes unowned tables over from the log, writes
with the lease's fencing token, and drops a table the moment it learns the lease is
gone, closing its connections so that clients reconnect to the new owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import inspect
import logging
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import WebSocket

from twintable.bots.registry import bot_factories, timed_plan
from twintable.core.errors import OptionError, RuleError
from twintable.core.game import Game
from twintable.core.registry import GameRegistry
from twintable.core.replay import Replay
from twintable.core.types import SYSTEM_SEAT, Action, events_for
from twintable.server.cluster import Cluster
from twintable.server.moves import stored_payload
from twintable.server.protocol import (
    Ack,
    ErrorMessage,
    EventFrame,
    SeatInfo,
    Snapshot,
    TableInfo,
)
from twintable.server.ratings import new_ratings
from twintable.server.settings import Settings
from twintable.server.storage.models import ProfileRow, SeatRow, TableRow
from twintable.server.storage.ownership import TableLeases
from twintable.server.storage.store import FencedOut, Store, StoredAction

log = logging.getLogger("twintable.server")

T = TypeVar("T")


DEFAULT_GRACE_S = 60
#: How many of each seat's latest acknowledged moves a resend can still find.
ANSWERS_KEPT_PER_SEAT = 64
#: ``creator_seat`` when every person has left a table before its start.
NO_CREATOR = -1
#: Pause before looking again at a table whose automatic move the game refused.
REFUSED_RETRY_S = 0.05
#: Pause before an automatic move tries again after the database failed to save one.
STORAGE_RETRY_S = 0.5
#: A table this worker has not yet described to the shared lobby (no status is empty).
NOT_LISTED_YET = ""
#: WebSocket close code telling a client its table moved to another worker: reconnect.
MOVED_CLOSE_CODE = 1012
#: Names for bot seats: short, easy to say in the four languages of the client, and
#: distinct at a table, so a log line never leaves you wondering which bot it means.
BOT_NAMES = ("Ada", "Bo", "Chen", "Dara", "Emil", "Farah", "Goran", "Hana", "Ines", "Jun",
             "Kofi", "Lina", "Mateo", "Nia", "Oskar", "Priya", "Ravi", "Sofia", "Taro",
             "Uma", "Vera", "Wim", "Yara", "Zeno")


def bot_name(table_id: str, seat: int, taken: set[str]) -> str:
    """A bot seat's name, the same for a table and seat in every process (sha256, never
    ``hash()``), skipping names already at the table (compared without case)."""
    start = int(hashlib.sha256(f"{table_id}:{seat}".encode()).hexdigest(), 16)
    used = {name.casefold() for name in taken}
    for step in range(len(BOT_NAMES)):
        name = BOT_NAMES[(start + step) % len(BOT_NAMES)]
        if name.casefold() not in used:
            return name
    return f"{BOT_NAMES[start % len(BOT_NAMES)]} {seat + 1}"


def now_ms() -> int:
    return int(time.time() * 1000)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits


#: The default ``Settings.bot_delay_ms``: at it, games that pace their bots like people
#: use their bots' own human timings; at 0 (tests) their bots are instant too.
PEOPLE_PACE_BOT_DELAY_MS = 700


class LobbyError(Exception):
    """A refused lobby request, with a stable code and an HTTP status."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class Connection:
    """One WebSocket client; frames go through a queue so a slow client never holds a
    table's lock.

    The queue is bounded and each send has a time limit: a client that stops reading
    (a stalled phone, a hostile script) would otherwise keep every frame of the game in
    memory. Past either bound its queue is dropped and its socket closed (1008); the
    client reconnects and resumes from a fresh snapshot like after any network drop."""

    def __init__(self, websocket: WebSocket, seat: int | None, max_frames: int = 256,
                 send_timeout_s: float = 10.0):
        self.websocket = websocket
        self.seat = seat
        self.max_frames = max_frames
        self.send_timeout_s = send_timeout_s
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.dropped = False
        self.writer = asyncio.create_task(self._write())

    def send(self, frame: str) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= self.max_frames:
            self._drop("the client stopped reading")
            return
        self.queue.put_nowait(frame)

    def _drop(self, why: str) -> None:
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)
        log.info("slow connection closed", extra={"why": why})
        asyncio.get_running_loop().create_task(self._close_socket())

    async def _close_socket(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(code=1008, reason="too slow"),
                                   self.send_timeout_s)

    async def _write(self) -> None:
        while (frame := await self.queue.get()) is not None:
            try:
                await asyncio.wait_for(self.websocket.send_text(frame), self.send_timeout_s)
            except TimeoutError:
                self._drop("a send timed out")
                return
            except Exception:  # the client went away; the reader notices and unregisters
                log.debug("send failed; connection writer stops", exc_info=True)
                return

    async def close(self) -> None:
        self.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await self.writer


class Table:
    def __init__(self, server: GameServer, row: TableRow, seats: list[SeatRow]):
        self.server = server
        self.row = row
        self.id = row.id
        self._listed_as: str | None = NOT_LISTED_YET
        """The status the shared lobby lists this table under (several workers)."""
        self.game: Game[Any] = server.registry.get(row.game)
        self.seats = seats
        self.state: Any = None
        self.seq = 0
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        # The answers to each seat's latest moves by client id, for resends.
        self.answered: dict[int, OrderedDict[str, str]] = {}
        self.bots: dict[int, Any] = {}
        self.rng = random.Random(row.seed ^ 0x7AB1E)
        self.task: asyncio.Task[None] | None = None
        self.fence: int | None = None
        """The fencing token every write carries (several workers; None: one process)."""
        self.unsure = False
        """A write failed in a way that may still have committed: read the log back
        before the next move."""
        # Nobody is connected yet (a new table, or a restart): the grace period starts now.
        started = time.monotonic()
        self.away_since: dict[int, float] = {s.seat: started for s in seats
                                             if s.kind == "human"}
        self.turn_since = started
        self.last_seen = started
        """When someone was last connected (monotonic): a table left waiting is abandoned."""
        self.stand_ins: dict[int, Any] = {}
        self.created_by: str | None = None
        """The address that made the table (in memory only: it bounds open tables)."""
        # Real-time bots plan in a worker thread, one planning at a time: a re-plan that
        # cancels the task waits for the thread still thinking (bots keep what they drew).
        self.planning = threading.Lock()
        for seat_row in seats:  # bot seats made before bots had names get theirs now
            if seat_row.kind == "bot" and not seat_row.display_name:
                seat_row.display_name = self._bot_name(seat_row.seat)
        self._load_bots()

    # -- description ----------------------------------------------------------------
    @property
    def status(self) -> str:
        return self.row.status

    def info(self) -> TableInfo:
        connected = {c.seat for c in self.connections}
        return TableInfo(
            id=self.id, game=self.row.game, name=self.row.name, players=self.row.players,
            host_name=(self.row.settings or {}).get("host_name"), private=self.private,
            status=self.row.status,  # type: ignore[arg-type]
            options=dict(self.row.options),
            seats=[SeatInfo(seat=s.seat, kind=s.kind,  # type: ignore[arg-type]
                            bot=s.bot, display_name=s.display_name,
                            connected=s.kind == "bot" or s.seat in connected,
                            stand_in=self.state is not None
                            and self._stands_in(s.seat, time.monotonic()),
                            reserved=s.kind == "empty" and s.seat in self.reserved)
                   for s in self.seats],
            turn_limit_s=(self.row.settings or {}).get("turn_limit_s"),
            grace_s=(self.row.settings or {}).get("grace_s", DEFAULT_GRACE_S),
            result=self.row.result, creator_seat=self.creator_seat,
            rematch=(self.row.settings or {}).get("rematch"),
            rematch_of=(self.row.settings or {}).get("rematch_of"))

    @property
    def creator_seat(self) -> int:
        return int((self.row.settings or {}).get("creator_seat", 0))

    @property
    def private(self) -> bool:
        return bool((self.row.settings or {}).get("invite_hash"))

    def admits(self, key: str | None) -> bool:
        """Whether ``key`` opens this table: any key for a public one, the invite link's
        secret for a private one (compared by hash: the server keeps only that)."""
        expected = (self.row.settings or {}).get("invite_hash")
        if not expected:
            return True
        return bool(key) and secrets.compare_digest(str(expected), hash_token(key or ""))

    @property
    def reserved(self) -> set[int]:
        """Empty seats a rematch keeps for the people of the previous game."""
        return set((self.row.settings or {}).get("reserved", []))

    async def _set_reserved(self, seats: set[int]) -> None:
        self.row.settings = {**(self.row.settings or {}), "reserved": sorted(seats)}
        await self.server.store.save_settings(self.id, self.row.settings, self.fence)

    def _bot_name(self, seat: int) -> str:
        taken = {s.display_name for s in self.seats if s.seat != seat and s.display_name}
        return bot_name(self.id, seat, taken)

    def seat_for_token(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def is_creator(self, token: str | None) -> bool:
        """The table's powers (start, seats, bots) belong to whoever sits in the creator's
        seat, not to a token: a creator who leaves leaves them to the next person."""
        seat = self.seat_for_token(token)
        return seat is not None and seat == self.creator_seat

    def _load_bots(self) -> None:
        factories = bot_factories(self.game)
        self.bots = {s.seat: self._make_bot(factories[s.bot]) for s in self.seats
                     if s.kind == "bot" and s.bot is not None}

    def _make_bot(self, factory: Any) -> Any:
        """A bot; one that learns from people gets every round finished on this server."""
        try:
            learns = "records" in inspect.signature(factory).parameters
        except (TypeError, ValueError):
            learns = False
        if learns:
            return factory(records=self.server.records.get(self.game.id, []))
        return factory()

    # -- lobby changes (before the start) -------------------------------------------
    async def join(self, display_name: str, player_id: str | None,
                   seat: int | None) -> tuple[int, str]:
        async with self.lock:
            self._require_open()
            free = [s for s in self.seats if s.kind == "empty" and s.seat not in self.reserved]
            if seat is not None:
                free = [s for s in free if s.seat == seat]
            if not free:
                raise LobbyError(409, "table.full" if seat is None else "seat.taken",
                                 "no free seat" if seat is None else "that seat is taken")
            token = new_token()
            chosen = free[0]
            chosen.kind, chosen.display_name, chosen.player_id = "human", display_name, player_id
            chosen.token_hash, chosen.bot = hash_token(token), None
            await self.server.store.save_seat(chosen, self.fence)
            if self.creator_seat == NO_CREATOR:  # everyone had left: this person leads now
                self.row.settings = {**(self.row.settings or {}), "creator_seat": chosen.seat}
                await self.server.store.save_settings(self.id, self.row.settings, self.fence)
            self._announce()
            return chosen.seat, token

    async def claim(self, seat: int) -> str:
        """The person this rematch keeps ``seat`` for takes it; returns their new token."""
        async with self.lock:
            self._require_open()
            row = self.seats[seat]
            if row.kind != "empty" or seat not in self.reserved:
                raise LobbyError(409, "seat.taken", "that seat is no longer kept for you")
            token = new_token()
            row.kind, row.token_hash, row.bot = "human", hash_token(token), None
            await self.server.store.save_seat(row, self.fence)
            await self._set_reserved(self.reserved - {seat})
            self._announce()
            return token

    async def leave(self, seat: int) -> None:
        async with self.lock:
            self._require_open()
            await self._empty_seat(seat)

    async def set_bot(self, seat: int, bot: str | None) -> None:
        async with self.lock:
            self._require_open()
            if not 0 <= seat < len(self.seats):
                raise LobbyError(404, "seat.unknown", "no such seat")
            if bot is None:
                await self._empty_seat(seat)
                return
            if bot not in bot_factories(self.game):
                raise LobbyError(422, "bot.unknown", f"unknown bot {bot!r} for {self.game.id}")
            row = self.seats[seat]
            if row.kind != "bot":
                row.display_name = self._bot_name(seat)
            row.kind, row.bot = "bot", bot
            row.player_id = row.token_hash = None
            await self.server.store.save_seat(row, self.fence)
            if seat in self.reserved:
                await self._set_reserved(self.reserved - {seat})
            self._load_bots()
            self._announce()

    async def _empty_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise LobbyError(404, "seat.unknown", "no such seat")
        row = self.seats[seat]
        row.kind, row.bot, row.display_name, row.player_id, row.token_hash = (
            "empty", None, None, None, None)
        await self.server.store.save_seat(row, self.fence)
        if seat in self.reserved:  # the creator opens a kept seat to anyone
            await self._set_reserved(self.reserved - {seat})
        if seat == self.creator_seat:
            await self._pass_creator_role(seat)
        for connection in [c for c in self.connections if c.seat == seat]:
            connection.seat = None  # a kicked player keeps watching as a spectator
        self._load_bots()
        self._announce()

    async def _pass_creator_role(self, left: int) -> None:
        """The creator left: the next person seated after them (clockwise) takes over; with
        nobody seated, the next person to join does (see :meth:`join`)."""
        count = len(self.seats)
        heir = next((self.seats[(left + step) % count].seat for step in range(1, count)
                     if self.seats[(left + step) % count].kind == "human"), NO_CREATOR)
        self.row.settings = {**(self.row.settings or {}), "creator_seat": heir}
        await self.server.store.save_settings(self.id, self.row.settings, self.fence)

    def _require_open(self) -> None:
        if self.row.status != "open":
            raise LobbyError(409, "table.started", "the table has already started")

    async def start(self) -> None:
        async with self.lock:
            self._require_open()
            if any(s.kind == "empty" for s in self.seats):
                raise LobbyError(409, "table.not_full", "every seat needs a player or a bot")
            self.state = self.game.new_state(self.row.options, self.row.players, self.row.seed)
            self.row.status = "running"
            await self.server.store.set_status(self.id, "running", fence=self.fence)
            self._announce()
            for connection in self.connections:
                connection.send(self._snapshot(connection.seat))
            self._wake()

    # -- recovery -------------------------------------------------------------------
    def recover(self, actions: list[StoredAction]) -> None:
        """Rebuild the state by replaying the log (engines are deterministic)."""
        self.state = self.game.new_state(self.row.options, self.row.players, self.row.seed)
        for stored in actions:
            self.game.apply(self.state, Action(stored.seat, stored.kind, stored.payload,
                                               stored.t_ms))
            if stored.client_id:
                ack = Ack(id=stored.client_id, seq=stored.seq, version=self.state.version)
                self._remember(stored.seat, stored.client_id, ack.model_dump_json())
        self.seq = len(actions)

    # -- play -----------------------------------------------------------------------
    async def submit(self, seat: int, kind: str, payload: dict[str, Any],
                     client_id: str | None, version: int | None,
                     not_before_ms: int | None = None) -> str:
        """Try one action; return the JSON answer (an ack or an error).

        ``not_before_ms``: the earliest receive time to stamp, for a timer's action. The
        table sleeps on the monotonic clock but stamps wall-clock time, and the two drift
        apart (NTP slews the wall clock), so a timer can wake a few ms before its deadline
        by the wall clock; stamped then, the game would refuse it as early."""
        started = time.perf_counter()
        async with self.lock:
            answers = self.answered.get(seat)
            if client_id is not None and answers is not None and client_id in answers:
                return answers[client_id]
            answer = await self._submit_locked(seat, kind, payload, client_id, version,
                                               not_before_ms)
            answer_json = answer.model_dump_json()
            if client_id is not None and answer.type == "ack":
                self._remember(seat, client_id, answer_json)
        self.server.metrics.observe_action(time.perf_counter() - started, answer.type == "ack")
        return answer_json

    def _remember(self, seat: int, client_id: str, answer_json: str) -> None:
        # A client resends only moves still in flight; a bound per seat keeps a long game's
        # memory flat (an unbounded table cost ~1 KiB per move, bench/server_timo.py).
        answers = self.answered.setdefault(seat, OrderedDict())
        answers[client_id] = answer_json
        if len(answers) > ANSWERS_KEPT_PER_SEAT:
            answers.popitem(last=False)

    async def _submit_locked(self, seat: int, kind: str, payload: dict[str, Any],
                             client_id: str | None, version: int | None,
                             not_before_ms: int | None = None) -> Ack | ErrorMessage:
        def refuse(code: str, message: str, details: dict[str, Any] | None = None
                   ) -> ErrorMessage:
            return ErrorMessage(id=client_id, code=code, message=message, details=details or {})

        if self.row.status == "open":
            return refuse("table.not_started", "the game has not started yet")
        if self.unsure:
            try:
                await self._resync()
            except Exception:
                log.warning("the log cannot be read back yet", extra={"table": self.id})
                return refuse("storage.failed",
                              "the database is out of reach; the move was not made, "
                              "try again in a moment")
        if self.row.status != "running" or self.game.is_over(self.state):
            return refuse("game.over", "the game is over")
        if version is not None and version != self.state.version:
            return refuse("action.stale", "the game has moved on; act on the new state",
                          {"version": self.state.version})
        received = now_ms() if not_before_ms is None else max(now_ms(), not_before_ms)
        action = Action(seat, kind, payload, received)
        trial = self.state.clone()
        try:
            events = self.game.apply(trial, action)
        except RuleError as error:
            return refuse(error.code, error.message, error.details)
        stored = StoredAction(self.seq + 1, seat, kind, payload, action.t_ms, client_id)
        try:
            await self.server.store.append_action(self.id, stored, self.fence)
        except FencedOut:
            log.warning("write refused: the table has a newer owner",
                        extra={"table": self.id, "fence": self.fence})
            self.server.lose_later(self.id)
            return refuse("table.moved", "another server runs this table now; reconnect")
        except Exception:
            log.exception("could not append to the log", extra={"table": self.id})
            # The commit may have happened before the connection broke.
            self.unsure = True
            return refuse("storage.failed",
                          "the database is out of reach; the move was not made, "
                          "try again in a moment")
        self.state, self.seq = trial, stored.seq
        self.turn_since = time.monotonic()
        self._broadcast(seat, kind, events)
        if self.game.is_over(self.state):
            await self._finish()
        else:
            self._wake()
        return Ack(id=client_id or "", seq=self.seq, version=self.state.version)

    async def _resync(self) -> None:
        """After a write that may or may not have committed: take the log's word for it
        (replaying it if it holds more moves than we applied) and send everyone a fresh
        snapshot."""
        actions = await self.server.store.load_actions(self.id)
        self.unsure = False
        if len(actions) != self.seq:
            self.recover(actions)
            for connection in self.connections:
                connection.send(self._snapshot(connection.seat))
            log.info("table read back from its log", extra={"table": self.id})

    def _broadcast(self, seat: int, kind: str, events: list[Any]) -> None:
        frames: dict[int | None, str] = {}
        for connection in self.connections:
            viewer = connection.seat
            if viewer not in frames:
                frames[viewer] = EventFrame(
                    seq=self.seq, version=self.state.version, seat=seat, kind=kind,
                    events=[e.to_json() for e in events_for(events, viewer)],
                    view=self.game.view(self.state, viewer).to_json()).model_dump_json()
            connection.send(frames[viewer])

    def _snapshot(self, viewer: int | None) -> str:
        return Snapshot(seq=self.seq, version=self.state.version,
                        view=self.game.view(self.state, viewer).to_json()).model_dump_json()

    def _announce(self, skip: Connection | None = None) -> None:
        info_json = self.info().model_dump_json()
        # TableUpdate's JSON, around the description made once for frames and the lobby.
        frame = f'{{"type":"table","table":{info_json}}}'
        if self.server.cluster is not None:
            listed_as = None if self.private else self.status
            self.server.cluster.put_info(self.id, self.row.created_ms, info_json, listed_as,
                                         relist=listed_as != self._listed_as)
            self._listed_as = listed_as
        for connection in self.connections:
            if connection is not skip:
                connection.send(frame)

    async def _finish(self) -> None:
        outcome = self.game.outcome(self.state)
        assert outcome is not None
        result = outcome.to_json() | {"names": [s.display_name or s.bot for s in self.seats]}
        try:
            ratings = await new_ratings(self.server.store, self.game.id, self.seats, outcome)
        except Exception:  # ratings are a bonus: they must never keep a game from ending
            log.exception("could not update ratings", extra={"table": self.id})
            ratings = []
        try:
            await self.server.store.finish(self.id, result, ratings, self.fence)
        except FencedOut:
            self.server.lose_later(self.id)
            return
        except Exception:
            # The last move is logged, so the game is over whatever happens; only its
            # end is not written yet: try again until the database answers.
            log.warning("could not mark the game finished; trying again",
                        extra={"table": self.id}, exc_info=True)
            self.task = asyncio.get_running_loop().create_task(self._finish_again())
            return
        self.row.status, self.row.result = "finished", result
        self.server.records.setdefault(self.game.id, []).extend(
            self.game.round_records(self.state))
        self._announce()
        log.info("table finished", extra={"table": self.id, "result": result})
        self.server.retire_later(self.id)

    async def _finish_again(self) -> None:
        await asyncio.sleep(STORAGE_RETRY_S)
        async with self.lock:
            if self.row.status == "running" and self.server.tables.get(self.id) is self:
                await self._finish()

    # -- connections ----------------------------------------------------------------
    def connect(self, websocket: WebSocket, seat: int | None) -> Connection:
        settings = self.server.settings
        connection = Connection(websocket, seat, settings.send_queue_frames,
                                settings.send_timeout_s)
        # Only a seat's first connection changes what others see (it is no longer away):
        # spectators and second tabs cost no frame to anyone else, so a crowd joining
        # costs O(1) frames per connection.
        arrives = seat is not None and all(c.seat != seat for c in self.connections)
        self.connections.add(connection)
        self.last_seen = time.monotonic()
        if seat is not None and self.away_since.pop(seat, None) is not None:
            self._wake()  # the player is back: their stand-in hands the seat over
        if arrives:
            self._announce(skip=connection)  # the newcomer learns it from its welcome
        return connection

    def catch_up(self, connection: Connection) -> None:
        if self.state is not None:
            connection.send(self._snapshot(connection.seat))

    async def disconnect(self, connection: Connection) -> None:
        self.connections.discard(connection)
        self.last_seen = time.monotonic()
        seat = connection.seat
        leaves = seat is not None and all(c.seat != seat for c in self.connections)
        if seat is not None and leaves:
            self.away_since[seat] = time.monotonic()
            if self.state is not None:
                self._wake()
        await connection.close()
        if leaves:
            self._announce()

    # -- bots and timers ------------------------------------------------------------
    def _wake(self) -> None:
        """(Re)plan the table's next automatic move: a bot's, or a timer's."""
        current = asyncio.current_task()
        if self.task is not None and self.task is not current and not self.task.done():
            self.task.cancel()
        if self.row.status == "running" and not self.game.is_over(self.state):
            self.task = asyncio.create_task(self._automatic_move())

    def _stand_in_from(self, seat: int) -> float | None:
        """When a stand-in bot starts playing this person's seat (monotonic seconds): the
        grace period after they left, or the move's time limit, whichever comes first."""
        if self.seats[seat].kind != "human":
            return None
        settings = self.row.settings or {}
        times = []
        if seat in self.away_since:
            times.append(self.away_since[seat] + settings.get("grace_s", DEFAULT_GRACE_S))
        if settings.get("turn_limit_s") is not None:
            times.append(self.turn_since + settings["turn_limit_s"])
        return min(times, default=None)

    def _stands_in(self, seat: int, now: float) -> bool:
        start = self._stand_in_from(seat)
        return start is not None and now >= start

    def _stand_in(self, seat: int) -> Any:
        if seat not in self.stand_ins:
            factories = bot_factories(self.game)
            self.stand_ins[seat] = self._make_bot(
                factories.get(self.game.default_bot, factories["random"]))
        return self.stand_ins[seat]

    def _think(self, seat: int, bot: Any, decide: Callable[[Any, Any], T], view: Any) -> T:
        """``decide(bot, view)``; if the bot raises, the error is logged and the random bot
        decides instead: a bot's bug must not stop the table."""
        try:
            return decide(bot, view)
        except Exception:
            log.exception("bot failed; the random bot moves for it",
                          extra={"table": self.id, "seat": seat})
            return decide(self._make_bot(bot_factories(self.game)["random"]), view)

    async def _automatic_move(self) -> None:
        if getattr(self.game, "realtime", False):
            await self._realtime_move()
            return
        # Every path ends in a move (whose submit plans the next one) or a wait for a
        # person; a move the game refused is looked at again, since nothing else would
        # wake the table.
        while True:
            state = self.state
            acting = sorted(self.game.to_act(state))
            now = time.monotonic()
            automatic = [s for s in acting if s in self.bots or self._stands_in(s, now)]
            refused = False
            if automatic and self.game.paces_bots:
                moved = await self._paced_move(state, automatic)
                if moved:
                    return
                refused = moved is False
            elif automatic:
                await asyncio.sleep(self.server.settings.bot_delay_ms / 1000)
                moved = await self._bot_move(state, automatic)
                if moved:
                    return
                refused = moved is False
            deadline = self.game.deadline(state)
            if refused and (deadline is None or deadline > now_ms()):
                # A timer that has run out fires first (below); otherwise try again.
                await asyncio.sleep(STORAGE_RETRY_S if self.unsure else REFUSED_RETRY_S)
                continue
            later = [t for t in map(self._stand_in_from, acting) if t is not None and t > now]
            game_first = deadline is not None and (
                not later or deadline / 1000 - time.time() <= min(later) - now)
            if game_first and deadline is not None:
                await asyncio.sleep(max(0.0, (deadline - now_ms()) / 1000))
                timeout = self.game.timeout_action(state, max(now_ms(), deadline))
                if timeout is not None:
                    await asyncio.shield(self.submit(SYSTEM_SEAT, timeout.kind,
                                                     dict(timeout.payload), None,
                                                     state.version, not_before_ms=deadline))
                if self.state is not state:
                    return
                log.warning("timer action refused", extra={"table": self.id})
                await asyncio.sleep(STORAGE_RETRY_S if self.unsure else REFUSED_RETRY_S)
                continue
            if not later:
                return
            await asyncio.sleep(min(later) - now)

    async def _bot_move(self, state: Any, seats: list[int]) -> bool | None:
        """The first of ``seats`` (in a random order) whose bot wants to act does: True if
        the table took the move, False if it refused it, None if no bot wanted to act."""
        self.rng.shuffle(seats)
        for seat in seats:
            bot = self.bots.get(seat) or self._stand_in(seat)
            view = self.game.view(state, seat)
            action = await asyncio.to_thread(
                self._think, seat, bot, lambda bot, view: bot.act(view, self.rng), view)
            if action is not None:
                # Shielded: a re-plan may cancel this task while it thinks or sleeps,
                # never in the middle of writing the log.
                await asyncio.shield(self.submit(seat, action.kind, dict(action.payload),
                                                 None, state.version))
                if self.state is state:
                    log.info("bot move refused", extra={"table": self.id, "seat": seat})
                    return False
                return True
        return None

    async def _paced_move(self, state: Any, seats: list[int]) -> bool | None:
        """A game that times its bots like people (Timo's TIMO! races): every bot seat
        says when it would act; the first does then, unless a move comes before (which
        plans again). True/False/None as :meth:`_bot_move`."""
        # The default thinking delay is a person's pace; tests make it 0 (instant bots).
        pace = self.server.settings.bot_delay_ms / PEOPLE_PACE_BOT_DELAY_MS
        moments = []
        for seat in seats:
            bot = self.bots.get(seat) or self._stand_in(seat)
            view = self.game.view(state, seat)
            moment = await asyncio.to_thread(
                self._think, seat, bot,
                lambda bot, view: self.game.paced_move(bot, view, self.rng), view)
            if moment is not None:
                moments.append((moment[0], seat, moment[1]))
        if not moments:
            return None
        delay_ms, seat, action = min(moments, key=lambda moment: (moment[0], moment[1]))
        await asyncio.sleep(delay_ms * pace / 1000)
        await asyncio.shield(self.submit(seat, action.kind, dict(action.payload), None,
                                         state.version))
        if self.state is state:
            log.info("bot move refused", extra={"table": self.id, "seat": seat})
            return False
        return True

    async def _realtime_move(self) -> None:
        """Real-time games: every bot says when it would act; the earliest of those, the
        game's own deadline and a stand-in taking over happens next (then we plan again)."""
        state = self.state
        mono = time.monotonic()
        wall = now_ms()
        pace = self.server.settings.realtime_bot_pace
        best: tuple[float, int, Any] | None = None
        bots = [(seat, self.bots.get(seat) or self._stand_in(seat))
                for seat in range(len(self.seats))
                if seat in self.bots or self._stands_in(seat, mono)]

        def plan_all() -> list[tuple[int, Any]]:
            # Off the event loop: a word bot thinking for a moment must not hold up a
            # person's move (it would be stamped late).
            with self.planning:
                return [(seat, self._think(
                    seat, bot, lambda bot, view: timed_plan(bot, view, self.rng, state.clock),
                    self.game.view(state, seat))) for seat, bot in bots]

        deadline = self.game.deadline(state)
        thinking = asyncio.ensure_future(asyncio.to_thread(plan_all))
        # A timer never waits for a bot still thinking (a word bot's first thought loads
        # its data): at the deadline the table fires it, and plans again after.
        limit = None if deadline is None else max(0.0, (deadline - now_ms()) / 1000)
        done, _ = await asyncio.wait({thinking}, timeout=limit)
        for seat, planned in thinking.result() if done else []:
            if planned is not None:
                # Bots time themselves from the last change on the table.
                at = state.clock + (planned[0] - state.clock) * pace
                if best is None or at < best[0]:
                    best = (at, seat, planned[1])
        later = [t for t in map(self._stand_in_from, range(len(self.seats)))
                 if t is not None and t > mono]
        wake = wall + (min(later) - mono) * 1000 if later else None
        moments = [t for t in (best[0] if best else None, deadline, wake) if t is not None]
        if not moments:
            return
        first = min(moments)
        await asyncio.sleep(max(0.0, (first - now_ms()) / 1000))
        if deadline is not None and first == deadline:
            timeout = self.game.timeout_action(state, max(now_ms(), deadline))
            if timeout is not None:
                await asyncio.shield(self.submit(SYSTEM_SEAT, timeout.kind,
                                                 dict(timeout.payload), None, state.version,
                                                 not_before_ms=deadline))
            if self.state is state:
                await asyncio.sleep(STORAGE_RETRY_S if self.unsure else REFUSED_RETRY_S)
                self._wake()
        elif best is not None and first == best[0]:
            action = best[2]
            await asyncio.shield(self.submit(best[1], action.kind, dict(action.payload), None,
                                             state.version))
            if self.state is state:
                # Refused (the table changed under the bot): look again shortly.
                await asyncio.sleep(STORAGE_RETRY_S if self.unsure else REFUSED_RETRY_S)
                self._wake()
        else:
            self._wake()  # a stand-in starts now: plan again with it

    async def stop(self, code: int = 1001) -> None:
        """Stop playing and close every connection with ``code`` (1001: the server is
        going away; MOVED_CLOSE_CODE: the table moved, reconnect)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        async with self.lock:  # waits for an append in flight to finish
            for connection in list(self.connections):
                with contextlib.suppress(Exception):
                    await connection.websocket.close(code=code)
                await connection.close()
            self.connections.clear()


class GameServer:
    """The lobby: tables in memory, backed by the store."""

    def __init__(self, store: Store, registry: GameRegistry, settings: Settings,
                 metrics: Any):
        self.store = store
        self.registry = registry
        self.settings = settings
        self.metrics = metrics
        self.records: dict[str, list[dict[str, Any]]] = {}  # finished rounds by game
        self.tables: dict[str, Table] = {}
        self.accepting = True
        self.leases = TableLeases(store.engine)
        self.cluster: Cluster | None = None
        if settings.redis_url is not None:
            self.cluster = Cluster(settings.redis_url, settings.redis_prefix,
                                   settings.lease_ttl_ms)
            self.cluster.on_lost = self.lose
            self.cluster.load = self.tables_in_play
        self._retiring: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._scanner: asyncio.Task[None] | None = None
        self._taking: dict[str, asyncio.Task[Table | None]] = {}

    # -- ownership ------------------------------------------------------------------
    async def _acquire(self, table_id: str, floor: int) -> tuple[bool, int | None]:
        """Whether this server may run the table now, and the fencing token its writes
        carry (several workers: claimed in the database, above ``floor``)."""
        if self.cluster is None:
            return await self.leases.acquire(table_id), None
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

    async def _release(self, table_id: str, listed: bool = False) -> None:
        """Give a table's lease back; ``listed``: it also leaves the shared lobby."""
        if self.cluster is None:
            await self.leases.release(table_id)
            return
        with contextlib.suppress(Exception):  # an expiring lease frees it anyway
            await self.cluster.release(table_id)
        if listed:
            self.cluster.drop_info(table_id)

    async def _store_new(self, row: TableRow, seats: list[SeatRow]) -> Table:
        """Save a new table and run it here."""
        fence = None
        if self.cluster is not None:
            fence = await self.cluster.acquire(row.id)
            if fence is None:
                raise LobbyError(503, "server.busy", "could not open the table; try again")
            row.fence = fence
        await self.store.create_table(row, seats)
        if self.cluster is None:
            await self.leases.acquire(row.id)
        table = Table(self, row, seats)
        table.fence = fence
        self.tables[row.id] = table
        if self.cluster is not None:
            table._announce()  # in the shared lobby at once, not at its first change
        return table

    async def locate(self, table_id: str) -> Table | str | None:
        """Where a table runs: here (the table), on another worker (that worker's id), or
        nowhere (None: no such table). A table in the database that no worker holds is
        taken over here."""
        table = self.tables.get(table_id)
        if table is not None or self.cluster is None:
            return table
        for _ in range(3):
            taking = self._taking.get(table_id)
            if taking is not None:
                await asyncio.shield(taking)
            if table_id in self.tables:
                return self.tables[table_id]
            owner = await self.cluster.owner(table_id)
            if owner is not None and owner != self.cluster.worker_id:
                return owner
            if owner is None:
                table = await self.take_over(table_id)
                if table is not None:
                    return table
                if await self.store.fence(table_id) is None:
                    return None
            await asyncio.sleep(0.05)
        raise LobbyError(503, "table.moving", "the table is moving between servers; retry")

    async def take_over(self, table_id: str) -> Table | None:
        """Run a table that no worker holds: its lease first, then its state from the log
        (its bots and timers re-armed). None when another worker got it first."""
        if not self.accepting:
            return None
        taking = self._taking.get(table_id)
        if taking is None:
            taking = asyncio.create_task(self._take_over(table_id))
            self._taking[table_id] = taking
            taking.add_done_callback(lambda _: self._taking.pop(table_id, None))
        return await asyncio.shield(taking)

    async def _take_over(self, table_id: str) -> Table | None:
        floor = await self.store.fence(table_id)
        if floor is None:
            return None
        owned, fence = await self._acquire(table_id, floor)
        if not owned:
            return None
        try:
            # Read after the claim: no older owner can change the table any more.
            loaded = await self.store.load_table(table_id)
            assert loaded is not None
            table = Table(self, *loaded)
            table.fence = fence
            if table.status == "running":
                table.recover(await self.store.load_actions(table_id))
        except Exception:
            await self._release(table_id)
            raise
        self.tables[table_id] = table
        if table.status == "running":
            if table.game.is_over(table.state):
                await table._finish()
            else:
                table._wake()
        elif table.status != "open":
            self.retire_later(table_id)
        table._announce()
        log.info("table taken over", extra={"table": table_id, "fence": fence,
                                            "seq": table.seq})
        return table

    async def lose(self, table_id: str) -> None:
        """This worker no longer holds the table: forget it and send its clients to the
        new owner (they reconnect)."""
        table = self.tables.pop(table_id, None)
        await self._release(table_id)
        if table is not None:
            await table.stop(MOVED_CLOSE_CODE)
            log.warning("table given up: its lease is gone", extra={"table": table_id})

    def lose_later(self, table_id: str) -> None:
        """:meth:`lose` from inside the table's own lock."""
        task = asyncio.get_running_loop().create_task(self.lose(table_id))
        self._retiring.add(task)
        task.add_done_callback(self._retiring.discard)

    async def scan(self) -> None:
        """Take over every table in play that no worker holds (a worker died, or Redis
        forgot the leases), and drop the lobby entries of tables nobody holds, a few
        times per lease time to live."""
        assert self.cluster is not None
        while True:
            try:
                in_play = await self.store.tables_in_play()
                free = [t for t in in_play if t not in self.tables]
                held = await self.cluster.leased(free)
                for table_id in free:
                    if table_id not in held:
                        await self.take_over(table_id)
                await self.cluster.prune_lobby(set(self.tables))
            except Exception as error:
                log.warning("could not look for tables to take over",
                            extra={"error": repr(error)})
            await asyncio.sleep(self.settings.lease_ttl_ms / 2000)

    async def sweep_abandoned(self) -> None:
        """Tables nobody started and nobody looks at, and running ones nobody has looked
        at for longer than their grace (see ``Settings.unattended_after_s``), leave
        memory: each is marked abandoned in the database and its lease released, so they
        never fill the server."""
        limit = self.settings.abandoned_after_s
        floor = self.settings.unattended_after_s
        while True:
            await asyncio.sleep(min(60.0, max(min(limit, floor) / 4, 0.05)))
            now = time.monotonic()
            for table in list(self.tables.values()):
                grace = (table.row.settings or {}).get("grace_s", DEFAULT_GRACE_S)
                if not table.connections and (
                        (table.status == "open" and now - table.last_seen > limit)
                        or (table.status == "running"
                            and now - table.last_seen > max(grace, floor))):
                    if table.status == "running":
                        await table.stop()  # no move in flight when it is marked
                        if table.status != "running":
                            continue  # it ended meanwhile
                    table.row.status = "abandoned"
                    await self.store.set_status(table.id, "abandoned", fence=table.fence)
                    self.tables.pop(table.id, None)
                    await table.stop()
                    await self._release(table.id, listed=True)
                    log.info("table abandoned", extra={"table": table.id})

    async def recover(self) -> None:
        self._sweeper = asyncio.create_task(self.sweep_abandoned())
        # Rounds of finished games, for bots that learn from people (Twinz word bots).
        for row, _ in await self.store.load_tables(["finished"]):
            if row.game not in self.registry:
                continue
            game = self.registry.get(row.game)
            if not game.learns_from_rounds:
                continue
            actions = await self.store.load_actions(row.id)
            replay = Replay(row.game, row.players, row.seed, dict(row.options),
                            [Action(a.seat, a.kind, a.payload, a.t_ms) for a in actions])
            with contextlib.suppress(Exception):  # an old log must never stop a start
                records = game.round_records(replay.final_state(game))
                self.records.setdefault(row.game, []).extend(records)
        if self.cluster is not None:
            await self.cluster.start()
            self._scanner = asyncio.create_task(self.scan())
            return
        for row, seats in await self.store.load_tables(["open", "running"]):
            if not await self.leases.acquire(row.id):
                continue  # another server on this PostgreSQL database runs this table
            table = Table(self, row, seats)
            self.tables[row.id] = table
            if row.status == "running":
                table.recover(await self.store.load_actions(row.id))
                if table.game.is_over(table.state):
                    # The last move was logged but the server stopped before it marked the
                    # game finished: the log says it is over, so finish it now (rated once).
                    await table._finish()
                else:
                    table._wake()
        log.info("tables recovered", extra={"tables": len(self.tables)})

    async def create(self, game_id: str, players: int, options: dict[str, Any],
                     seat_kinds: list[tuple[str, str | None]], name: str | None,
                     display_name: str, player_id: str | None,
                     turn_limit_s: int | None = None,
                     grace_s: int = DEFAULT_GRACE_S,
                     invite_hash: str | None = None) -> tuple[Table, int, str]:
        """A new open table with its creator in seat 0; ``invite_hash``: the hash of a
        private table's invite secret (none: a public table)."""
        try:
            game = self.registry.get(game_id)
            resolved = game.resolve_options(options)
            game.check_players(players, resolved)
            # A game refuses options that do not fit the player count (a taboo seat past
            # the last) when it deals: deal once now, so the table is refused here and
            # never fails at its start.
            game.new_state(resolved, players, 0)
        except (OptionError, RuleError) as error:
            raise LobbyError(422, error.code, error.message) from None
        except (ValueError, TypeError, KeyError, IndexError) as error:
            raise LobbyError(422, "options.invalid",
                             f"these options do not make a game: {error}") from None
        if len(seat_kinds) != players or seat_kinds[0][0] != "human":
            raise LobbyError(422, "seats.invalid",
                             "give one entry per seat; seat 0 is the creator's")
        known = bot_factories(game)
        for kind, bot in seat_kinds:
            if kind == "bot" and bot not in known:
                raise LobbyError(422, "bot.unknown", f"unknown bot {bot!r} for {game_id}")
        token = new_token()
        table_id = secrets.token_hex(8)
        row = TableRow(id=table_id, game=game_id, name=name or f"{display_name}'s table",
                       options={k: list(v) if isinstance(v, tuple) else v
                                for k, v in resolved.items()},
                       seed=secrets.randbits(62), players=players, status="open",
                       creator_hash=hash_token(token), created_ms=now_ms(), result=None,
                       settings={"turn_limit_s": turn_limit_s, "grace_s": grace_s,
                                 # Clients name an unnamed table in their own language.
                                 **({"host_name": display_name} if name is None else {}),
                                 **({"invite_hash": invite_hash} if invite_hash else {})})
        seats = []
        for seat, (kind, bot) in enumerate(seat_kinds):
            if seat == 0:
                seats.append(SeatRow(table_id=table_id, seat=0, kind="human",
                                     display_name=display_name, player_id=player_id,
                                     token_hash=hash_token(token)))
            else:
                seats.append(SeatRow(table_id=table_id, seat=seat,
                                     kind="bot" if kind == "bot" else "empty",
                                     bot=bot if kind == "bot" else None,
                                     display_name=bot_name(
                                         table_id, seat, {s.display_name for s in seats
                                                          if s.display_name})
                                     if kind == "bot" else None))
        table = await self._store_new(row, seats)
        log.info("table created", extra={"table": table_id, "game": game_id})
        return table, 0, token

    async def rematch(self, table: Table, seat: int) -> tuple[Table, str]:
        """The rematch of a finished table for the player in ``seat``: the first call makes
        it (same game, options, seats and bots; the other people's seats are kept for
        them), every later one seats its caller there. Returns the table and a token."""
        async with table.lock:
            if table.row.status != "finished":
                raise LobbyError(409, "table.not_finished", "the game is not over yet")
            made = (table.row.settings or {}).get("rematch")
            if made is None:
                new, token = await self._make_rematch(table, seat)
                table.row.settings = {**(table.row.settings or {}), "rematch": new.id}
                await self.store.save_settings(table.id, table.row.settings, table.fence)
                table._announce()
                return new, token
        new = await self.load(made)
        return new, await new.claim(seat)

    async def _make_rematch(self, old: Table, seat: int) -> tuple[Table, str]:
        options = dict(old.row.options)
        result = old.row.result or {}
        if (old.game.id == "twinit" and options.get("edition") == "fr"
                and options.get("mode") == "competitive" and result.get("winners")):
            # RULES.md §3, taboo for chained games: the last winner plays under taboo.
            options["taboo"] = sorted(result["winners"])
        try:
            resolved = old.game.resolve_options(options)
            old.game.check_players(old.row.players, resolved)
        except OptionError as error:
            raise LobbyError(422, error.code, error.message) from None
        token = new_token()
        table_id = secrets.token_hex(8)
        seats: list[SeatRow] = []
        reserved: list[int] = []
        for previous in old.seats:
            kept = SeatRow(table_id=table_id, seat=previous.seat, kind=previous.kind,
                           bot=previous.bot, display_name=previous.display_name,
                           player_id=previous.player_id)
            if previous.kind == "human" and previous.seat == seat:
                kept.token_hash = hash_token(token)
            elif previous.kind == "human":
                kept.kind = "empty"
                reserved.append(previous.seat)
            seats.append(kept)
        settings = {**(old.row.settings or {}), "creator_seat": seat, "reserved": reserved,
                    "rematch_of": old.id}
        settings.pop("rematch", None)
        row = TableRow(id=table_id, game=old.row.game, name=old.row.name,
                       options={k: list(v) if isinstance(v, tuple) else v
                                for k, v in resolved.items()},
                       seed=secrets.randbits(62), players=old.row.players, status="open",
                       creator_hash=hash_token(token), created_ms=now_ms(), result=None,
                       settings=settings)
        table = await self._store_new(row, seats)
        log.info("rematch created", extra={"table": table_id, "rematch_of": old.id})
        return table, token

    async def load(self, table_id: str) -> Table:
        """A table in memory, or a finished one read back from the store."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if self.cluster is not None:
            found = await self.locate(table_id)
            if found is None:
                raise LobbyError(404, "table.unknown", "no such table")
            if isinstance(found, str):
                raise LobbyError(503, "table.moving", "the table is on another server; retry")
            return found
        loaded = await self.store.load_table(table_id)
        if loaded is None:
            raise LobbyError(404, "table.unknown", "no such table")
        table = self.tables.setdefault(table_id, Table(self, *loaded))
        return table

    async def create_profile(self, display_name: str) -> tuple[str, str]:
        """A new profile: its public id and its secret (only the hash is kept)."""
        player_id, secret = f"p-{secrets.token_hex(8)}", new_token()
        await self.store.create_profile(ProfileRow(
            id=player_id, secret_hash=hash_token(secret), display_name=display_name,
            created_ms=now_ms()))
        return player_id, secret

    async def check_profile(self, player_id: str | None, secret: str | None) -> None:
        """A player id is an identity only with its secret: anyone may read the public id
        off the leaderboard, nobody else may play, be rated or renamed under it."""
        if player_id is None:
            return
        row = await self.store.profile(player_id)
        if row is None or not secret or not secrets.compare_digest(
                row.secret_hash, hash_token(secret)):
            raise LobbyError(403, "profile.invalid",
                             "that player id needs its secret key (make a profile first)")

    def tables_in_play(self) -> int:
        """Tables open or running here (finished ones only wait to leave memory)."""
        return sum(1 for table in self.tables.values() if table.status != "finished")

    def check_capacity(self, client: str) -> None:
        """Refuse a new table past the server's bound (each address's share of it:
        ``server/guards.py``'s ``TableQuota``)."""
        if len(self.tables) >= self.settings.max_tables:
            raise LobbyError(503, "server.full", "this server has no room for another table")

    def retire_later(self, table_id: str) -> None:
        """A finished table leaves memory after a while (the database keeps it): long
        enough for its players' last frames and a rematch."""
        asyncio.get_running_loop().call_later(self.settings.finished_linger_s,
                                              self._start_retiring, table_id)

    def _start_retiring(self, table_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self._retire(table_id))
        self._retiring.add(task)  # held until done: the loop keeps only weak references
        task.add_done_callback(self._retiring.discard)

    async def _retire(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is None or table.status not in ("finished", "abandoned"):
            return
        del self.tables[table_id]
        await table.stop()
        await self._release(table_id, listed=True)

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise LobbyError(404, "table.unknown", "no such table")
        return table

    async def stored_replay(self, table_id: str) -> Replay:
        loaded = await self.store.load_table(table_id)
        if loaded is None:
            raise LobbyError(404, "table.unknown", "no such table")
        row, _ = loaded
        if row.status != "finished":
            # The seed and the log of a running game would reveal every hidden card.
            raise LobbyError(409, "table.not_finished", "replays open when the game is over")
        actions = await self.store.load_actions(table_id)
        game = self.registry.get(row.game)
        return Replay(row.game, row.players, row.seed, dict(row.options),
                      [Action(a.seat, a.kind, stored_payload(game, a.kind, a.payload), a.t_ms)
                       for a in actions])

    async def shutdown(self) -> None:
        self.accepting = False
        for task in (self._sweeper, self._scanner):
            if task is not None:
                task.cancel()
        # Several workers: clients reconnect to whichever takes the tables over.
        code = 1001 if self.cluster is None else MOVED_CLOSE_CODE
        await asyncio.gather(*(table.stop(code) for table in self.tables.values()))
        if self.cluster is not None:
            await self.cluster.close()  # gives every lease back
