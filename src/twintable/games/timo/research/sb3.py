"""The C vector engine of Timo's Twist as a Stable-Baselines3 ``VecEnv``, with
``action_masks()`` for sb3-contrib's ``MaskablePPO``.

Stable-Baselines3 takes only its own ``VecEnv`` type (a Gymnasium ``VectorEnv`` is
refused as "not a Gymnasium environment"), and it expects same-step autoreset: the step
that ends a game returns the next game's first observation, the last one travelling in
``infos[i]["terminal_observation"]``. :func:`timo_vec_env` builds a
:class:`~twintable.envs.timo_vector.TimoVectorEnv` in Gymnasium's same-step mode and
wraps it in :class:`TimoSB3VecEnv`, a subclass of SB3's ``VecEnv`` when Stable-Baselines3
is installed (it is not a dependency: without it the class has the same methods, for
code that only needs the interface). What every SB3 adapter here shares (seeding,
``get_attr``, ``env_method``, masks for sb3-contrib) is
:class:`twintable.envs.sb3.VecEnvMethods`; this module only steps the C engine::

    from sb3_contrib import MaskablePPO
    from twintable.envs.sb3 import timo_vec_env

    env = timo_vec_env(64, players=2, opponents="random")
    MaskablePPO("MultiInputPolicy", env).learn(100_000)

Each ended game's info also holds ``episode`` (``r``: the learner's return, ``l``: its
decisions, as SB3's ``Monitor`` writes), ``winner`` and ``scores``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from twintable.envs.sb3 import VecEnvMethods, sb3_bases
from twintable.games.timo.research.codec import N_ACTIONS
from twintable.games.timo.research.vector import TimoVectorEnv


class SB3VecEnvMethods(VecEnvMethods):
    """:class:`~twintable.envs.sb3.VecEnvMethods` over a same-step TimoVectorEnv: the C
    engine steps every game at once, and its games share their settings."""

    def __init__(self, vector: TimoVectorEnv):
        if vector.autoreset_mode != AutoresetMode.SAME_STEP:
            raise ValueError("Stable-Baselines3 needs AutoresetMode.SAME_STEP")
        self.vector = vector
        super().__init__(vector.num_envs, vector.single_observation_space,
                         vector.single_action_space)
        self._masks = np.zeros((self.num_envs, N_ACTIONS), dtype=np.bool_)
        self._lengths = np.zeros(self.num_envs, dtype=np.int64)

    def _mask(self, game: int) -> npt.NDArray[np.bool_]:
        return np.array(self._masks[game], dtype=np.bool_)

    def _attr(self, game: int, name: str) -> Any:
        return getattr(self.vector, name)

    def _set_attr(self, game: int, name: str, value: Any) -> None:
        raise AttributeError(f"the games of a vector engine share their settings; "
                             f"{name} cannot be set game by game")

    def _method(self, game: int, name: str) -> Callable[..., Any]:
        return getattr(self.vector, name)  # type: ignore[no-any-return]

    def _is_wrapped(self, game: int, wrapper_class: type) -> bool:
        return False

    # -- stepping ----------------------------------------------------------------------
    def reset(self) -> dict[str, npt.NDArray[Any]]:
        observations, _ = self.vector.reset(seed=self._seed)
        self._seed = None
        self._lengths[:] = 0
        self._masks = observations["action_mask"].astype(np.bool_)
        return observations

    def step_wait(self) -> tuple[dict[str, npt.NDArray[Any]], npt.NDArray[np.float32],
                                 npt.NDArray[np.bool_], list[dict[str, Any]]]:
        actions = self._take_actions()
        observations, rewards, terminated, truncated, infos = self.vector.step(actions)
        self._lengths += 1
        dones = terminated | truncated
        per_game: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for game in np.flatnonzero(dones):
            per_game[game] = {
                "terminal_observation": infos["final_obs"][game],
                "TimeLimit.truncated": bool(truncated[game] and not terminated[game]),
                "episode": {"r": float(infos["episode_return"][game]),
                            "l": int(self._lengths[game])},
                "winner": int(infos["winner"][game]),
                "scores": infos["scores"][game].tolist(),
            }
            self._lengths[game] = 0
        self._masks = observations["action_mask"].astype(np.bool_)
        return observations, rewards.astype(np.float32), dones, per_game

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal moves of every game now, ``(num_envs, 125)``."""
        return self._masks.copy()

    def close(self) -> None:
        self.vector.close()


class TimoSB3VecEnv(SB3VecEnvMethods, *sb3_bases()):  # type: ignore[misc]
    """:class:`SB3VecEnvMethods`, and an SB3 ``VecEnv`` when Stable-Baselines3 is
    installed, so that SB3 and sb3-contrib accept it."""


def timo_vec_env(num_envs: int, players: int = 2, **kwargs: Any) -> TimoSB3VecEnv:
    """A same-step :class:`TimoVectorEnv` (keywords: ``options``, ``learner``,
    ``threads``, ``opponents``: the engine's bots or the levels that seat them, ``"easy"``
    and ``"beginner"``) for Stable-Baselines3. Any other bot or level:
    ``twintable.envs.sb3.vec_env("timo", ...)``."""
    from twintable.bots.registry import resolve_bot
    from twintable.games.timo.plugin import entry

    opponents = kwargs.get("opponents")
    if isinstance(opponents, str):
        kwargs["opponents"] = resolve_bot(entry(), opponents) or opponents
    elif opponents is not None:
        kwargs["opponents"] = [resolve_bot(entry(), name) or name for name in opponents]
    vector = TimoVectorEnv(num_envs, players, autoreset_mode=AutoresetMode.SAME_STEP,
                           **kwargs)
    return TimoSB3VecEnv(vector)


__all__ = ["SB3VecEnvMethods", "TimoSB3VecEnv", "timo_vec_env"]
