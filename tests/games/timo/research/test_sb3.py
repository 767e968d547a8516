"""The Stable-Baselines3 adapter: SB3's VecEnv interface over the vector engine, with the
same games as Gymnasium's next-step mode and sb3-contrib's way of reading masks."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode

from tests.games.timo.native import require_native

#: Why the training tests skip: Stable-Baselines3 is an extra (CI installs it, .ci/run).
NO_SB3 = "training needs Stable-Baselines3 and sb3-contrib: pip install 'twintable[sb3]'"


@pytest.fixture(autouse=True)
def native() -> None:
    require_native()


def per_game_history(count: int, steps: int, same_step: bool) -> list[list[Any]]:
    """What every game shows, in order: each observation its learner acts on, and each
    game's last observation (marked), under either autoreset mode."""
    from twintable.games.timo.research.sb3 import timo_vec_env
    from twintable.games.timo.research.vector import TimoVectorEnv

    rngs = [np.random.default_rng([5, game]) for game in range(count)]
    history: list[list[Any]] = [[] for _ in range(count)]
    options = {"target": 40}
    if same_step:
        env = timo_vec_env(count, 2, options=options, opponents="random")
        env.seed(21)
        observations = env.reset()
    else:
        vector = TimoVectorEnv(count, 2, options, opponents="random")
        observations, _ = vector.reset(seed=21)
    for _ in range(steps):
        masks = env.action_masks() if same_step else observations["action_mask"].astype(bool)
        actions = np.zeros(count, dtype=np.int64)
        for game in range(count):
            if masks[game].any():
                history[game].append(("act", observations["observation"][game].tobytes()))
                actions[game] = rngs[game].choice(np.flatnonzero(masks[game]))
        if same_step:
            observations, rewards, dones, infos = env.step(actions)
            assert rewards.dtype == np.float32 and len(infos) == count
            for game in np.flatnonzero(dones):
                last = infos[game]["terminal_observation"]
                assert not last["action_mask"].any()
                assert infos[game]["episode"]["l"] > 0
                history[game].append(("last", last["observation"].tobytes(),
                                      round(infos[game]["episode"]["r"], 9)))
        else:
            observations, rewards, terminated, _, infos = vector.step(actions)
            for game in np.flatnonzero(terminated):
                history[game].append(("last", observations["observation"][game].tobytes(),
                                      round(float(infos["episode_return"][game]), 9)))
    return history


def test_same_step_autoreset_deals_the_next_step_modes_games() -> None:
    count, steps = 5, 400
    same = per_game_history(count, steps, same_step=True)
    following = per_game_history(count, steps, same_step=False)
    for game in range(count):
        assert sum(entry[0] == "last" for entry in same[game]) >= 2
        # Next-step mode spends a step per reset, so it is a little behind: a prefix.
        assert same[game][:len(following[game])] == following[game]


def test_sb3_contrib_reads_the_masks_as_from_any_vec_env() -> None:
    from twintable.games.timo.research.sb3 import timo_vec_env

    env = timo_vec_env(3, 2, opponents="greedy")
    observations = env.reset()
    masks = env.action_masks()
    assert masks.dtype == np.bool_ and masks.shape == (3, 125)
    assert np.array_equal(masks, observations["action_mask"].astype(bool))
    # sb3-contrib: is_masking_supported reads get_attr, get_action_masks env_method.
    assert len(env.get_attr("action_masks")) == 3
    assert np.array_equal(np.stack(env.env_method("action_masks")), masks)
    assert np.array_equal(env.get_attr("action_masks", indices=[1])[0](), masks[1])
    assert env.env_is_wrapped(object) == [False, False, False]
    assert env.get_attr("players") == [2, 2, 2]
    with pytest.raises(RuntimeError, match="step_async"):
        env.step_wait()
    env.close()


def test_the_adapter_needs_same_step_autoreset() -> None:
    from twintable.games.timo.research.sb3 import TimoSB3VecEnv
    from twintable.games.timo.research.vector import TimoVectorEnv

    with pytest.raises(ValueError, match="SAME_STEP"):
        TimoSB3VecEnv(TimoVectorEnv(2, 2))
    assert TimoSB3VecEnv(TimoVectorEnv(2, 2, autoreset_mode=AutoresetMode.SAME_STEP))


def test_maskable_ppo_learns_on_it_where_sb3_contrib_is_installed() -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib", reason=NO_SB3)
    from stable_baselines3.common.vec_env import VecEnv

    from twintable.games.timo.research.sb3 import timo_vec_env

    env = timo_vec_env(4, 2, options={"target": 30}, opponents="random")
    assert isinstance(env, VecEnv)
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", env, n_steps=32, batch_size=64,
                                    n_epochs=1, seed=0)
    model.learn(256)
    observations = env.reset()
    for _ in range(50):
        masks = env.action_masks()
        actions, _ = model.predict(observations, action_masks=masks)
        assert masks[np.arange(4), actions].all()
        observations, *_ = env.step(actions)
