"""Automation: the moves nobody types at a table (its bots', its stand-ins', its timers').

One task per table plans the next automatic move and sleeps until it is due; any change
at the table (a move, a seat, someone coming back) cancels it and plans again
(:meth:`Automation.wake`). What comes first (a bot's plan, the game's deadline, a
stand-in taking over) is decided by the pure scheduler, ``core/schedule.py``, the one
the simulator and the environments use too; this module adds the clocks, the sleeps and
the worker threads bots think in. Every automatic move goes through the table's own
move pipeline (:meth:`Table.submit`), like a person's.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from twintable.bots.registry import bot_factories, bot_factory, default_bot
from twintable.core.plugin import Pacing
from twintable.core.schedule import EventKind, Plan, earliest, next_event
from twintable.core.types import SYSTEM_SEAT
from twintable.server import clock
from twintable.server.stopping import cancel_within
from twintable.server.table_view import TableView

log = logging.getLogger("twintable.server")

T = TypeVar("T")

#: Pause before looking again at a table whose automatic move the game refused.
REFUSED_RETRY_S = 0.05
#: Pause before an automatic move tries again after the database failed to save one.
STORAGE_RETRY_S = 0.5
#: Longest a stopping table waits for its planned move to give way.
STOP_WITHIN_S = 2.0
#: The default ``Settings.bot_delay_ms``: at it, games that pace their bots like people
#: use their bots' own human timings; at 0 (tests) their bots are instant too.
PEOPLE_PACE_BOT_DELAY_MS = 700


class Automation:
    """One table's bots and stand-ins, and the task that plays their moves and its timers."""

    def __init__(self, table: TableView):
        self.table = table
        self.bot_seats: dict[int, str] = {}
        """The seats that bots hold, and each one's bot name, as seated now."""
        self.bots: dict[int, Any] = {}
        """The bots made for those seats so far (:meth:`_players_ready` makes the rest)."""
        self.stand_ins: dict[int, Any] = {}
        self.making: asyncio.Future[list[tuple[int, str | None, Any]]] | None = None
        """Bots being made in a worker thread: (seat, bot name or None for a stand-in,
        bot)."""
        self.rng = random.Random(table.row.seed ^ 0x7AB1E)
        self.task: asyncio.Task[None] | None = None
        self.stopped = False
        """The table stopped here (the server shuts down, or another worker runs it now):
        nothing wakes its bots and timers again (a connection closing makes a stand-in,
        which would)."""
        # Real-time bots plan in a worker thread, one planning at a time: a re-plan that
        # cancels the task waits for the thread still thinking (bots keep what they drew).
        self.planning = threading.Lock()
        self.load_bots()

    # -- the bots ---------------------------------------------------------------------
    def load_bots(self) -> None:
        """Take the seats' bots as they are now; the bots themselves are made when first
        needed, off the event loop (:meth:`_players_ready`)."""
        self.bot_seats = {s.seat: s.bot for s in self.table.seats
                          if s.kind == "bot" and s.bot is not None}
        self.bots = {}

    def make_bot(self, factory: Any) -> Any:
        """A bot; one that learns from people gets every round finished on this server."""
        try:
            learns = "records" in inspect.signature(factory).parameters
        except (TypeError, ValueError):
            learns = False
        if learns:
            return factory(records=self.table.server.records.get(self.table.game.id, []))
        return factory()

    def _missing(self, seats: list[int]) -> list[tuple[int, str | None]]:
        """Of ``seats`` (bots' or stand-ins'), those whose player is not made yet."""
        return [(seat, self.bot_seats.get(seat)) for seat in seats
                if seat not in self.bots
                and (seat in self.bot_seats or seat not in self.stand_ins)]

    async def _players_ready(self, seats: list[int]) -> None:
        """Make the players ``seats`` need, in a worker thread: a bot may take a second
        to make (Twinz's word bots load a language model and warm it up), and made on
        the event loop it froze every table of the server meanwhile. A making that a
        re-plan interrupts goes on, and the next plan takes what it made."""
        while True:
            if self.making is not None and self.making.done():
                making, self.making = self.making, None
                for seat, name, bot in making.result():
                    if name is None:
                        self.stand_ins.setdefault(seat, bot)
                    elif self.bot_seats.get(seat) == name:  # still the seat's bot
                        self.bots.setdefault(seat, bot)
            missing = self._missing(seats)
            if not missing:
                return
            if self.making is None:
                self.making = asyncio.ensure_future(asyncio.to_thread(self._make, missing))
            await asyncio.wait((self.making,))  # a cancelled plan leaves it running

    def _make(self, missing: list[tuple[int, str | None]]) -> list[tuple[int, str | None, Any]]:
        entry = self.table.entry
        factories = bot_factories(entry)
        made = []
        for seat, name in missing:
            wanted = default_bot(entry) if name is None else name
            try:
                # A seat's bot may carry a noise (``heuristic@0.2``): bot_factory reads it.
                bot = self.make_bot(factories[wanted] if wanted in factories
                                    else bot_factory(entry, wanted))
            except Exception:  # a bot that cannot be made must not stop the table
                log.exception("bot could not be made; the random bot plays the seat",
                              extra={"table": self.table.id, "seat": seat})
                bot = self.make_bot(factories["random"])
            made.append((seat, name, bot))
        return made

    def _player(self, seat: int) -> Any:
        """The made bot or stand-in of ``seat`` (see :meth:`_players_ready`)."""
        return self.bots.get(seat) or self.stand_ins[seat]

    def _think(self, seat: int, bot: Any, decide: Callable[[Any, Any], T], view: Any) -> T:
        """``decide(bot, view)``; if the bot raises, the error is logged and the random bot
        decides instead: a bot's bug must not stop the table."""
        try:
            return decide(bot, view)
        except Exception:
            log.exception("bot failed; the random bot moves for it",
                          extra={"table": self.table.id, "seat": seat})
            return decide(self.make_bot(bot_factories(self.table.entry)["random"]), view)

    # -- the task ---------------------------------------------------------------------
    def wake(self) -> None:
        """(Re)plan the table's next automatic move: a bot's, or a timer's."""
        table = self.table
        current = asyncio.current_task()
        if self.task is not None and self.task is not current and not self.task.done():
            self.task.cancel()
        if self.stopped:
            return
        if table.row.status == "running" and not table.game.is_over(table.state) \
                and self._may_act():
            self.task = asyncio.create_task(self._automatic_move())

    def _may_act(self) -> bool:
        """Whether anything automatic can happen at the table as it is: a bot, a game in
        real time, a deadline, or a stand-in for a seat to act (now or later). A table of
        people with no clock, all here, has none, and planning for it would cost a task a
        move for nothing (issue 28's hot path); this is the case in which
        :meth:`_automatic_move` returns at once."""
        table = self.table
        game = table.game
        if self.bot_seats or game.realtime or game.deadline(table.state) is not None:
            return True
        presence = table.presence
        return any(presence.stand_in_from(seat) is not None for seat in game.to_act(table.state))

    async def stop(self) -> None:
        self.stopped = True
        if self.task is not None:
            # A move being written is shielded from this: the table's lock waits for it.
            await cancel_within([self.task], STOP_WITHIN_S, "table automation")

    def _retry_pause(self) -> float:
        return STORAGE_RETRY_S if self.table.unsure else REFUSED_RETRY_S

    async def _submit(self, seat: int, action: Any, version: int,
                      not_before_ms: int | None = None) -> None:
        # Shielded: a re-plan may cancel this task while it thinks or sleeps, never in
        # the middle of writing the log.
        await asyncio.shield(self.table.submit(seat, action.kind, dict(action.payload), None,
                                               version, not_before_ms=not_before_ms))

    async def _fire_timer(self, state: Any, deadline: int) -> None:
        timeout = self.table.game.timeout_action(state, max(clock.now_ms(), deadline))
        if timeout is not None:
            await self._submit(SYSTEM_SEAT, timeout, state.version, not_before_ms=deadline)

    async def _automatic_move(self) -> None:
        table = self.table
        game = table.game
        # Every bot of the table is made at its first plan, not at its first turn: a
        # model loaded mid-game would hold up that turn.
        await self._players_ready(list(self.bot_seats))
        if game.realtime:
            await self._realtime_move()
            return
        # Every path ends in a move (whose submit plans the next one) or a wait for a
        # person; a move the game refused is looked at again, since nothing else would
        # wake the table.
        while True:
            state = table.state
            acting = sorted(game.to_act(state))
            now = time.monotonic()
            automatic = [s for s in acting
                         if s in self.bot_seats or table.presence.stands_in(s, now)]
            if self._missing(automatic):
                await self._players_ready(automatic)
                continue  # look again: time passed
            refused = False
            if automatic and table.entry.pacing is Pacing.PEOPLE:
                moved = await self._paced_move(state, automatic)
                if moved:
                    return
                refused = moved is False
            elif automatic:
                await asyncio.sleep(table.server.settings.bot_delay_ms / 1000)
                moved = await self._bot_move(state, automatic)
                if moved:
                    return
                refused = moved is False
            deadline = game.deadline(state)
            if refused and (deadline is None or deadline > clock.now_ms()):
                # A timer that has run out fires first (below); otherwise try again.
                await asyncio.sleep(self._retry_pause())
                continue
            later = [t for t in map(table.presence.stand_in_from, acting)
                     if t is not None and t > now]
            # Stand-ins count on the monotonic clock, the game's deadline on the wall's.
            wake = time.time() * 1000 + (min(later) - now) * 1000 if later else None
            event = next_event((), deadline, wake)
            if event is None:
                return
            if event.kind is EventKind.TIMER and deadline is not None:
                await asyncio.sleep(max(0.0, (deadline - clock.now_ms()) / 1000))
                await self._fire_timer(state, deadline)
                if table.state is not state:
                    return
                log.warning("timer action refused", extra={"table": table.id})
                await asyncio.sleep(self._retry_pause())
                continue
            await asyncio.sleep(min(later) - now)

    async def _bot_move(self, state: Any, seats: list[int]) -> bool | None:
        """The first of ``seats`` (in a random order) whose bot wants to act does: True if
        the table took the move, False if it refused it, None if no bot wanted to act."""
        table = self.table
        self.rng.shuffle(seats)
        for seat in seats:
            bot = self._player(seat)
            view = table.game.view(state, seat)
            action = await asyncio.to_thread(
                self._think, seat, bot, lambda bot, view: bot.act(view, self.rng), view)
            if action is not None:
                await self._submit(seat, action, state.version)
                if table.state is state:
                    log.info("bot move refused", extra={"table": table.id, "seat": seat})
                    return False
                return True
        return None

    async def _paced_move(self, state: Any, seats: list[int]) -> bool | None:
        """A game that times its bots like people (Timo's TIMO! races): every bot seat
        says when it would act; the first does then, unless a move comes before (which
        plans again). True/False/None as :meth:`_bot_move`."""
        table = self.table
        # The default thinking delay is a person's pace; tests make it 0 (instant bots).
        pace = table.server.settings.bot_delay_ms / PEOPLE_PACE_BOT_DELAY_MS
        plans = []
        for seat in seats:
            view = table.game.view(state, seat)
            moment = await asyncio.to_thread(
                self._think, seat, self._player(seat),
                lambda bot, view: table.entry.plan(bot, view, self.rng, 0), view)
            if moment is not None:
                plans.append(Plan(moment[0], seat, moment[1]))
        first = earliest(plans)  # seats come in order: a tie goes to the lower seat
        if first is None:
            return None
        await asyncio.sleep(first.at_ms * pace / 1000)
        await self._submit(first.seat, first.action, state.version)
        if table.state is state:
            log.info("bot move refused", extra={"table": table.id, "seat": first.seat})
            return False
        return True

    async def _realtime_move(self) -> None:
        """Real-time games: every bot says when it would act; the earliest of those, the
        game's own deadline and a stand-in taking over happens next (then we plan again)."""
        table = self.table
        game = table.game
        seats = len(table.seats)
        while True:
            mono = time.monotonic()
            automatic = [seat for seat in range(seats)
                         if seat in self.bot_seats or table.presence.stands_in(seat, mono)]
            if not self._missing(automatic):
                break
            await self._players_ready(automatic)
        state = table.state
        wall = clock.now_ms()
        pace = table.server.settings.realtime_bot_pace
        bots = [(seat, self._player(seat)) for seat in automatic]

        def plan_all() -> list[tuple[int, Any]]:
            # Off the event loop: a word bot thinking for a moment must not hold up a
            # person's move (it would be stamped late).
            with self.planning:
                return [(seat, self._think(
                    seat, bot, lambda bot, view: table.entry.plan(bot, view, self.rng, state.clock),
                    game.view(state, seat))) for seat, bot in bots]

        deadline = game.deadline(state)
        thinking = asyncio.ensure_future(asyncio.to_thread(plan_all))
        # A timer never waits for a bot still thinking (a word bot's first thought loads
        # its data): at the deadline the table fires it, and plans again after.
        limit = None if deadline is None else max(0.0, (deadline - clock.now_ms()) / 1000)
        done, _ = await asyncio.wait({thinking}, timeout=limit)
        # Bots time themselves from the last change on the table.
        plans = [Plan(state.clock + (planned[0] - state.clock) * pace, seat, planned[1])
                 for seat, planned in (thinking.result() if done else [])
                 if planned is not None]
        later = [t for t in map(table.presence.stand_in_from, range(seats))
                 if t is not None and t > mono]
        wake = wall + (min(later) - mono) * 1000 if later else None
        event = next_event(plans, deadline, wake)
        if event is None:
            return
        await asyncio.sleep(max(0.0, (event.at_ms - clock.now_ms()) / 1000))
        if event.kind is EventKind.WAKE:
            self.wake()  # a stand-in starts now: plan again with it
            return
        if event.kind is EventKind.TIMER and deadline is not None:
            await self._fire_timer(state, deadline)
        elif event.plan is not None:
            await self._submit(event.plan.seat, event.plan.action, state.version)
        if table.state is state:
            # Refused (the table changed under the bot): look again shortly.
            await asyncio.sleep(self._retry_pause())
            self.wake()
