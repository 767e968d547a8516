"""The C vector engine of Timo's Twist as a Stable-Baselines3 ``VecEnv``, with
``action_masks()`` for sb3-contrib's ``MaskablePPO``.

Stable-Baselines3 takes only its own ``VecEnv`` type (a Gymnasium ``VectorEnv`` is
refused as "not a Gymnasium environment"), and it expects same-step autoreset: the step
that ends a game returns the next game's first observation, the last one travelling in
``infos[i]["terminal_observation"]``. :func:`timo_vec_env` builds a
:class:`~twintable.envs.timo_vector.TimoVectorEnv` in Gymnasium's same-step mode and
wraps it in :class:`TimoSB3VecEnv`, a subclass of SB3's ``VecEnv`` when Stable-Baselines3
is installed (it is not a dependency: without it the class has the same methods, for
code that only needs the interface)::

    from sb3_contrib import MaskablePPO
    from twintable.envs.sb3 import timo_vec_env

    env = timo_vec_env(64, players=2, opponents="random")
    MaskablePPO("MultiInputPolicy", env).learn(100_000)

Each ended game's info also holds ``episode`` (``r``: the learner's return, ``l``: its
decisions, as SB3's ``Monitor`` writes), ``winner`` and ``scores``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from twintable.games.timo.research.codec import N_ACTIONS
from twintable.games.timo.research.vector import TimoVectorEnv


class SB3VecEnvMethods:
    """The methods of Stable-Baselines3's ``VecEnv`` over a same-step TimoVectorEnv."""

    def __init__(self, vector: TimoVectorEnv):
        if vector.autoreset_mode != AutoresetMode.SAME_STEP:
            raise ValueError("Stable-Baselines3 needs AutoresetMode.SAME_STEP")
        self.vector = vector
        self.num_envs = vector.num_envs
        self.observation_space = vector.single_observation_space
        self.action_space = vector.single_action_space
        self.render_mode: str | None = None
        self.metadata: dict[str, Any] = {"render_modes": []}
        # What SB3's own VecEnv.__init__ would set, which this class does not call.
        self._seeds: list[int | None] = [None] * self.num_envs
        self._options: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self._seed: int | None = None
        self._actions: npt.NDArray[np.int64] | None = None
        self._masks = np.zeros((self.num_envs, N_ACTIONS), dtype=np.bool_)
        self._lengths = np.zeros(self.num_envs, dtype=np.int64)

    # -- stepping ----------------------------------------------------------------------
    def reset(self) -> dict[str, npt.NDArray[Any]]:
        observations, _ = self.vector.reset(seed=self._seed)
        self._seed = None
        self._lengths[:] = 0
        self._masks = observations["action_mask"].astype(np.bool_)
        return observations

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[dict[str, npt.NDArray[Any]], npt.NDArray[np.float32],
                                 npt.NDArray[np.bool_], list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_async() first")
        observations, rewards, terminated, truncated, infos = self.vector.step(self._actions)
        self._actions = None
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

    def step(self, actions: npt.NDArray[Any]) -> tuple[Any, ...]:
        self.step_async(actions)
        return self.step_wait()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal moves of every game now, ``(num_envs, 125)``."""
        return self._masks.copy()

    # -- what SB3 asks of every VecEnv ---------------------------------------------------
    def _indices(self, indices: int | Iterable[int] | None) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: int | Iterable[int] | None = None
                 ) -> list[Any]:
        """An attribute per game; ``action_masks`` gives each game's mask function
        (sb3-contrib checks for it this way)."""
        games = self._indices(indices)
        if attr_name == "action_masks":
            return [lambda game=game: self._masks[game].copy() for game in games]
        value = getattr(self.vector, attr_name)
        return [value for _ in games]

    def set_attr(self, attr_name: str, value: Any,
                 indices: int | Iterable[int] | None = None) -> None:
        raise AttributeError(f"the games of a vector engine share their settings; "
                             f"{attr_name} cannot be set game by game")

    def env_method(self, method_name: str, *method_args: Any,
                   indices: int | Iterable[int] | None = None, **method_kwargs: Any
                   ) -> list[Any]:
        games = self._indices(indices)
        if method_name == "action_masks":
            return [self._masks[game].copy() for game in games]
        method = getattr(self.vector, method_name)
        return [method(*method_args, **method_kwargs) for _ in games]

    def env_is_wrapped(self, wrapper_class: type,
                       indices: int | Iterable[int] | None = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next reset (SB3's convention): game ``i`` then deals from seed + i."""
        self._seed = seed
        return [None if seed is None else seed + game for game in range(self.num_envs)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]

    def render(self, mode: str | None = None) -> np.ndarray | None:
        return None

    def close(self) -> None:
        self.vector.close()


def _sb3_base() -> tuple[type, ...]:
    try:
        from stable_baselines3.common.vec_env import VecEnv
    except ImportError:
        return ()
    return (VecEnv,)


class TimoSB3VecEnv(SB3VecEnvMethods, *_sb3_base()):  # type: ignore[misc]
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
