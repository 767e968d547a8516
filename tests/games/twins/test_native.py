"""Twins' C engine (games/twins/_native.c) against the reference rules: the AEC
environment on each, fed the same seed and the same moves, gives the same observations,
masks, rewards, ends, infos and states, step for step; refused moves are refused alike."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.native_pair import paired, refuse_alike, refuses_native_unbuilt, same_step
from tests.games.native_pair import require_native as require_native_engine
from twintable.games.twins import env as twins_v0

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def require_native() -> None:
    require_native_engine(twins_v0, "Twins")


#: Options that reach every rule quickly: bankruptcies (few chips), the hand limit, a
#: bigger deal, and a designer's cash card.
OPTIONS: list[dict[str, Any]] = [
    {}, {"starting_chips": 2}, {"max_hands": 2}, {"starting_chips": 1, "deal": 10},
    {"starting_chips": 3, "cash": {"4": {"round1": {"lowest": 3, "pay": 1},
                                         "round2": {"highest": 2, "gain": 5},
                                         "round3": {"lowest": 1, "pay": 4}}}},
]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), moves=st.integers(0, 2**32 - 1),
       players=st.sampled_from([3, 4, 5, 6]), options=st.sampled_from(OPTIONS),
       reward=st.sampled_from(["win", "score"]))
def test_the_engine_plays_every_game_as_the_rules_do(seed: int, moves: int, players: int,
                                                      options: dict[str, Any],
                                                      reward: str) -> None:
    require_native()
    if (options.get("deal", 8) > 8 and players > 4) or ("cash" in options and players != 4):
        options = {}
    native, reference = paired(partial(twins_v0.raw_env, players=players, options=options,
                                       reward=reward, max_steps=300), seed)
    envs = [native, reference]
    rng = random.Random(moves)
    steps = 0
    while native.agents:
        same_step(native, reference, [native.agent_selection, native.possible_agents[-1]])
        if steps % 5 == 0:
            assert native.game.snapshot(native.state) == reference.game.snapshot(
                reference.state)
        agent = native.agent_selection
        if native.terminations[agent] or native.truncations[agent]:
            action = None
        else:
            legal = np.flatnonzero(native.observe(agent)["action_mask"])
            if rng.random() < 0.05:
                illegal = rng.choice([0, -1, twins_v0.N_ACTIONS, rng.randrange(1774)])
                if illegal not in legal:
                    assert refuse_alike(envs, illegal, agent) == (
                        f"action {illegal} is not legal for {agent} now")
            action = int(legal[rng.randrange(len(legal))])
            steps += 1
        for env in envs:
            env.step(action)
    assert native.game.snapshot(native.state) == reference.game.snapshot(reference.state)


def test_the_engine_is_the_default_and_the_state_read_is_a_copy() -> None:
    require_native()
    env = twins_v0.env(players=4)
    env.reset(seed=4)
    raw = env.unwrapped
    assert raw.native
    state = raw.state
    state.chips[0] = 99  # a copy: the engine does not see it
    assert raw.state.chips[0] != 99 and raw.state is not raw.state
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))
    assert raw.state.version == 1
    assert raw.game.view(raw.state, 0).legal == tuple(
        raw.game.legal_actions(raw.state, 0))
    assert "seat_0" in raw.describe()


def test_native_is_refused_when_the_engine_was_not_built(
        monkeypatch: pytest.MonkeyPatch) -> None:
    refuses_native_unbuilt(monkeypatch, twins_v0)
