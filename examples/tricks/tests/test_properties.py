"""Invariants over random Twin Tricks games: every card is somewhere exactly once, and no
frame for a seat holds a card hidden from it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from twintable.core.types import events_for

from twintable_tricks.cards import DECK_SIZE
from twintable_tricks.rules import TricksGame
from twintable_tricks.state import TricksState

GAME = TricksGame()


def every_card(state: TricksState) -> list[int]:
    taken = [card for _, plays in state.taken for _, card in plays]
    on_table = [card for _, card in state.trick]
    return sorted([c for hand in state.hands for c in hand] + state.stock + taken + on_table)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4),
       hand_size=st.integers(1, 10), target=st.integers(1, 15))
def test_cards_are_conserved_after_every_action(seed: int, players: int, hand_size: int,
                                                target: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_state({"hand_size": hand_size, "target": target}, players, seed)
    while True:
        assert every_card(state) == list(range(DECK_SIZE))
        held = [len(hand) for hand in state.hands]
        played = {seat for seat, _ in state.trick}
        # Everyone who has played to this trick holds one card fewer than the rest.
        assert {held[seat] + (seat in played) for seat in range(players)} == {
            hand_size - len(state.taken)}
        # A finished hand hands out one point per trick and one for the last trick.
        finished = state.hand_no if state.over else state.hand_no - 1
        assert sum(state.scores) == finished * (hand_size + 1)
        if GAME.is_over(state):
            break
        (seat,) = GAME.to_act(state)
        GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_no_frame_for_a_seat_holds_a_card_hidden_from_it(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_state({"target": 4}, players, seed)
    while not GAME.is_over(state):
        for seat in range(players):
            hidden = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
            hidden |= set(state.stock)
            assert not set(GAME.view(state, seat).hand) & hidden
        assert GAME.view(state, None).hand == ()
        (seat,) = GAME.to_act(state)
        for event in GAME.apply(state, rng.choice(GAME.legal_actions(state, seat))):
            if event.kind == "dealt":
                assert event.audience == frozenset((event.data["seat"],))
                assert events_for([event], None) == []
