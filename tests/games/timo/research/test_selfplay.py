"""The self-play vector environment: the C vector engine's games when its opponents are
the engine's, any bot or policy otherwise, policies asked in batches, and a policy's
illegal move reported as the policy's."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from tests.games.timo.native import require_native
from twintable.envs.errors import OpponentMoveError
from twintable.games.timo.research.selfplay import TimoSelfPlayVectorEnv


def run(vector: Any, seed: int, steps: int) -> list[tuple[Any, ...]]:
    observations, _ = vector.reset(seed=seed)
    rngs = [np.random.default_rng([seed, game]) for game in range(vector.num_envs)]
    trace = [(observations["observation"].copy(), observations["action_mask"].copy())]
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(mask)) if mask.any() else 0
                            for rng, mask in zip(rngs, observations["action_mask"],
                                                 strict=True)])
        observations, rewards, terminated, truncated, infos = vector.step(actions)
        trace.append((observations["observation"].copy(), observations["action_mask"].copy(),
                      rewards.copy(), terminated.copy(), truncated.copy(),
                      {key: np.copy(value) for key, value in infos.items()}))
    return trace


def assert_same_runs(one: list[tuple[Any, ...]], other: list[tuple[Any, ...]]) -> None:
    for mine, theirs in zip(one, other, strict=True):
        for a, b in zip(mine, theirs, strict=True):
            if isinstance(a, dict):
                assert a.keys() == b.keys()
                assert all(np.allclose(a[key], b[key]) for key in a)
            else:
                assert np.array_equal(a, b)


@pytest.mark.parametrize(("players", "options"), [(2, {"target": 60}),
                                                  (3, {"target": 40, "deck": "classic108"})])
def test_greedy_opponents_play_the_c_vector_engines_games(players: int,
                                                          options: dict[str, Any]) -> None:
    require_native()
    from twintable.games.timo.research.vector import TimoVectorEnv

    count, steps = 4, 300
    c_engine = run(TimoVectorEnv(count, players, options, learner=1), 9, steps)
    python = TimoSelfPlayVectorEnv(count, players, options, learner=1, opponents="greedy")
    trace = run(python, 9, steps)
    assert any(step[3].any() for step in trace[1:]), "some game should end"
    assert_same_runs(trace, c_engine)


def test_a_policy_is_asked_in_batches_and_games_replay() -> None:
    calls: list[int] = []

    def first_legal(batch: dict[str, np.ndarray]) -> np.ndarray:
        calls.append(len(batch["action_mask"]))
        assert batch["observation"].shape[0] == len(batch["action_mask"])
        return batch["action_mask"].argmax(axis=1)

    count = 8
    one = run(TimoSelfPlayVectorEnv(count, 3, {"target": 40}, opponents=first_legal), 2, 120)
    assert max(calls) > 1, "games waiting on the same policy are asked together"
    assert sum(calls) > 120
    other = run(TimoSelfPlayVectorEnv(count, 3, {"target": 40}, opponents=first_legal), 2, 120)
    assert_same_runs(one, other)


def test_opponents_game_by_game_bots_included() -> None:
    def first_legal(batch: dict[str, np.ndarray]) -> np.ndarray:
        return batch["action_mask"].argmax(axis=1)

    lineup = ["random", "heuristic", "greedy", first_legal]
    vector = TimoSelfPlayVectorEnv(4, 2, {"target": 60}, opponents=lineup)
    trace = run(vector, 4, 400)
    ended = sum(int(step[3].sum()) for step in trace[1:])
    assert ended >= 4
    for step in trace[1:]:
        infos = step[5]
        if infos:
            done = infos["_winner"]
            assert (infos["scores"][done, infos["winner"][done]] >= 60).all()
            assert np.allclose(infos["returns"][done].sum(axis=1), 0.0)


def test_a_policys_illegal_move_is_the_policys_fault() -> None:
    def always_draw(batch: dict[str, np.ndarray]) -> np.ndarray:
        return np.full(len(batch["action_mask"]), 124)  # wait: never legal on a turn

    vector = TimoSelfPlayVectorEnv(2, 2, {"target": 60}, learner=1, opponents=always_draw)
    with pytest.raises(OpponentMoveError, match="opponent policy playing seat_0"):
        vector.reset(seed=0)


def test_unknown_opponents_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown opponent"):
        TimoSelfPlayVectorEnv(2, 2, opponents="grandmaster")
    # A level reads as the bot it seats.
    assert TimoSelfPlayVectorEnv(2, 2, opponents="Expert").opponents == ("search", "search")
    with pytest.raises(ValueError, match="one opponent per game"):
        TimoSelfPlayVectorEnv(2, 2, opponents=["random"])
