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
``twintable.envs.<game>_sb3`` and reachable from here by name too; it subclasses
:class:`VecEnvMethods`, what every adapter shares.

An algorithm that does not read ``action_masks()`` (plain PPO, A2C) samples illegal
moves: give it ``vec_env(..., illegal_action="penalty")``, where such a move is never
played and ends the game with ``illegal_reward`` (``info["illegal_action"]``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from importlib import import_module
from typing import Any

import numpy as np
import numpy.typing as npt

from twintable.bots.user import Policy, SB3Policy, load_policy
from twintable.envs.errors import IllegalActionError
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


class VecEnvMethods:
    """What every Stable-Baselines3 ``VecEnv`` of this project shares, whatever steps its
    games: SB3's bookkeeping (what ``VecEnv.__init__`` would set, which these classes do
    not call), ``step``, seeding, the per-game ``get_attr``/``set_attr``/``env_method``
    with sb3-contrib's way of asking for masks, and no rendering.

    A subclass steps the games (``reset``, ``step_wait``, ``close``) and says what one
    game is: :meth:`_mask` (its legal moves now), :meth:`_attr`, :meth:`_set_attr`,
    :meth:`_method` and :meth:`_is_wrapped`. Subclass it together with :func:`sb3_bases`
    (``class MyVecEnv(MyMethods, *sb3_bases())``) so that SB3 accepts the class where it
    is installed and code that only needs the interface runs where it is not.
    """

    def __init__(self, num_envs: int, observation_space: Any, action_space: Any):
        self.num_envs = num_envs
        self.observation_space = observation_space
        self.action_space = action_space
        self.render_mode: str | None = None
        self.metadata: dict[str, Any] = {"render_modes": []}
        self._seeds: list[int | None] = [None] * num_envs
        self._options: list[dict[str, Any]] = [{} for _ in range(num_envs)]
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(num_envs)]
        self._seed: int | None = None
        self._actions: npt.NDArray[np.int64] | None = None

    # -- what a subclass says about one game -------------------------------------------
    def _mask(self, game: int) -> npt.NDArray[np.bool_]:
        """Game ``game``'s legal moves now (a copy the caller may keep)."""
        raise NotImplementedError

    def _attr(self, game: int, name: str) -> Any:
        raise NotImplementedError

    def _set_attr(self, game: int, name: str, value: Any) -> None:
        raise NotImplementedError

    def _method(self, game: int, name: str) -> Callable[..., Any]:
        raise NotImplementedError

    def _is_wrapped(self, game: int, wrapper_class: type) -> bool:
        raise NotImplementedError

    # -- stepping ----------------------------------------------------------------------
    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def _take_actions(self) -> npt.NDArray[np.int64]:
        """The actions :meth:`step_async` stored, once."""
        if self._actions is None:
            raise RuntimeError("step_async() first")
        actions, self._actions = self._actions, None
        return actions

    def step(self, actions: npt.NDArray[Any]) -> tuple[Any, ...]:
        self.step_async(actions)
        return self.step_wait()  # type: ignore[attr-defined, no-any-return]

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal moves of every game now, ``(num_envs, n_actions)``."""
        return np.stack([self._mask(game) for game in range(self.num_envs)])

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
            return [lambda game=game: self._mask(game) for game in games]
        return [self._attr(game, attr_name) for game in games]

    def set_attr(self, attr_name: str, value: Any,
                 indices: int | Iterable[int] | None = None) -> None:
        for game in self._indices(indices):
            self._set_attr(game, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any,
                   indices: int | Iterable[int] | None = None, **method_kwargs: Any
                   ) -> list[Any]:
        games = self._indices(indices)
        if method_name == "action_masks":
            return [self._mask(game) for game in games]
        return [self._method(game, method_name)(*method_args, **method_kwargs)
                for game in games]

    def env_is_wrapped(self, wrapper_class: type,
                       indices: int | Iterable[int] | None = None) -> list[bool]:
        return [self._is_wrapped(game, wrapper_class) for game in self._indices(indices)]

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next reset (SB3's convention): game ``i`` then deals from seed + i."""
        self._seed = seed
        return [None if seed is None else seed + game for game in range(self.num_envs)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]

    def render(self, mode: str | None = None) -> np.ndarray | None:
        return None


def sb3_bases() -> tuple[type, ...]:
    """SB3's ``VecEnv`` where Stable-Baselines3 is installed, else nothing: the bases a
    :class:`VecEnvMethods` subclass adds so that SB3 and sb3-contrib accept it."""
    try:
        from stable_baselines3.common.vec_env import VecEnv
    except ImportError:
        return ()
    return (VecEnv,)


class TableVecEnvMethods(VecEnvMethods):
    """:class:`VecEnvMethods` over copies of a game's Gymnasium environment, stepped one
    after another (the module docstring)."""

    def __init__(self, envs: Sequence[TwinTableEnv]):
        if not envs:
            raise ValueError("a vector of games needs at least one game")
        self.envs = list(envs)
        super().__init__(len(self.envs), self.envs[0].observation_space,
                         self.envs[0].action_space)
        self._observations: list[Observations] = []
        self._returns = np.zeros(self.num_envs)
        self._lengths = np.zeros(self.num_envs, dtype=np.int64)

    def _stack(self) -> Observations:
        return {key: np.stack([observation[key] for observation in self._observations])
                for key in self._observations[0]}

    def _mask(self, game: int) -> npt.NDArray[np.bool_]:
        return self._observations[game]["action_mask"].astype(np.bool_)

    def _attr(self, game: int, name: str) -> Any:
        return getattr(self.envs[game], name)

    def _set_attr(self, game: int, name: str, value: Any) -> None:
        setattr(self.envs[game], name, value)

    def _method(self, game: int, name: str) -> Callable[..., Any]:
        return getattr(self.envs[game], name)  # type: ignore[no-any-return]

    def _is_wrapped(self, game: int, wrapper_class: type) -> bool:
        return isinstance(self.envs[game], wrapper_class)

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

    def step_wait(self) -> tuple[Observations, npt.NDArray[np.float32],
                                 npt.NDArray[np.bool_], list[dict[str, Any]]]:
        actions = self._take_actions()
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=np.bool_)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for game, (env, action) in enumerate(zip(self.envs, actions, strict=True)):
            observation, reward, terminated, truncated, info = self._step_one(env, action)
            rewards[game] = float(reward)
            self._returns[game] += float(reward)
            self._lengths[game] += 1
            if terminated or truncated:
                dones[game] = True
                infos[game] = {
                    key: info[key] for key in ("winner", "winners", "score", "scores",
                                               "illegal_action")
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
        return self._stack(), rewards, dones, infos

    @staticmethod
    def _step_one(env: TwinTableEnv, action: np.int64) -> tuple[Any, ...]:
        try:
            return env.step(int(action))
        except IllegalActionError as error:
            # Plain PPO, A2C, DQN sample without the mask: say what to do instead.
            raise IllegalActionError(
                f"{error} (an algorithm that does not read action_masks(), such as "
                "plain PPO, needs vec_env(..., illegal_action='penalty'): an illegal "
                "move then ends the game with illegal_reward; sb3-contrib's MaskablePPO "
                "never plays one)") from error

    def close(self) -> None:
        for env in self.envs:
            env.close()


class TableVecEnv(TableVecEnvMethods, *sb3_bases()):  # type: ignore[misc]
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


__all__ = ["SelfPlay", "TableVecEnv", "TableVecEnvMethods", "VecEnvMethods", "sb3_bases",
           "vec_env"]
