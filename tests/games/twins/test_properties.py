"""Invariants over random Twins games: chips and cards are conserved; views keep secrets."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.twins.scenario import GAME
from twintable.core.types import events_for
from twintable.games.twins.state import OVER, TwinsState


def _cards(state: TwinsState) -> list[int]:
    played = [c for _, _, a, b in state.played for c in (a, b)]
    return sorted([c for hand in state.hands for c in hand] + state.draw_pile + played)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6),
       max_hands=st.one_of(st.none(), st.integers(1, 6)),
       variant=st.fixed_dictionaries({}, optional={"starting_chips": st.integers(1, 30),
                                                   "deal": st.integers(8, 18)}))
def test_chips_and_cards_are_conserved_after_every_action(
        seed: int, players: int, max_hands: int | None, variant: dict[str, int]) -> None:
    rng = random.Random(seed)
    # A bigger deal seats fewer players.
    players = min(players, GAME.player_range(variant)[1])
    state = GAME.new_state({"max_hands": max_hands, **variant}, players, seed)
    chips = variant.get("starting_chips", 12)
    assert all(len(hand) == variant.get("deal", 8) for hand in state.hands)
    while True:
        assert sum(state.chips) + state.bank == chips * players
        assert min(state.chips) >= 0 and state.bank >= 0
        assert _cards(state) == list(range(60))
        if state.phase == OVER:
            break
        acting = sorted(GAME.to_act(state))
        GAME.apply(state, rng.choice([a for s in acting for a in GAME.legal_actions(state, s)]))
        if state.hand_no > 40:
            break


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6))
def test_no_frame_for_a_seat_holds_a_card_hidden_from_it(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_state({"max_hands": 2}, players, seed)
    while state.phase != OVER:
        for seat in range(players):
            others = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
            view = GAME.view(state, seat)
            assert not set(view.hand) & others
            assert view.my_pick is None or set(view.my_pick) <= set(state.hands[seat])
        spectator = GAME.view(state, None)
        assert spectator.hand == () and spectator.my_pick is None and spectator.legal == ()
        acting = sorted(GAME.to_act(state))
        action = rng.choice([a for s in acting for a in GAME.legal_actions(state, s)])
        for event in GAME.apply(state, action):
            if "cards" in event.data:
                assert event.audience == frozenset((event.data["seat"],))
            for seat in range(players):
                if event.kind == "committed" and event in events_for([event], seat):
                    assert set(event.data) == {"seat", "round"}
