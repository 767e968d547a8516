"""Invariants over random Timo's Twist games: conservation and determinism."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.timo.scenario import GAME
from twintable.core.replay import Replay
from twintable.games.timo.state import TimoState

options_strategy = st.fixed_dictionaries({}, optional={
    "stacking": st.booleans(), "draw_when_able": st.booleans(),
    "deck": st.sampled_from(["timo54", "classic108"]),
})


def _places(state: TimoState) -> list[int]:
    return [c for hand in state.hands for c in hand] + state.draw_pile + state.discard


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), options=options_strategy)
def test_every_card_is_in_exactly_one_place_after_every_action(
        seed: int, players: int, options: dict[str, object]) -> None:
    rng = random.Random(seed)
    state = GAME.new_state({**options, "target": 80}, players, seed)
    everything = list(range(state.deck.size))
    steps = 0
    while not state.over and steps < 3000:
        assert sorted(_places(state)) == everything
        acting = sorted(GAME.to_act(state))
        GAME.apply(state, rng.choice([a for s in acting for a in GAME.legal_actions(state, s)]))
        steps += 1
    assert sorted(_places(state)) == everything


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_seed_and_actions_reproduce_every_state(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_state({"target": 100}, players, seed)
    replay = Replay("timo", players, seed, {"target": 100})
    snapshots = [GAME.snapshot(state)]
    while not state.over:
        acting = sorted(GAME.to_act(state))
        action = rng.choice([a for s in acting for a in GAME.legal_actions(state, s)])
        GAME.apply(state, action)
        replay.actions.append(action)
        snapshots.append(GAME.snapshot(state))
    again = Replay.loads(replay.dumps())
    assert [GAME.snapshot(s.clone()) for _, _, s in again.steps(GAME)] == snapshots


def test_clone_is_independent() -> None:
    state = GAME.new_state({}, 3, 9)
    copy = state.clone()
    rng = random.Random(1)
    for _ in range(30):
        if copy.over:
            break
        acting = sorted(GAME.to_act(copy))
        GAME.apply(copy, rng.choice([a for s in acting for a in GAME.legal_actions(copy, s)]))
    assert GAME.snapshot(state) == GAME.snapshot(GAME.new_state({}, 3, 9))
