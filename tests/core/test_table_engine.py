"""The table engine decides what a table does next the same way for every shell: a timer
that has run out fires first, at its deadline; otherwise the earliest of the bots' plans,
the deadline and a wake; nothing when a person is awaited. Played on a virtual clock it
is deterministic, and its fast loop for turns without timers plays the same moves as its
general one."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twintable.bots.base import Bot
from twintable.core.errors import RuleError
from twintable.core.game import Game, Outcome
from twintable.core.gametype import Dynamics, GameType, Information
from twintable.core.options import OptionSchema
from twintable.core.registry import default_registry
from twintable.core.schedule import EventKind, Plan
from twintable.core.table_engine import (
    Race,
    Step,
    TableEngine,
    TableStuck,
    TakeTurns,
    asked_seats,
    next_step,
    run_timers,
    table_players,
)
from twintable.core.types import SYSTEM_SEAT, TICK, Action, Event
from twintable.sim.extension import simulation_engine
from twintable.sim.runner import make_bots

#: How long a seat has to pass before the timer skips it.
TURN_MS = 500


@dataclass
class RelayState:
    """A relay: seats pass a baton in turn; a seat that takes too long is skipped."""

    players: int
    goal: int
    timed: bool = True
    turn: int = 0
    passes: int = 0
    skips: list[int] = field(default_factory=list)
    deadline: int | None = TURN_MS
    version: int = 0

    def clone(self) -> RelayState:
        return RelayState(self.players, self.goal, self.timed, self.turn, self.passes,
                          list(self.skips), self.deadline, self.version)


class Relay(Game[RelayState]):
    """A small turn-based game with a timer on every turn (no built-in game has one)."""

    id = "relay"
    name = "Relay"
    min_players = 1
    max_players = 6
    options_schema = OptionSchema([])
    game_type: ClassVar[GameType] = GameType(Dynamics.TURN_BASED, Information.PERFECT,
                                             chance=False)

    def new_state(self, options: Mapping[str, Any] | None, players: int,
                  seed: int) -> RelayState:
        timed = bool((options or {}).get("timed", True))
        return RelayState(players, goal=int((options or {}).get("goal", 6)), timed=timed,
                          deadline=TURN_MS if timed else None)

    def to_act(self, state: RelayState) -> frozenset[int]:
        return frozenset() if self.is_over(state) else frozenset({state.turn})

    def legal_actions(self, state: RelayState, seat: int) -> list[Action]:
        return [Action(seat, "pass")] if seat in self.to_act(state) else []

    def apply(self, state: RelayState, action: Action) -> list[Event]:
        if self.is_over(state):
            raise RuleError("game.over", "the game is over")
        if action.kind == TICK:
            if state.deadline is None or action.t_ms < state.deadline:
                raise RuleError("tick.early", "no timer has run out yet")
            state.skips.append(state.turn)
        elif action.kind != "pass" or action.seat != state.turn:
            raise RuleError("turn.not_yours", "it is not your turn")
        else:
            state.passes += 1
        state.turn = (state.turn + 1) % state.players
        if state.timed:
            state.deadline = action.t_ms + TURN_MS
        state.version += 1
        return [Event(action.kind, {"seat": action.seat, "t": action.t_ms})]

    def deadline(self, state: RelayState) -> int | None:
        return None if self.is_over(state) or not state.timed else state.deadline

    def timeout_action(self, state: RelayState, now_ms: int) -> Action | None:
        return self.tick_when_due(state, now_ms)

    def view(self, state: RelayState, viewer: int | None) -> Any:
        return (viewer, state.turn, state.passes)

    def is_over(self, state: RelayState) -> bool:
        return state.passes + len(state.skips) >= state.goal

    def outcome(self, state: RelayState) -> Outcome | None:
        return Outcome(tuple(0 for _ in range(state.players)),
                       frozenset(range(state.players))) if self.is_over(state) else None

    def snapshot(self, state: RelayState) -> dict[str, Any]:
        return {"turn": state.turn, "passes": state.passes, "skips": state.skips}


class Runner(Bot):
    """Passes on its turn."""

    name = "runner"

    def act(self, view: Any, rng: random.Random) -> Action | None:
        return Action(view[0], "pass")


class Sleeper(Bot):
    """Never acts: its turns run out."""

    name = "sleeper"

    def act(self, view: Any, rng: random.Random) -> Action | None:
        return None


RELAY = Relay()


def unread() -> Iterator[Plan]:
    raise AssertionError("a timer that has run out fires before any bot is asked")
    yield  # a generator: reading it fails, making it does not


def test_a_timer_that_has_run_out_fires_at_its_deadline_before_any_bot_is_asked() -> None:
    state = RELAY.new_state(None, 2, 0)
    assert next_step(RELAY, state, 800, unread()) == Step(
        EventKind.TIMER, TURN_MS, SYSTEM_SEAT, Action(SYSTEM_SEAT, TICK, {}, TURN_MS))


@pytest.mark.parametrize(("now", "plans", "wake", "expected"), [
    # A bot acting before the deadline moves, stamped with its moment.
    (0, [Plan(200, 1, Action(1, "pass"))], None,
     Step(EventKind.BOT, 200, 1, Action(1, "pass", {}, 200))),
    # A move planned at the deadline is too late: the timer fires.
    (0, [Plan(TURN_MS, 0, Action(0, "pass"))], None,
     Step(EventKind.TIMER, TURN_MS, SYSTEM_SEAT, Action(SYSTEM_SEAT, TICK, {}, TURN_MS))),
    # Nobody plans: the timer fires at its deadline.
    (100, [None], None,
     Step(EventKind.TIMER, TURN_MS, SYSTEM_SEAT, Action(SYSTEM_SEAT, TICK, {}, TURN_MS))),
    # A wake before everything else: plan again then.
    (0, [Plan(400, 0, Action(0, "pass"))], 300, Step(EventKind.WAKE, 300, SYSTEM_SEAT, None)),
])
def test_the_next_step_is_the_earliest_of_plans_deadline_and_wake(
        now: int, plans: list[Plan | None], wake: int | None, expected: Step) -> None:
    assert next_step(RELAY, RELAY.new_state(None, 2, 0), now, plans, wake) == expected


def test_a_person_to_act_without_a_timer_is_waited_for() -> None:
    state = RELAY.new_state({"timed": False}, 2, 0)
    assert next_step(RELAY, state, 0, [None]) is None
    table = TableEngine(RELAY, state, TakeTurns(RELAY, [Sleeper(), Runner()],
                                                random.Random(0)))
    assert table.next() is None
    with pytest.raises(TableStuck, match="no bot acted"):
        table.step()
    assert state.version == 0 and table.moves == 0


def test_bots_move_a_step_apart_and_a_sleeping_seat_is_skipped_at_its_deadline() -> None:
    state = RELAY.new_state({"goal": 6}, 2, 0)
    table = TableEngine(RELAY, state, TakeTurns(RELAY, [Runner(), Sleeper()],
                                                random.Random(0)),
                        gap_ms=100, record=True)
    table.run(100)
    # Seat 0 passes at once (the move takes 100 ms); seat 1 sleeps, so its timer fires
    # at its deadline, 500 ms after the pass, and the table looks again 100 ms later.
    assert table.actions == [
        Action(0, "pass", {}, 0), Action(SYSTEM_SEAT, TICK, {}, 500),
        Action(0, "pass", {}, 600), Action(SYSTEM_SEAT, TICK, {}, 1100),
        Action(0, "pass", {}, 1200), Action(SYSTEM_SEAT, TICK, {}, 1700),
    ]
    assert state.skips == [1, 1, 1] and table.moves == 6 and table.now_ms == 1800


def test_a_timer_already_run_out_when_the_table_looks_takes_no_time() -> None:
    state = RELAY.new_state({"goal": 2}, 1, 0)
    table = TableEngine(RELAY, state, TakeTurns(RELAY, [Runner()], random.Random(0)),
                        now_ms=900, record=True)
    table.run(10)
    assert table.actions == [Action(SYSTEM_SEAT, TICK, {}, TURN_MS), Action(0, "pass", {}, 900)]


def test_timers_fire_in_order_each_at_its_deadline() -> None:
    state = RELAY.new_state({"goal": 10}, 3, 0)
    assert run_timers(RELAY, state, 1_600) == 3
    # Each skip set the next deadline from its own: 500, 1000, 1500 (2000 is still to come).
    assert state.skips == [0, 1, 2] and state.deadline == 2_000
    assert run_timers(RELAY, state, 1_999) == 0


def test_a_refused_race_move_sits_out_until_the_table_changes() -> None:
    class Eager(Bot):
        """Plans to pass at once whether or not it is its turn."""

        name = "eager"

        def act(self, view: Any, rng: random.Random) -> Action | None:
            return Action(view[0], "pass")

        def plan(self, view: Any, rng: random.Random) -> tuple[int, Action]:
            return (10 * (view[0] + 1), Action(view[0], "pass"))

    def plan_move(bot: Any, view: Any, rng: random.Random, now: int) -> tuple[int, Action]:
        planned: tuple[int, Action] = bot.plan(view, rng)
        return planned

    state = RELAY.new_state({"timed": False, "goal": 3}, 2, 0)
    state.turn = 1  # seat 0 plans earliest, but it is seat 1's turn
    table = TableEngine(RELAY, state, Race(RELAY, [Eager(), Eager()], plan_move,
                                           random.Random(0)),
                        sit_out_refused=True, record=True)
    assert table.step() is False and table.refused == {0}
    assert table.step() is True  # seat 1 moves; the change lets seat 0 plan again
    assert table.actions == [Action(1, "pass", {}, 20)]
    table.run(10)
    assert state.passes == 3 and table.moves == 3


def test_a_table_of_people_and_bots_asks_only_its_bots_and_times_them() -> None:
    """The players of a server's table (``table_players``): a seat a person plays (None)
    is never asked and the table waits for the person; turn by turn a bot moves the
    thinking delay after now; bots paced like people race among the seats to act only,
    each plan stretched from now by the pace."""
    asked: list[int] = []

    def plan_move(bot: Any, view: Any, rng: random.Random, now: int) -> tuple[int, Action]:
        asked.append(view[0])
        return now + 100 * (view[0] + 1), Action(view[0], "pass")

    state = RELAY.new_state({"timed": False}, 3, 0)
    turns = table_players(RELAY, [None, Runner(), Runner()], random.Random(0), plan_move,
                          think_ms=700)
    assert isinstance(turns, TakeTurns)
    assert next_step(RELAY, state, 1000, turns.plans(state, 1000, 0, set())) is None
    state.turn = 2
    assert next_step(RELAY, state, 1000, turns.plans(state, 1000, 0, set())) == Step(
        EventKind.BOT, 1700, 2, Action(2, "pass", {}, 1700))

    race = table_players(RELAY, [None, Runner(), Runner()], random.Random(0), plan_move,
                         people_pace=True, pace=0.5)
    assert isinstance(race, Race)
    assert list(race.plans(state, 1000, 0, set())) == [Plan(1150, 2, Action(2, "pass"))]
    assert asked == [2] and asked_seats(RELAY, state, 3) == [2]
    state.turn = 0  # the person's turn: no bot races
    assert list(race.plans(state, 1000, 0, set())) == [] and asked == [2]


class Dawdler(Bot):
    """Passes or lets its turn run out, at random."""

    name = "dawdler"

    def act(self, view: Any, rng: random.Random) -> Action | None:
        return Action(view[0], "pass") if rng.random() < 0.5 else None


def relay_game(seed: int, players: int, gap: int) -> TableEngine:
    state = RELAY.new_state({"goal": 12}, players, seed)
    table = TableEngine(RELAY, state, TakeTurns(RELAY, [Dawdler() for _ in range(players)],
                                                random.Random(seed)),
                        gap_ms=gap, record=True)
    table.run(1_000)
    return table


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 5), st.integers(0, 700))
def test_the_same_seed_plays_the_same_table_and_time_only_moves_on(
        seed: int, players: int, gap: int) -> None:
    first, again = relay_game(seed, players, gap), relay_game(seed, players, gap)
    assert first.actions == again.actions and first.now_ms == again.now_ms
    assert first.actions is not None
    times = [action.t_ms for action in first.actions]
    assert times == sorted(times)
    # A tick is stamped with the deadline it fires at: the turn's start plus its time.
    for before, action in zip([None, *first.actions], first.actions, strict=False):
        if action.kind == TICK:
            start = 0 if before is None else before.t_ms
            assert action.t_ms == start + TURN_MS


@pytest.mark.parametrize("game_id", ["timo", "twins", "pebbles"])
def test_the_fast_loop_plays_the_moves_of_the_general_one(game_id: str) -> None:
    entry = default_registry().entry(game_id)
    game = simulation_engine(entry)
    tables = []
    for fast in (True, False):
        state = game.new_state(None, 3, 7)
        table = TableEngine(game, state, TakeTurns(game, make_bots(entry, ["random"] * 3),
                                                   random.Random(7)),
                            gap_ms=1000, record=True)
        if fast:
            table.run(100_000)
        else:
            while not table.over:
                table.step()
        tables.append(table)
    fast_table, general = tables
    assert fast_table.actions == general.actions and fast_table.actions
    assert fast_table.moves == general.moves and fast_table.now_ms == general.now_ms
