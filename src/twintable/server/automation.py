"""Automation: the moves nobody types at a table (its bots', its stand-ins', its timers').

One task per table asks what happens next and sleeps until it is due; any change at the
table (a move, a seat, someone coming back) cancels it and asks again
(:meth:`Automation.wake`). What happens next (which bot acts and when, the race between
bots, a timer firing, a stand-in taking over) is the table engine's decision,
``core/table_engine.py``: :func:`table_players` and :func:`next_step`, as the simulator,
the guided walk, the conformance checks and the environments step it. This module only
feeds it (the seats' bots and stand-ins, the clocks) and carries its steps out: the
worker threads bots think in, the sleeps, the submits and the retries after a refusal.
Every automatic move goes through the table's own move pipeline (:meth:`Table.submit`),
like a person's.
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
from twintable.core.table_engine import (
    EventKind,
    Plan,
    Players,
    Step,
    TableStuck,
    asked_seats,
    next_step,
    table_players,
)
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
        real time, a deadline, or a stand-in for a seat asked (now or later). A table of
        people with no clock, all here, has none, and planning for it would cost a task a
        move for nothing (issue 28's hot path); this is the case in which
        :meth:`decide` finds nothing to do."""
        table = self.table
        game = table.game
        if self.bot_seats or game.realtime or game.deadline(table.state) is not None:
            return True
        presence = table.presence
        return any(presence.stand_in_from(seat) is not None
                   for seat in asked_seats(game, table.state, len(table.seats)))

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

    async def _automatic_move(self) -> None:
        """Carry out the table engine's steps until one is a move (whose submit plans the
        next one) or a person is waited for."""
        table = self.table
        # Every bot of the table is made at its first plan, not at its first turn: a
        # model loaded mid-game would hold up that turn.
        await self._players_ready(list(self.bot_seats))
        while True:
            try:
                state, step = await self.decide()
            except TableStuck:  # a deadline passed, and the game has no action for it
                log.warning("timer action refused", extra={"table": table.id})
                await asyncio.sleep(self._retry_pause())
                continue
            if step is None:
                return
            await asyncio.sleep(max(0.0, (step.at_ms - clock.now_ms()) / 1000))
            if step.kind is EventKind.WAKE:
                continue  # a stand-in starts now: ask again with it
            assert step.action is not None
            timer = step.kind is EventKind.TIMER
            # A timer is stamped no earlier than its deadline (Table.submit says why).
            await self._submit(step.seat, step.action, state.version,
                               not_before_ms=step.at_ms if timer else None)
            if table.state is not state:
                return
            # Refused (the table changed under the bot, or the database failed to save
            # the move): nothing else would wake the table, so look again shortly.
            if timer:
                log.warning("timer action refused", extra={"table": table.id})
            else:
                log.info("bot move refused", extra={"table": table.id, "seat": step.seat})
            await asyncio.sleep(self._retry_pause())

    async def decide(self) -> tuple[Any, Step | None]:
        """The table's state and what happens next at it (None: a person is waited for),
        as the table engine decides it (:func:`next_step`) from the plans of the bots and
        stand-ins playing the seats it asks, the game's timer and the moment a stand-in
        takes over. The bots think in a worker thread, and a timer never waits for them
        (a word bot's first thought loads its data): at its deadline the table takes the
        step it would take without their plans."""
        table = self.table
        game = table.game
        seats = len(table.seats)
        while True:
            mono = time.monotonic()
            state = table.state
            asked = asked_seats(game, state, seats)
            automatic = [seat for seat in asked
                         if seat in self.bot_seats or table.presence.stands_in(seat, mono)]
            if not self._missing(automatic):
                break
            await self._players_ready(automatic)  # then look again: time passed
        now = clock.now_ms()
        later = [t for t in map(table.presence.stand_in_from, asked)
                 if t is not None and t > mono]
        # Stand-ins count on the monotonic clock, the game's timers on the wall's.
        wake = now + (min(later) - mono) * 1000 if later else None
        settings = table.server.settings
        # The default thinking delay is a person's pace; tests make it 0 (instant bots).
        pace = (settings.realtime_bot_pace if game.realtime
                else settings.bot_delay_ms / PEOPLE_PACE_BOT_DELAY_MS)
        players = table_players(
            game, [_Seat(self, seat) if seat in automatic else None for seat in range(seats)],
            self.rng, _plan_move, people_pace=table.entry.pacing is Pacing.PEOPLE,
            think_ms=settings.bot_delay_ms, pace=pace)
        thinking = asyncio.ensure_future(
            asyncio.to_thread(self._think_and_step, players, state, now, wake))
        timer = next_step(game, state, now, ())  # the game's own timer, if it is set
        limit = None if timer is None else max(0.0, (timer.at_ms - clock.now_ms()) / 1000)
        done, _ = await asyncio.wait({thinking}, timeout=limit)
        if done:
            return state, thinking.result()
        # The thought goes on without us; what it ends in (a game's error too) is dropped.
        thinking.add_done_callback(lambda thought: thought.cancelled() or thought.exception())
        return state, next_step(game, state, now, (), wake)

    def _think_and_step(self, players: Players, state: Any, now: int,
                        wake: float | None) -> Step | None:
        """:func:`next_step` with the bots' plans, read in a worker thread: a word bot
        thinking for a moment must not hold up a person's move (it would be stamped
        late). One thinks at a time: a re-plan waits for the thought it cancelled."""
        game = self.table.game
        with self.planning:
            # Seat 0 is asked first every time (step 0): a tie goes to the lower seat.
            if game.realtime:
                # Bots time themselves from the last change on the table.
                plans = players.plans(state, state.clock, 0, frozenset())
            else:
                # Turn by turn, a bot's delay starts once it has chosen.
                plans = (None if plan is None else
                         Plan(plan.at_ms + clock.now_ms(), plan.seat, plan.action)
                         for plan in players.plans(state, 0, 0, frozenset()))
            return next_step(game, state, now, plans, wake)


class _Seat:
    """A seat's bot or stand-in as the table engine asks it (:class:`TakeTurns` and
    :class:`Race`), in a worker thread: a bug in it is logged and the random bot answers
    instead (:meth:`Automation._think`)."""

    __slots__ = ("automation", "bot", "seat")

    def __init__(self, automation: Automation, seat: int):
        self.automation = automation
        self.seat = seat
        self.bot = automation._player(seat)

    def act(self, view: Any, rng: random.Random) -> Any:
        return self.automation._think(self.seat, self.bot,
                                      lambda bot, view: bot.act(view, rng), view)

    def plan(self, view: Any, rng: random.Random, now: int) -> Any:
        entry = self.automation.table.entry
        return self.automation._think(self.seat, self.bot,
                                      lambda bot, view: entry.plan(bot, view, rng, now), view)


def _plan_move(seat: _Seat, view: Any, rng: random.Random, now: int) -> Any:
    """The game's timing of a seat's move (:meth:`GameEntry.plan`), as a race asks it."""
    return seat.plan(view, rng, now)
