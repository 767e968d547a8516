"""Any game, against any bot, as a Stable-Baselines3 ``VecEnv``, with ``action_masks()``
for sb3-contrib's ``MaskablePPO``: :func:`vec_env`.

:class:`TableVecEnv` steps ``num_envs`` copies of :class:`twintable.envs.gym.TwinTableEnv`
one after another in this process (SB3's ``DummyVecEnv`` way), with the same-step
autoreset SB3 expects: the step that ends a game returns the next game's first
observation, the last one travelling in ``infos[i]["terminal_observation"]``, with
``episode`` (``r``: the learner's return, ``l``: its steps, as SB3's ``Monitor`` writes),
``TimeLimit.truncated`` (the environment's default cap ended it) and the game's
``winner``, ``winners`` and ``scores``. It subclasses SB3's ``VecEnv`` when
Stable-Baselines3 is installed (``pip install 'twintable[sb3]'``); without it the class
has the same methods, for code that only needs the interface::

    from sb3_contrib import MaskablePPO
    from twintable.envs.sb3 import SelfPlay, vec_env

    env = vec_env("twins", 8, players=4, opponents="hard")
    MaskablePPO("MultiInputPolicy", env).learn(100_000)

    rivals = SelfPlay()                           # random moves until a model is set
    env = vec_env("twinit", 8, players=2, opponents=rivals, options={"mode": "coop"})
    model = MaskablePPO("MultiInputPolicy", env)
    rivals.model = model                          # now every other seat plays the learner
    model.learn(100_000)

Opponents are anything the Gymnasium wrapper seats (a bot, a level such as ``"hard"``,
``"module:Class"``, a ``.npz``/``.zip`` checkpoint, a policy callable), one for every
other seat or one per seat. ``seat=None`` (the default) seats game ``i``'s learner at
``i mod players``, so a policy learns every seat. A game's own faster adapter, where it
has one (Timo's C vector engine: ``timo_vec_env``), is published as
``twintable.envs.<game>_sb3`` and reachable from here by name too.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from importlib import import_module
from typing import Any

import numpy as np
import numpy.typing as npt

from twintable.bots.user import Policy, SB3Policy, load_policy
from twintable.envs.gym import TwinTableEnv
from twintable.envs.registry import PUBLISHED

Observations = dict[str, npt.NDArray[Any]]


class SelfPlay:
    """An opponent that plays a model being trained, from its own seat's observation.

    Set :attr:`model` (an SB3 model: MaskablePPO reads the mask; other algorithms'
    action probabilities are masked) or :attr:`policy` (a callable from an observation to
    an index, a ``.npz``/``.zip`` path) at any time, for instance to a frozen checkpoint
    every N updates; until one is set it plays uniformly among the legal moves.
    """

    def __init__(self, model: Any = None, seed: int = 0):
        self._rng = random.Random(seed)
        self._policy: Policy | None = None
        self.model = model

    @property
    def model(self) -> Any:
        return self._model

    @model.setter
    def model(self, model: Any) -> None:
        self._model = model
        self._policy = None if model is None else SB3Policy.of(model)

    @property
    def policy(self) -> Policy | None:
        return self._policy

    @policy.setter
    def policy(self, policy: Any) -> None:
        self._model = None
        self._policy = None if policy is None else load_policy(policy)

    def __call__(self, observation: Observations) -> int:
        if self._policy is not None:
            return int(self._policy(observation))
        return self._rng.choice(np.flatnonzero(observation["action_mask"]).tolist())


class TableVecEnvMethods:
    """The methods of Stable-Baselines3's ``VecEnv`` over copies of a game's Gymnasium
    environment (the module docstring)."""

    def __init__(self, envs: Sequence[TwinTableEnv]):
        if not envs:
            raise ValueError("a vector of games needs at least one game")
        self.envs = list(envs)
        self.num_envs = len(self.envs)
        self.observation_space = self.envs[0].observation_space
        self.action_space = self.envs[0].action_space
        self.render_mode: str | None = None
        self.metadata: dict[str, Any] = {"render_modes": []}
        # What SB3's own VecEnv.__init__ would set, which this class does not call.
        self._seeds: list[int | None] = [None] * self.num_envs
        self._options: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self._seed: int | None = None
        self._actions: npt.NDArray[np.int64] | None = None
        self._observations: list[Observations] = []
        self._returns = np.zeros(self.num_envs)
        self._lengths = np.zeros(self.num_envs, dtype=np.int64)

    def _stack(self) -> Observations:
        return {key: np.stack([observation[key] for observation in self._observations])
                for key in self._observations[0]}

    # -- stepping ----------------------------------------------------------------------
    def reset(self) -> Observations:
        seed = self._seed
        self._observations = []
        for game, env in enumerate(self.envs):
            observation, info = env.reset(seed=None if seed is None else seed + game)
            self._observations.append(observation)
            self.reset_infos[game] = info
        self._seed = None
        self._returns[:] = 0
        self._lengths[:] = 0
        return self._stack()

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[Observations, npt.NDArray[np.float32],
                                 npt.NDArray[np.bool_], list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_async() first")
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=np.bool_)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for game, (env, action) in enumerate(zip(self.envs, self._actions, strict=True)):
            observation, reward, terminated, truncated, info = env.step(int(action))
            rewards[game] = float(reward)
            self._returns[game] += float(reward)
            self._lengths[game] += 1
            if terminated or truncated:
                dones[game] = True
                infos[game] = {
                    key: info[key] for key in ("winner", "winners", "score", "scores")
                    if key in info}
                infos[game].update({
                    "terminal_observation": observation,
                    "TimeLimit.truncated": bool(truncated and not terminated),
                    "episode": {"r": float(self._returns[game]),
                                "l": int(self._lengths[game])}})
                observation, self.reset_infos[game] = env.reset()
                self._returns[game] = 0
                self._lengths[game] = 0
            self._observations[game] = observation
        self._actions = None
        return self._stack(), rewards, dones, infos

    def step(self, actions: npt.NDArray[Any]) -> tuple[Any, ...]:
        self.step_async(actions)
        return self.step_wait()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal moves of every game now, ``(num_envs, n_actions)``."""
        return np.stack([observation["action_mask"] for observation in self._observations]
                        ).astype(np.bool_)

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
            return [lambda game=game: self._observations[game]["action_mask"].astype(bool)
                    for game in games]
        return [getattr(self.envs[game], attr_name) for game in games]

    def set_attr(self, attr_name: str, value: Any,
                 indices: int | Iterable[int] | None = None) -> None:
        for game in self._indices(indices):
            setattr(self.envs[game], attr_name, value)

    def env_method(self, method_name: str, *method_args: Any,
                   indices: int | Iterable[int] | None = None, **method_kwargs: Any
                   ) -> list[Any]:
        games = self._indices(indices)
        if method_name == "action_masks":
            return [self._observations[game]["action_mask"].astype(bool) for game in games]
        return [getattr(self.envs[game], method_name)(*method_args, **method_kwargs)
                for game in games]

    def env_is_wrapped(self, wrapper_class: type,
                       indices: int | Iterable[int] | None = None) -> list[bool]:
        return [isinstance(self.envs[game], wrapper_class) for game in self._indices(indices)]

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next reset (SB3's convention): game ``i`` then deals from seed + i."""
        self._seed = seed
        return [None if seed is None else seed + game for game in range(self.num_envs)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]

    def render(self, mode: str | None = None) -> np.ndarray | None:
        return None

    def close(self) -> None:
        for env in self.envs:
            env.close()


def _sb3_base() -> tuple[type, ...]:
    try:
        from stable_baselines3.common.vec_env import VecEnv
    except ImportError:
        return ()
    return (VecEnv,)


class TableVecEnv(TableVecEnvMethods, *_sb3_base()):  # type: ignore[misc]
    """:class:`TableVecEnvMethods`, and an SB3 ``VecEnv`` when Stable-Baselines3 is
    installed, so that SB3 and sb3-contrib accept it."""


def vec_env(game: str, num_envs: int, *, players: int | None = None,
            seat: int | None = None, opponents: Any = None,
            options: dict[str, Any] | None = None,
            make: Callable[..., TwinTableEnv] = TwinTableEnv,
            **env_kwargs: Any) -> TableVecEnv:
    """``num_envs`` games of ``game`` for Stable-Baselines3 (the module docstring); other
    keyword arguments (``reward``, ``dt``, ``max_steps``, ``max_ticks``, ...) go to each
    game's environment."""
    if num_envs < 1:
        raise ValueError("num_envs must be at least 1")
    first = make(game, players=players, seat=seat or 0, opponents=opponents,
                 options=dict(options or {}), **env_kwargs)
    seats = len(first.raw.possible_agents)
    envs = [first] + [make(game, players=players,
                           seat=(index % seats) if seat is None else seat,
                           opponents=opponents, options=dict(options or {}), **env_kwargs)
                      for index in range(1, num_envs)]
    return TableVecEnv(envs)


def __getattr__(name: str) -> Any:
    """A game's own adapter (``timo_vec_env``), from whichever ``<game>_sb3`` module
    publishes it."""
    for published, module in PUBLISHED.items():
        if published.endswith("_sb3"):
            found = getattr(import_module(module), name, None)
            if found is not None:
                return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["SelfPlay", "TableVecEnv", "TableVecEnvMethods", "vec_env"]
