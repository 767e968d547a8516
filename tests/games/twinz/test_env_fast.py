"""Twinz's environment reads the state directly (issue 41: steps per second): its legal
moves, views and acting seats against the rules' own, at every step of random games, and
its skipping of idle ticks against the clock moving one tick at a time."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from twintable.core.types import SYSTEM_SEAT, TICK, Action
from twintable.games.twinz import env as twinz_v1
from twintable.games.twinz.env import WORD_BASE, acting, legal_moves, state_moves, state_view

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def choose(raw: Any, agent: str, rng: random.Random) -> int:
    """A random move, a word counting as one move (so contests and votes come up)."""
    mask = raw.observe(agent)["action_mask"]
    moves = [int(index) for index in np.flatnonzero(mask[:WORD_BASE])]
    if mask[WORD_BASE]:
        moves.append(WORD_BASE + rng.randrange(len(twinz_v1.VOCABULARY)))
    return rng.choice(moves)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), moves=st.integers(0, 2**32 - 1),
       players=st.integers(4, 7))
def test_the_state_reads_are_the_rules_views_and_moves(seed: int, moves: int,
                                                        players: int) -> None:
    env = twinz_v1.env(players=players, max_ticks=3000)
    env.reset(seed=seed)
    raw = env.unwrapped
    game, rng = raw.game, random.Random(moves)
    for _ in range(400):
        if not env.agents:
            break
        state = raw.state
        assert acting(state) == sorted(game.to_act(state))
        for seat in range(players):
            view = game.view(state, seat)
            assert state_view(game, state, seat) == view._replace(legal=())
            assert state_moves(state, seat) == legal_moves(view)
        agent = env.agent_selection
        done = env.terminations[agent] or env.truncations[agent]
        env.step(None if done else choose(raw, agent, rng))


class TickByTick(twinz_v1.raw_env):
    """The clock as it moved before idle ticks were skipped: one tick at a time."""

    def __init__(self, **kwargs: Any):
        super().__init__(native=False, **kwargs)

    def _next_tick(self) -> None:
        game, state = self.game, self._rules_state
        while True:
            self._tick += 1
            self._now += self.dt
            while not game.is_over(state):
                due = game.deadline(state)
                if due is None or due > self._now:
                    break
                game.apply(state, Action(SYSTEM_SEAT, TICK, {}, due))
            self._start_tick()
            if self._turns or game.is_over(state):
                return
            if self.max_ticks is not None and self._tick >= self.max_ticks:
                return


@pytest.mark.parametrize(("seed", "options"), [
    (1, {}), (2, {"max_ticks": 45}), (3, {"dt": 700, "max_ticks": 400}), (4, {"dt": 30})])
def test_idle_ticks_pass_at_once_as_they_would_one_by_one(seed: int,
                                                           options: dict[str, Any]) -> None:
    # The environment as it is: on the C engine where it was built.
    envs = [TickByTick(players=5, **options), twinz_v1.raw_env(players=5, **options)]
    for env in envs:
        env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(1500):
        reference, fast = envs
        if not reference.agents:
            break
        assert (fast.agent_selection, fast.tick, fast.now_ms) == (
            reference.agent_selection, reference.tick, reference.now_ms)
        agent = reference.agent_selection
        mine, theirs = fast.observe(agent), reference.observe(agent)
        assert np.array_equal(mine["observation"], theirs["observation"])
        assert np.array_equal(mine["action_mask"], theirs["action_mask"])
        assert fast.rewards == reference.rewards and fast.infos == reference.infos
        assert fast.truncations == reference.truncations
        done = reference.terminations[agent] or reference.truncations[agent]
        action = None if done else choose(reference, agent, rng)
        for env in envs:
            env.step(action)
    assert not envs[0].agents and not envs[1].agents
