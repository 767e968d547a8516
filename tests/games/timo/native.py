"""Test helpers for Timo's Twist's C engine: skip without it, unless CI requires it."""

from __future__ import annotations

import os
from typing import Any

import pytest

from twintable.core.errors import RuleError
from twintable.core.types import Action, Event
from twintable.games.timo import TimoGame, TimoState
from twintable.games.timo.fast import NATIVE


def require_native() -> None:
    """Skip when the extension was not built; fail instead under TWINTABLE_REQUIRE_NATIVE=1
    (.ci/run sets it: CI has a compiler, so a missing engine there is a broken build)."""
    if NATIVE:
        return
    if os.environ.get("TWINTABLE_REQUIRE_NATIVE") == "1":
        pytest.fail("the C engine of Timo's Twist was not built (TWINTABLE_REQUIRE_NATIVE=1)")
    pytest.skip("the C engine of Timo's Twist was not built (no C compiler at install)")


def mirrored_apply(reference: TimoGame, state: TimoState, action: Action) -> list[Event]:
    """Apply ``action`` with the Python rules, and from a copy of the same state with the C
    engine: both must refuse it with the same code and no change, or end equal."""
    from twintable.games.timo.fast import FastTimoGame

    fast = FastTimoGame()
    native: Any = fast.from_reference(state)
    before = fast.snapshot(native)
    try:
        events = TimoGame.apply(reference, state, action)
    except RuleError as error:
        with pytest.raises(RuleError) as native_error:
            fast.apply(native, action)
        assert native_error.value.code == error.code
        assert fast.snapshot(native) == before
        raise
    fast.apply(native, action)
    assert fast.snapshot(native) == reference.snapshot(state)
    return events
