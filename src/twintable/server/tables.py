"""Tables: one actor per table that owns its game state, its log and the move pipeline.

Every change goes through :meth:`Table.submit` under the table's lock: the action is
stamped with the server's time, tried on a clone, appended to the log, and only then made
the table's state, broadcast (each connection gets its own view) and acknowledged. Bots
and timers act through the same path.

A table's other jobs are parts of their own: who sits where (``server/seating.py``), who
is connected and when stand-ins play (``server/presence.py``), its automatic moves
(``server/automation.py``), its description in the lobby (``server/listing.py``); the
tables a process runs are kept by ``server/game_server.py``.

Whether this process may run a table is its host's to say (``server/hosting.py``): a
table writes with the token its host gave it (:attr:`Table.fence`), and when the store
refuses a write for a newer token the game server drops the table, closing its
connections so that clients reconnect to whoever runs it now.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, deque
from typing import Any, NamedTuple

from twintable.core.errors import RuleError
from twintable.core.game import Game
from twintable.core.plugin import GameEntry
from twintable.core.types import Action, Event
from twintable.server import clock
from twintable.server.automation import STORAGE_RETRY_S, Automation
from twintable.server.chat import TableChat
from twintable.server.errors import LobbyError
from twintable.server.extension import ServerGame
from twintable.server.guards import shares_of
from twintable.server.listing import Listing
from twintable.server.presence import Connection, Presence
from twintable.server.protocol import (
    ErrorMessage,
    ack_frame,
    event_frame,
    shared_keys,
    snapshot_frame,
)
from twintable.server.ratings import Rated, new_ratings
from twintable.server.reactions import BotReactions
from twintable.server.seating import Seating
from twintable.server.storage.models import SeatRow, TableRow
from twintable.server.storage.store import FencedOut, StoredAction
from twintable.server.table_view import ServerView

log = logging.getLogger("twintable.server")

#: How many of each seat's latest acknowledged moves a resend can still find.
ANSWERS_KEPT_PER_SEAT = 64
#: WebSocket close code telling a client its table moved to another worker: reconnect.
MOVED_CLOSE_CODE = 1012
#: How many of the latest moves a client coming back can be told (its hello's ``since``):
#: a drop of a minute at a fast table, a few events each.
RECENT_MOVES = 256


class Told(NamedTuple):
    """One move as it was broadcast: what a client that missed it is told on its return."""

    seq: int
    version: int
    seat: int
    kind: str
    events: list[Event]


class Table:
    """One table: its game state, its log and the move pipeline every change goes
    through; its seats, its people and its automatic moves are parts of their own."""

    def __init__(self, server: ServerView, row: TableRow, seats: list[SeatRow]):
        self.server = server
        self.row = row
        self.id = row.id
        self.entry: GameEntry = server.registry.entry(row.game)
        self.game: Game[Any] = self.entry.rules
        self.seats = seats
        self.state: Any = None
        self.seq = 0
        self.lock = asyncio.Lock()
        # The answers to each seat's latest moves by client id, for resends.
        self.answered: dict[int, OrderedDict[str, str]] = {}
        self.fence: int | None = None
        """The token every write carries, from the table's host (None: one process)."""
        self.recent: deque[Told] = deque(maxlen=RECENT_MOVES)
        """The latest moves, for clients that come back after missing them."""
        self.moves: dict[int, tuple[int, int]] = {}
        """Each seat's moves made by its person (they carry the client's id) and all its
        moves, stand-ins' included: a game is rated for a person who made most of theirs
        (``server/ratings.py``)."""
        self.unsure = False
        """A write failed in a way that may still have committed: read the log back
        before the next move."""
        self.moved = False
        """A write was refused for a newer owner's fencing token: this worker no longer
        runs the table, and nothing more of it is written from here (its bots, timers and
        people get ``table.moved`` until the table is dropped)."""
        self.seating = Seating(self)
        self.presence = Presence(self)
        self.listing = Listing(self)
        self.automation = Automation(self)
        self.chat = TableChat(self)
        self.reactions = BotReactions(self.game, row.seed,
                                      lambda: list(self.automation.bot_seats),
                                      self.chat.post_later,
                                      lambda: self.chat.enabled
                                      and server.settings.bot_reactions)

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def created_by(self) -> str | None:
        """The address that made the table, kept with it (so it still counts toward
        that address's share of unfinished tables after another worker takes it over)."""
        made_by = (self.row.settings or {}).get("created_by")
        return made_by if isinstance(made_by, str) else None

    @property
    def counted_as(self) -> list[str]:
        """The shares of unfinished tables this table counts in: its maker's address
        and, when a checked profile made it, that profile's (``guards.profile_share``)."""
        settings = self.row.settings or {}
        profile = settings.get("created_by_profile")
        return shares_of(self.created_by, profile if isinstance(profile, str) else None)

    async def start(self) -> None:
        async with self.lock:
            self.seating.require_open()
            if any(s.kind == "empty" for s in self.seats):
                raise LobbyError(409, "table.not_full", "every seat needs a player or a bot")
            self.state = self.game.new_state(self.row.options, self.row.players, self.row.seed)
            self.reactions.track(self.state)
            self.row.status = "running"
            await self.server.store.set_status(self.id, "running", fence=self.fence)
            self.announce()
            for connection in self.presence.connections:
                connection.send(self.snapshot(connection.seat))
            self.automation.wake()

    # -- recovery -------------------------------------------------------------------
    def recover(self, actions: list[StoredAction]) -> None:
        """Rebuild the state by replaying the log (engines are deterministic)."""
        self.state = self.game.new_state(self.row.options, self.row.players, self.row.seed)
        self.moves = {}
        self.recent.clear()
        for stored in actions:
            events = self.game.apply(self.state, Action(stored.seat, stored.kind,
                                                        stored.payload, stored.t_ms))
            self.recent.append(Told(stored.seq, self.state.version, stored.seat, stored.kind,
                                    events))
            self._count_move(stored.seat, stored.client_id)
            if stored.client_id:
                self._remember(stored.seat, stored.client_id,
                               ack_frame(stored.client_id, stored.seq, self.state.version))
        self.seq = len(actions)
        self.reactions.track(self.state)

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
            acked = isinstance(answer, str)
            answer_json = answer if isinstance(answer, str) else answer.model_dump_json()
            if client_id is not None and acked:
                self._remember(seat, client_id, answer_json)
        self.server.metrics.observe_action(time.perf_counter() - started, acked)
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
                             not_before_ms: int | None = None) -> str | ErrorMessage:
        """The ack's JSON, or the refusal."""
        def refuse(code: str, message: str, details: dict[str, Any] | None = None
                   ) -> ErrorMessage:
            return ErrorMessage(id=client_id, code=code, message=message, details=details or {})

        if self.moved:
            return refuse("table.moved", "another server runs this table now; reconnect")
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
        received = clock.now_ms() if not_before_ms is None else max(clock.now_ms(), not_before_ms)
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
            self.moved = True
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
        self._count_move(seat, client_id)
        self.presence.turn_since = time.monotonic()
        self._broadcast(seat, kind, events)
        if self.game.is_over(self.state):
            await self.finish()
        else:
            self.reactions.after_move(self.state)
            self.automation.wake()
        return ack_frame(client_id or "", self.seq, self.state.version)

    async def _resync(self) -> None:
        """After a write that may or may not have committed: take the log's word for it
        (replaying it if it holds more moves than we applied) and send everyone a fresh
        snapshot."""
        actions = await self.server.store.load_actions(self.id)
        self.unsure = False
        if len(actions) != self.seq:
            self.recover(actions)
            for connection in self.presence.connections:
                connection.send(self.snapshot(connection.seat))
            log.info("table read back from its log", extra={"table": self.id})
            # The log moved the game on as a committed move does: end it, or plan the
            # next automatic move (the move being made now is refused as stale, and a
            # table of bots has nobody else to wake it).
            if self.game.is_over(self.state):
                await self.finish()
            else:
                self.automation.wake()

    def _broadcast(self, seat: int, kind: str, events: list[Any]) -> None:
        # One frame per distinct view (each seat's, and one that every spectator shares),
        # encoded once; connections are handed the same string. What every view holds
        # alike is encoded once for them all, and each event made JSON once.
        self.recent.append(Told(self.seq, self.state.version, seat, kind, events))
        connections = self.presence.connections
        if not connections:
            return
        shared, own = self.game.views_json(self.state, {c.seat for c in connections})
        shared_json = shared_keys(shared)
        written = [(event, event.to_json()) for event in events]
        frames: dict[int | None, str] = {}
        for connection in connections:
            viewer = connection.seat
            frame = frames.get(viewer)
            if frame is None:
                frame = frames[viewer] = event_frame(
                    self.seq, self.state.version, seat, kind,
                    [data for event, data in written if event.visible_to(viewer)],
                    own[viewer], shared_json)
            connection.send(frame)

    def missed(self, viewer: int | None, since: int) -> list[str]:
        """The moves after version ``since`` as ``viewer`` saw them broadcast (its events,
        marked ``missed``, each with the view of now), oldest first; none when the
        latest moves kept do not reach back that far (the client is told of the gap by
        the snapshot's version)."""
        told = [move for move in self.recent if move.version > since]
        if not told or told[0].version != since + 1:
            return []
        shared, own = self.game.views_json(self.state, {viewer})
        shared_json = shared_keys(shared)
        return [event_frame(move.seq, move.version, move.seat, move.kind,
                            [event.to_json() for event in move.events
                             if event.visible_to(viewer)],
                            own[viewer], shared_json, missed=True)
                for move in told]

    def snapshot(self, viewer: int | None) -> str:
        return snapshot_frame(self.seq, self.state.version,
                              self.game.view(self.state, viewer).to_json())

    def announce(self, skip: Connection | None = None) -> None:
        """Tell everyone at the table, and the lobby, what the table looks like now."""
        info_json = self.listing.info().model_dump_json()
        # TableUpdate's JSON, around the description made once for frames and the lobby.
        frame = f'{{"type":"table","table":{info_json}}}'
        self.listing.publish(info_json)
        for connection in self.presence.connections:
            if connection is not skip:
                connection.send(frame)

    async def finish(self) -> None:
        outcome = self.game.outcome(self.state)
        assert outcome is not None
        result = outcome.to_json() | {"names": [s.display_name or s.bot for s in self.seats]}
        conceded = self.seating.conceded
        if conceded:
            result["conceded"] = sorted(conceded)
        try:
            rated = await new_ratings(self.server.store, self.game.id, self.seats, outcome,
                                      self.moves, conceded)
        except Exception:  # ratings are a bonus: they must never keep a game from ending
            log.exception("could not update ratings", extra={"table": self.id})
            rated = Rated()
        try:
            await self.server.store.finish(self.id, result, rated.ratings, self.fence,
                                           rated.met)
        except FencedOut:
            self.moved = True
            self.server.lose_later(self.id)
            return
        except Exception:
            # The last move is logged, so the game is over whatever happens; only its
            # end is not written yet: try again until the database answers.
            log.warning("could not mark the game finished; trying again",
                        extra={"table": self.id}, exc_info=True)
            # As the table's automatic task: stopping the table stops it too.
            self.automation.task = asyncio.get_running_loop().create_task(
                self._finish_again())
            return
        self.row.status, self.row.result = "finished", result
        round_records = self.entry.extension(ServerGame).round_records
        if round_records is not None:
            self.server.records.setdefault(self.game.id, []).extend(round_records(self.state))
        self.announce()
        self.reactions.at_end(outcome.winners)
        log.info("table finished", extra={"table": self.id, "result": result})
        self.server.retire_later(self.id)

    async def _finish_again(self) -> None:
        await asyncio.sleep(STORAGE_RETRY_S)
        async with self.lock:
            if self.row.status == "running" and self.server.tables.get(self.id) is self:
                await self.finish()

    def _count_move(self, seat: int, client_id: str | None) -> None:
        own, total = self.moves.get(seat, (0, 0))
        self.moves[seat] = (own + (client_id is not None), total + 1)

    async def halt(self) -> None:
        """Play no more here (a drain hands the table to another worker): its bots and
        timers stop, a move being written finishes, and every later one is refused
        ``table.moved`` while its clients are sent on."""
        await self.automation.stop()
        async with self.lock:
            self.moved = True

    async def stop(self, code: int = 1001) -> None:
        """Stop playing and close every connection with ``code`` (1001: the server is
        going away; MOVED_CLOSE_CODE: the table moved, reconnect)."""
        await self.automation.stop()
        await self.chat.settle()
        async with self.lock:  # waits for an append in flight to finish
            await self.presence.close_all(code)

