"""Tables: one actor per table that owns its game state, its log and its connections.

Every change goes through :meth:`Table.submit` under the table's lock: the action is
stamped with the server's time, tried on a clone, appended to the log, and only then made
the table's state, broadcast (each connection gets its own view) and acknowledged. Bots
and timers act through the same path.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import inspect
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import WebSocket

from twintable.core.errors import OptionError, RuleError
from twintable.core.game import Game
from twintable.core.registry import GameRegistry
from twintable.core.replay import Replay
from twintable.core.types import SYSTEM_SEAT, Action, events_for
from twintable.server.moves import stored_payload
from twintable.server.protocol import (
    Ack,
    ErrorMessage,
    EventFrame,
    SeatInfo,
    Snapshot,
    TableInfo,
    TableUpdate,
)
from twintable.server.ratings import new_ratings
from twintable.server.settings import Settings
from twintable.server.storage.models import SeatRow, TableRow
from twintable.server.storage.ownership import TableLeases
from twintable.server.storage.store import Store, StoredAction
from twintable.sim.runner import bot_factories, timed_plan

log = logging.getLogger("twintable.server")

T = TypeVar("T")


DEFAULT_GRACE_S = 60
#: How many of each seat's latest acknowledged moves a resend can still find.
ANSWERS_KEPT_PER_SEAT = 64
#: Pause before looking again at a table whose automatic move the game refused.
REFUSED_RETRY_S = 0.05


def now_ms() -> int:
    return int(time.time() * 1000)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits


class LobbyError(Exception):
    """A refused lobby request, with a stable code and an HTTP status."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class Connection:
    """One WebSocket client; frames go through a queue so a slow client never holds a
    table's lock."""

    def __init__(self, websocket: WebSocket, seat: int | None):
        self.websocket = websocket
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.writer = asyncio.create_task(self._write())

    def send(self, frame: str) -> None:
        self.queue.put_nowait(frame)

    async def _write(self) -> None:
        while (frame := await self.queue.get()) is not None:
            try:
                await self.websocket.send_text(frame)
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
        # Nobody is connected yet (a new table, or a restart): the grace period starts now.
        started = time.monotonic()
        self.away_since: dict[int, float] = {s.seat: started for s in seats
                                             if s.kind == "human"}
        self.turn_since = started
        self.stand_ins: dict[int, Any] = {}
        self._load_bots()

    # -- description ----------------------------------------------------------------
    @property
    def status(self) -> str:
        return self.row.status

    def info(self) -> TableInfo:
        connected = {c.seat for c in self.connections}
        return TableInfo(
            id=self.id, game=self.row.game, name=self.row.name, players=self.row.players,
            status=self.row.status,  # type: ignore[arg-type]
            options=dict(self.row.options),
            seats=[SeatInfo(seat=s.seat, kind=s.kind,  # type: ignore[arg-type]
                            bot=s.bot, display_name=s.display_name,
                            connected=s.kind == "bot" or s.seat in connected,
                            stand_in=self.state is not None
                            and self._stands_in(s.seat, time.monotonic()))
                   for s in self.seats],
            turn_limit_s=(self.row.settings or {}).get("turn_limit_s"),
            grace_s=(self.row.settings or {}).get("grace_s", DEFAULT_GRACE_S),
            result=self.row.result)

    def seat_for_token(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def is_creator(self, token: str | None) -> bool:
        return bool(token) and secrets.compare_digest(self.row.creator_hash,
                                                      hash_token(token or ""))

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
            free = [s for s in self.seats if s.kind == "empty"]
            if seat is not None:
                free = [s for s in free if s.seat == seat]
            if not free:
                raise LobbyError(409, "table.full" if seat is None else "seat.taken",
                                 "no free seat" if seat is None else "that seat is taken")
            token = new_token()
            chosen = free[0]
            chosen.kind, chosen.display_name, chosen.player_id = "human", display_name, player_id
            chosen.token_hash, chosen.bot = hash_token(token), None
            await self.server.store.save_seat(chosen)
            self._announce()
            return chosen.seat, token

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
            row.kind, row.bot, row.display_name = "bot", bot, None
            row.player_id = row.token_hash = None
            await self.server.store.save_seat(row)
            self._load_bots()
            self._announce()

    async def _empty_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise LobbyError(404, "seat.unknown", "no such seat")
        row = self.seats[seat]
        row.kind, row.bot, row.display_name, row.player_id, row.token_hash = (
            "empty", None, None, None, None)
        await self.server.store.save_seat(row)
        for connection in [c for c in self.connections if c.seat == seat]:
            connection.seat = None  # a kicked player keeps watching as a spectator
        self._load_bots()
        self._announce()

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
            await self.server.store.set_status(self.id, "running")
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
            await self.server.store.append_action(self.id, stored)
        except Exception:
            log.exception("could not append to the log", extra={"table": self.id})
            return refuse("storage.failed", "the move could not be saved; try again")
        self.state, self.seq = trial, stored.seq
        self.turn_since = time.monotonic()
        self._broadcast(seat, kind, events)
        if self.game.is_over(self.state):
            await self._finish()
        else:
            self._wake()
        return Ack(id=client_id or "", seq=self.seq, version=self.state.version)

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
        frame = TableUpdate(table=self.info()).model_dump_json()
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
        await self.server.store.finish(self.id, result, ratings)
        self.row.status, self.row.result = "finished", result
        self.server.records.setdefault(self.game.id, []).extend(
            self.game.round_records(self.state))
        self._announce()
        log.info("table finished", extra={"table": self.id, "result": result})

    # -- connections ----------------------------------------------------------------
    def connect(self, websocket: WebSocket, seat: int | None) -> Connection:
        connection = Connection(websocket, seat)
        self.connections.add(connection)
        if seat is not None and self.away_since.pop(seat, None) is not None:
            self._wake()  # the player is back: their stand-in hands the seat over
        self._announce(skip=connection)  # the newcomer learns the table from its welcome
        return connection

    def catch_up(self, connection: Connection) -> None:
        if self.state is not None:
            connection.send(self._snapshot(connection.seat))

    async def disconnect(self, connection: Connection) -> None:
        self.connections.discard(connection)
        seat = connection.seat
        if seat is not None and all(c.seat != seat for c in self.connections):
            self.away_since[seat] = time.monotonic()
            if self.state is not None:
                self._wake()
        await connection.close()
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
            if automatic:
                await asyncio.sleep(self.server.settings.bot_delay_ms / 1000)
                moved = await self._bot_move(state, automatic)
                if moved:
                    return
                refused = moved is False
            deadline = self.game.deadline(state)
            if refused and (deadline is None or deadline > now_ms()):
                # A timer that has run out fires first (below); otherwise try again.
                await asyncio.sleep(REFUSED_RETRY_S)
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
                await asyncio.sleep(REFUSED_RETRY_S)
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

    async def _realtime_move(self) -> None:
        """Real-time games: every bot says when it would act; the earliest of those, the
        game's own deadline and a stand-in taking over happens next (then we plan again)."""
        state = self.state
        mono = time.monotonic()
        wall = now_ms()
        pace = self.server.settings.realtime_bot_pace
        best: tuple[float, int, Any] | None = None
        for seat in range(len(self.seats)):
            if seat not in self.bots and not self._stands_in(seat, mono):
                continue
            bot = self.bots.get(seat) or self._stand_in(seat)
            view = self.game.view(state, seat)
            planned = self._think(
                seat, bot, lambda bot, view: timed_plan(bot, view, self.rng, state.clock), view)
            if planned is not None:
                # Bots time themselves from the last change on the table.
                at = state.clock + (planned[0] - state.clock) * pace
                if best is None or at < best[0]:
                    best = (at, seat, planned[1])
        deadline = self.game.deadline(state)
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
                await asyncio.sleep(REFUSED_RETRY_S)
                self._wake()
        elif best is not None and first == best[0]:
            action = best[2]
            await asyncio.shield(self.submit(best[1], action.kind, dict(action.payload), None,
                                             state.version))
            if self.state is state:
                # Refused (the table changed under the bot): look again shortly.
                await asyncio.sleep(0.05)
                self._wake()
        else:
            self._wake()  # a stand-in starts now: plan again with it

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        async with self.lock:  # waits for an append in flight to finish
            for connection in list(self.connections):
                with contextlib.suppress(Exception):
                    await connection.websocket.close(code=1001)
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

    async def recover(self) -> None:
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
                     grace_s: int = DEFAULT_GRACE_S) -> tuple[Table, int, str]:
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
                       settings={"turn_limit_s": turn_limit_s, "grace_s": grace_s})
        seats = []
        for seat, (kind, bot) in enumerate(seat_kinds):
            if seat == 0:
                seats.append(SeatRow(table_id=table_id, seat=0, kind="human",
                                     display_name=display_name, player_id=player_id,
                                     token_hash=hash_token(token)))
            else:
                seats.append(SeatRow(table_id=table_id, seat=seat,
                                     kind="bot" if kind == "bot" else "empty",
                                     bot=bot if kind == "bot" else None))
        await self.store.create_table(row, seats)
        await self.leases.acquire(table_id)
        table = Table(self, row, seats)
        self.tables[table_id] = table
        log.info("table created", extra={"table": table_id, "game": game_id})
        return table, 0, token

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
        await asyncio.gather(*(table.stop() for table in self.tables.values()))
