"""Timo's Twist as a Gymnasium vector environment whose opponents can be any policy.

:class:`TimoSelfPlayVectorEnv` has the interface, seeds, rewards, autoreset and infos of
:class:`~twintable.envs.timo_vector.TimoVectorEnv` (docs/envs_timo.md), but steps its
games in Python (one ``timo_v0`` environment each, on the C engine when it was built),
so that the other seats may be played, game by game, by:

- ``"greedy"``: the vector engine's fixed policy (the same games as ``TimoVectorEnv``);
- ``"random"``: uniformly among the moves the seat is asked (wait included in a race),
  from a generator seeded by each deal;
- a bot of the game by name (``"heuristic"``, ``"search"``, ...), which sees only its
  seat's view and is offered only the moves its seat is asked (``envs.opponents``);
- a **policy**: a callable taking a batch of observations, ``{"observation": (k, d),
  "action_mask": (k, 125)}``, and returning ``k`` action indices. Every game waiting on
  the same callable is asked in one batch, so a learner can play a frozen snapshot of
  itself (self-play) at the cost of one call per opponent move across the batch. A
  policy's index whose mask bit is 0 raises :class:`OpponentMoveError`, naming it.

It is slower than the C vector engine (every move crosses into Python); use that one
whenever the opponents are ``"greedy"`` or ``"random"``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from twintable.bots.base import Bot
from twintable.bots.registry import bot_factories, resolve_bot
from twintable.envs.errors import OpponentMoveError
from twintable.envs.opponents import turn_move
from twintable.games.timo import env as timo_v0
from twintable.games.timo.plugin import entry as timo_entry
from twintable.games.timo.research import codec
from twintable.games.timo.research.policy import greedy_index
from twintable.games.timo.research.vector import Episodes, Observation, not_legal

#: A batch of observations -> one action index per observation.
Policy = Callable[[Observation], Any]
Opponent = str | Policy


class TimoSelfPlayVectorEnv(VectorEnv):
    """``num_envs`` games of Timo's Twist, one learning seat each, the other seats played
    by the opponent given for that game; see the module docstring."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(self, num_envs: int, players: int = 2,
                 options: Mapping[str, Any] | None = None, learner: int = 0,
                 opponents: Opponent | Sequence[Opponent] = "greedy"):
        if num_envs < 1 or not 0 <= learner < players:
            raise ValueError("num_envs must be positive and learner a seat")
        self.num_envs, self.players, self.learner = num_envs, players, learner
        self.envs = [timo_v0.raw_env(players, options) for _ in range(num_envs)]
        first = self.envs[0]
        self.options = first.options
        self.learner_agent = first.possible_agents[learner]
        self.single_observation_space = first.observation_space(self.learner_agent)
        self.single_action_space = spaces.Discrete(codec.N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._bot_names = bot_factories(timo_entry())
        self.set_opponents(opponents)
        self._games = Episodes(num_envs)
        self._base = 0
        self._episodes = [0] * num_envs
        self._needs_reset = [False] * num_envs
        self._rngs = [random.Random(0) for _ in range(num_envs)]
        self._bots: list[dict[int, Bot]] = [{} for _ in range(num_envs)]
        self._observations: list[dict[str, npt.NDArray[Any]]] = []

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """One opponent for every game, or one per game; it applies from the next deal
        for a bot name, from the next move otherwise."""
        if isinstance(opponents, str) or callable(opponents):
            chosen: list[Opponent] = [opponents] * self.num_envs
        else:
            chosen = list(opponents)
        if len(chosen) != self.num_envs:
            raise ValueError(f"give one opponent per game: {self.num_envs}, not {len(chosen)}")
        # Levels (``"hard"``) read as the bots they seat.
        chosen = [resolve_bot(timo_entry(), name) or name if isinstance(name, str) else name
                  for name in chosen]
        known = {"greedy", *self._bot_names}
        unknown = sorted({name for name in chosen if isinstance(name, str)} - known)
        if unknown:
            raise ValueError(f"unknown opponent(s) {', '.join(unknown)}; choose from "
                             f"{', '.join(sorted(known))}, or give a policy")
        self.opponents = tuple(chosen)

    # -- the vector cycle ----------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Deal every game afresh (``options`` are not used: the game's are fixed)."""
        self._base = self._games.reset(seed)
        self._episodes = [0] * self.num_envs
        for game in range(self.num_envs):
            self._start(game)
        self._advance(list(range(self.num_envs)), np.zeros(self.num_envs))
        self._skip_finished()
        return self._observation(), {}

    def step(self, actions: Any) -> tuple[Observation, npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                          dict[str, Any]]:
        indices = self._games.indices(actions)
        for game, index in enumerate(indices):
            mask = self._observations[game]["action_mask"]
            if not self._needs_reset[game] and not (0 <= index < len(mask) and mask[index]):
                raise not_legal(game, index)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        moved, restarted = [], []
        for game, index in enumerate(indices):
            if self._needs_reset[game]:
                self._episodes[game] += 1
                self._start(game)
                restarted.append(game)
                continue
            env = self.envs[game]
            env.step(int(index))
            rewards[game] += env.rewards[self.learner_agent]
            moved.append(game)
        self._advance(moved, rewards)
        self._advance(restarted, np.zeros(self.num_envs))
        self._skip_finished(restarted)
        scores = np.zeros((self.num_envs, self.players), dtype=np.int64)
        winners = np.full(self.num_envs, -1, dtype=np.int64)
        for game in moved:
            state = self.envs[game].state
            if state.over:
                terminated[game] = True
                self._needs_reset[game] = True
                scores[game] = state.scores
                winners[game] = state.round_winner
        self._games.returns += rewards
        infos: dict[str, Any] = {}
        if terminated.any():
            infos = self._games.final_infos(terminated, winners, scores)
        self._observations = [env.observe(self.learner_agent) for env in self.envs]
        return (self._observation(), rewards, terminated,
                np.zeros(self.num_envs, dtype=np.bool_), infos)

    # -- inside ------------------------------------------------------------------------
    def _start(self, game: int) -> None:
        seed = (self._base + game + self._episodes[game] * self.num_envs) % 2**64
        self.envs[game].reset(seed=seed)
        self._needs_reset[game] = False
        self._rngs[game] = random.Random(seed)
        opponent = self.opponents[game]
        if isinstance(opponent, str) and opponent in self._bot_names:
            factory = self._bot_names[opponent]
            self._bots[game] = {seat: factory() for seat in range(self.players)
                                if seat != self.learner}

    def _skip_finished(self, games: Sequence[int] | None = None) -> None:
        """An episode that ended before the learner's first decision is skipped."""
        for game in range(self.num_envs) if games is None else games:
            while self.envs[game].state.over:
                self._episodes[game] += 1
                self._start(game)
                self._advance([game], np.zeros(self.num_envs))
        self._observations = [env.observe(self.learner_agent) for env in self.envs]

    def _advance(self, games: Sequence[int], rewards: npt.NDArray[np.float64]) -> None:
        """Let the opponents move until each game's learner must act or the game is over,
        asking each policy once per round of moves for all the games waiting on it."""
        waiting = [game for game in games if self._opponent_to_move(game)]
        while waiting:
            by_policy: dict[int, list[int]] = {}
            for game in waiting:
                opponent = self.opponents[game]
                if isinstance(opponent, str):
                    self._play(game, self._named_move(game, opponent), rewards)
                else:
                    by_policy.setdefault(id(opponent), []).append(game)
            for group in by_policy.values():
                self._policy_moves(group, rewards)
            waiting = [game for game in waiting if self._opponent_to_move(game)]

    def _opponent_to_move(self, game: int) -> bool:
        env = self.envs[game]
        return not env.state.over and env.agent_selection != self.learner_agent

    def _play(self, game: int, index: int, rewards: npt.NDArray[np.float64]) -> None:
        env = self.envs[game]
        env.step(index)
        rewards[game] += env.rewards[self.learner_agent]

    def _named_move(self, game: int, name: str) -> int:
        env, rng = self.envs[game], self._rngs[game]
        agent = env.agent_selection
        seat = env.seat(agent)
        if name == "greedy":
            return int(env.state.greedy_index(seat, env.reacting)) if env.native else \
                greedy_index(env.game.view(env.state, seat), env.reacting)
        mask = env.observe(agent)["action_mask"]
        if name == "random":
            return int(rng.choice(np.flatnonzero(mask).tolist()))
        move = turn_move(env, agent, self._bots[game][seat], mask, rng)
        return int(env.index_of(move))

    def _policy_moves(self, games: list[int], rewards: npt.NDArray[np.float64]) -> None:
        policy = self.opponents[games[0]]
        assert callable(policy)
        seen = [self.envs[game].observe(self.envs[game].agent_selection) for game in games]
        batch = {key: np.stack([observation[key] for observation in seen])
                 for key in ("observation", "action_mask")}
        chosen = np.asarray(policy(batch), dtype=np.int64).reshape(-1)
        if chosen.shape != (len(games),):
            raise OpponentMoveError(f"the opponent policy returned {chosen.shape[0]} "
                                    f"indices for {len(games)} observations")
        for game, index, observation in zip(games, chosen, seen, strict=True):
            mask = observation["action_mask"]
            if not (0 <= index < len(mask) and mask[index]):
                agent = self.envs[game].agent_selection
                raise OpponentMoveError(
                    f"the opponent policy playing {agent} in game {game} chose action "
                    f"{index}, which its mask forbids; the policy is at fault, not the "
                    "learner")
            self._play(game, int(index), rewards)

    def _observation(self) -> Observation:
        return {key: np.stack([observation[key] for observation in self._observations])
                for key in ("observation", "action_mask")}

    def episode(self, game: int) -> tuple[int, int, bool]:
        """Game ``game``'s episode number, engine seed, and whether its learner is asked
        about a TIMO! race now (as ``TimoVectorEnv.episode``)."""
        seed = (self._base + game + self._episodes[game] * self.num_envs) % 2**64
        return self._episodes[game], seed, self.envs[game].reacting


__all__ = ["Opponent", "Policy", "TimoSelfPlayVectorEnv"]
