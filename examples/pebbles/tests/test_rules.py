"""The rules of Pebbles on states built for the case: takes, refusals and both endings."""

from __future__ import annotations

import pytest
from twintable.core.errors import RuleError
from twintable.core.types import Action

from twintable_pebbles.rules import PebblesGame

GAME = PebblesGame()


def take(seat: int, count: object) -> Action:
    return Action(seat, "take", {"count": count})


def test_seats_take_in_turn_and_the_heap_shrinks() -> None:
    state = GAME.new_state({"heap": 10}, 3, seed=1)
    assert GAME.to_act(state) == {0}
    assert [a.payload["count"] for a in GAME.legal_actions(state, 0)] == [1, 2, 3]
    GAME.apply(state, take(0, 3))
    GAME.apply(state, take(1, 2))
    assert (state.heap, state.taken) == (5, [3, 2, 0]) and GAME.to_act(state) == {2}


@pytest.mark.parametrize(("action", "code"), [
    (take(1, 1), "turn.not_yours"), (take(0, 4), "take.invalid"),
    (take(0, 0), "take.invalid"), (take(0, True), "take.invalid"),
    (take(0, "2"), "take.invalid"),
])
def test_refused_moves_change_nothing(action: Action, code: str) -> None:
    state = GAME.new_state({}, 2, seed=1)
    before = GAME.snapshot(state)
    with pytest.raises(RuleError) as refused:
        GAME.apply(state, action)
    assert refused.value.code == code and GAME.snapshot(state) == before


def test_no_more_than_the_heap_holds() -> None:
    state = GAME.new_state({"heap": 5}, 2, seed=1)
    GAME.apply(state, take(0, 3))
    assert [a.payload["count"] for a in GAME.legal_actions(state, 1)] == [1, 2]
    with pytest.raises(RuleError, match="between 1 and 2"):
        GAME.apply(state, take(1, 3))


@pytest.mark.parametrize(("last_loses", "winners"), [(False, {1}), (True, {0, 2})])
def test_the_last_pebble_wins_or_in_misere_loses(last_loses: bool,
                                                 winners: set[int]) -> None:
    state = GAME.new_state({"heap": 5, "last_loses": last_loses}, 3, seed=1)
    GAME.apply(state, take(0, 3))
    events = GAME.apply(state, take(1, 2))
    outcome = GAME.outcome(state)
    assert GAME.is_over(state) and outcome is not None and outcome.winners == winners
    assert events[-1].kind == "game_over" and set(events[-1].data["winners"]) == winners
    assert GAME.view(state, None).to_json()["over"] is True
