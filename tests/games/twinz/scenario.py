"""Twinz tables for timeline tests: a fresh game whose duo has drawn at t=0 (its countdown
starting then), and one-line moves and clock ticks at a given server time."""

from __future__ import annotations

from typing import Any

from twintable.core.types import SYSTEM_SEAT, Action, Event
from twintable.games.twinz import TwinzGame, TwinzState

GAME = TwinzGame()


#: These timelines count from the countdown's start and draw each card when they like: no
#: reading time before the countdown, no result pause before the next card (both have
#: their own tests in test_rules.py).
TIMELINE = {"read_ms": 0, "result_pause_ms": 0}


def new(players: int = 5, **options: Any) -> TwinzState:
    state = GAME.new_state({**TIMELINE, **options}, players, seed=7)
    act(state, 0, state.duo[0], "draw")  # the countdown starts at 0
    return state


def act(state: TwinzState, t: int, seat: int, kind: str, **payload: Any) -> list[Event]:
    return GAME.apply(state, Action(seat, kind, payload, t))


def tick(state: TwinzState, t: int) -> list[Event]:
    return GAME.apply(state, Action(SYSTEM_SEAT, "tick", {}, t))
