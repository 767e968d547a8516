"""The scheduler decides what happens next the same way for the server, the simulator
and the environments: the earliest plan, the timer before a bot on a tie, a bot before a
wake on a tie, nothing when nothing is planned."""

from __future__ import annotations

import pytest

from twintable.core.schedule import Event, EventKind, Plan, earliest, next_event
from twintable.core.types import Action


def plan(at_ms: float, seat: int) -> Plan:
    return Plan(at_ms, seat, Action(seat, "play", {"card": seat}))


def test_the_earliest_plan_acts_and_a_tie_goes_to_the_first_offered() -> None:
    assert earliest([plan(300, 0), plan(100, 1), plan(200, 2)]) == plan(100, 1)
    assert earliest([plan(100, 2), plan(100, 0)]) == plan(100, 2)
    assert earliest([None, plan(50, 3), None]) == plan(50, 3)
    assert earliest([None, None]) is None
    assert earliest([]) is None


@pytest.mark.parametrize(("plans", "deadline", "wake", "expected"), [
    # Only one thing is scheduled: it happens.
    ([plan(100, 0)], None, None, Event(EventKind.BOT, 100, plan(100, 0))),
    ([], 500, None, Event(EventKind.TIMER, 500)),
    ([], None, 700, Event(EventKind.WAKE, 700)),
    # The earliest of all happens.
    ([plan(100, 0)], 500, 700, Event(EventKind.BOT, 100, plan(100, 0))),
    ([plan(600, 0)], 500, 700, Event(EventKind.TIMER, 500)),
    ([plan(800, 0)], 900, 700, Event(EventKind.WAKE, 700)),
    ([plan(300, 1), plan(200, 0)], 500, None, Event(EventKind.BOT, 200, plan(200, 0))),
    # Ties: a move at the deadline is too late; a wake only plans again.
    ([plan(500, 0)], 500, None, Event(EventKind.TIMER, 500)),
    ([], 500, 500, Event(EventKind.TIMER, 500)),
    ([plan(700, 0)], None, 700, Event(EventKind.BOT, 700, plan(700, 0))),
    ([plan(700, 0)], 700, 700, Event(EventKind.TIMER, 700)),
])
def test_the_next_event_is_the_earliest_with_timer_bot_wake_on_a_tie(
        plans: list[Plan | None], deadline: float | None, wake: float | None,
        expected: Event) -> None:
    assert next_event(plans, deadline, wake) == expected


def test_nothing_happens_when_nothing_is_scheduled() -> None:
    assert next_event([], None) is None
    assert next_event([None, None], None, None) is None
