"""The scheduler: which automatic event happens next, and when.

A game moves on by itself in three ways: a bot acts (at the time its plan names), the
game's own timer runs out (its ``deadline``), or something outside the game changes who
plays a seat (a stand-in bot takes over a person's seat; the table then plans again).
The table engine (``core/table_engine.py``), which every shell steps (the simulator,
the conformance playouts, the environments, the terminals, the server's tables), asks
these functions, so every shell agrees on what comes first:

- of several bot plans the earliest acts; on a tie the one offered first (callers offer
  them in seat order, or in a seeded order where no seat may always win a race);
- the game's timer comes before a bot planning to act at the same moment (a move made
  at the deadline is too late), and both come before a wake at that moment.

Pure: times are whatever clock the caller counts in (milliseconds of the game's clock,
in practice); nothing here reads a clock, sleeps or does I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from twintable.core.types import Action


@dataclass(frozen=True, slots=True)
class Plan:
    """A bot's intention: ``seat`` plays ``action`` at ``at_ms``."""

    at_ms: float
    seat: int
    action: Action


class EventKind(Enum):
    BOT = "bot"
    """A bot's plan comes due: play its action."""
    TIMER = "timer"
    """The game's deadline passes: play the game's timeout action."""
    WAKE = "wake"
    """Who plays a seat changes (a stand-in takes over): plan again."""


@dataclass(frozen=True, slots=True)
class Event:
    """The next automatic event: its kind, its time and, for a bot, its plan."""

    kind: EventKind
    at_ms: float
    plan: Plan | None = None


def earliest(plans: Iterable[Plan | None]) -> Plan | None:
    """The plan that acts first (a tie goes to the one offered first); None: no bot
    plans to act. ``None`` entries (a bot that lets this state go by) are skipped."""
    first: Plan | None = None
    for plan in plans:
        if plan is not None and (first is None or plan.at_ms < first.at_ms):
            first = plan
    return first


def next_event(plans: Iterable[Plan | None], deadline_ms: float | None,
               wake_ms: float | None = None) -> Event | None:
    """What happens next: the earliest bot plan, the game's deadline or a wake,
    whichever comes first (timer, then bot, then wake on a tie); None when nothing is
    scheduled (the table waits for a person)."""
    plan = earliest(plans)
    if deadline_ms is not None and (plan is None or deadline_ms <= plan.at_ms) and (
            wake_ms is None or deadline_ms <= wake_ms):
        return Event(EventKind.TIMER, deadline_ms)
    if plan is not None and (wake_ms is None or plan.at_ms <= wake_ms):
        return Event(EventKind.BOT, plan.at_ms, plan)
    if wake_ms is not None:
        return Event(EventKind.WAKE, wake_ms)
    return None

