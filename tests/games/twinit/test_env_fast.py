"""Twin It's environment lists legal moves as indices without building them (issue 41:
steps per second): the indices and the one action built for the index played against the
rules' own ``legal_moves``, for every seat at every step of random games in every mode."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from twintable.games.twinit import env as twinit_v0
from twintable.games.twinit.env import index_of, legal_indices, move_at
from twintable.games.twinit.views import legal_moves

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

MODES = {"competitive": 4, "team": 4, "coop": 3, "timeattack": 2}


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), moves=st.integers(0, 2**32 - 1),
       mode=st.sampled_from(sorted(MODES)), edition=st.sampled_from(["fr", "ko"]))
def test_indices_and_moves_are_the_rules_legal_moves(seed: int, moves: int, mode: str,
                                                      edition: str) -> None:
    # On the rules (native=False): the table is what this test reads.
    env = twinit_v0.env(players=MODES[mode], options={"mode": mode, "edition": edition},
                        max_ticks=400, native=False)
    env.reset(seed=seed)
    raw = env.unwrapped
    table, rng = raw.table, random.Random(moves)
    for _ in range(300):
        if not env.agents:
            break
        for seat in range(MODES[mode]):
            public, touches = table._table(seat)
            actions = legal_moves(public, seat, touches)
            indices = legal_indices(public, seat, touches)
            assert indices == [index_of(action) for action in actions]
            for index, action in zip(indices, actions, strict=True):
                assert move_at(public, seat, index) == action
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
