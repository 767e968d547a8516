"""What each seat and the spectators see of a Timo's Twist game, and what they never see."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.timo.scenario import GAME, build, card
from twintable.core.types import Action, events_for
from twintable.games.timo.state import TimoState


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others() -> None:
    state = build([["blue 1", "pink 9"], ["pink 1", "green 3", "green 4"]], top="blue 5")
    view = GAME.view(state, 0)
    assert view.hand == (card("blue 1"), card("pink 9"))
    assert view.hand_sizes == (2, 3)
    spectator = GAME.view(state, None)
    assert spectator.hand == () and spectator.legal == () and spectator.viewer is None


def test_the_drawn_card_is_shown_only_to_the_one_who_drew_it() -> None:
    state = build([["pink 1", "pink 7"], ["pink 2"]], top="blue 5", draw=["blue 8"])
    events = GAME.apply(state, Action(0, "draw"))
    assert GAME.view(state, 0).drawn == card("blue 8")
    assert GAME.view(state, 1).drawn == -1
    other_seat_text = json.dumps([e.to_json() for e in events_for(events, 1)])
    assert "cards" not in other_seat_text
    assert any(e.data.get("cards") == [card("blue 8")] for e in events_for(events, 0))


def _hidden_from(state: TimoState, seat: int) -> set[int]:
    return {c for other, hand in enumerate(state.hands) if other != seat for c in hand} | set(
        state.draw_pile)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6))
def test_no_frame_for_a_seat_holds_a_card_hidden_from_it(seed: int, players: int) -> None:
    """Fuzz whole games: every view and every event a seat receives is checked."""
    rng = random.Random(seed)
    state = GAME.new_state({"target": 60}, players, seed)
    while not state.over:
        hidden = {seat: _hidden_from(state, seat) for seat in range(players)}
        for seat in range(players):
            view = GAME.view(state, seat)
            assert not set(view.hand) & hidden[seat]
            assert not set(view.discard) & hidden[seat]
        acting = sorted(GAME.to_act(state))
        action = rng.choice([a for s in acting for a in GAME.legal_actions(state, s)])
        for event in GAME.apply(state, action):
            if event.kind == "round_over":
                continue  # every hand is shown when the round is scored
            if "cards" in event.data:
                # Cards travel only to the seat that holds them.
                assert event.audience == frozenset((event.data["seat"],))
