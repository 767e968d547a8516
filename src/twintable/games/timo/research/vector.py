"""Timo's Twist as a Gymnasium vector environment: N games stepped together in C.

Each of the ``num_envs`` games has one learning seat (``learner``, seat 0 by default)
whose action comes from :meth:`TimoVectorEnv.step`; every other seat is played inside the
C engine, game by game (``opponents``), either by the fixed policy of
``twintable.games.timo.research.policy`` (``"greedy"``: react to every TIMO! race at once, always
call TIMO! with the play, play the card just drawn, else the first playable coloured
card, else a black card naming the colour held most, draw only when nothing can be
played) or uniformly at random among the moves the seat is asked (``"random"``, seeded
from each deal). Opponents that are a policy of your own (self-play) need a step per
opponent move from Python: ``twintable.envs.timo_selfplay``. The rules, the deals, the
observation and mask encoding, the race order and the rewards are ``timo_v0``'s
(docs/envs_timo.md): an episode here is the same game as ``timo_v0`` with the other
seats played by those opponents, which
tests/games/timo/research/test_vector.py checks step by step.

- **Spaces**: ``single_observation_space`` is ``timo_v0``'s Dict (``observation``,
  ``action_mask``); observations come batched as ``{"observation": (N, 171 + 4p) float32,
  "action_mask": (N, 125) int8}``; actions are an ``int64`` array of N indices.
- **Refusals**: if any game's action has mask bit 0, :class:`IllegalActionError` names
  it and no game moves.
- **Rewards**: the learner's ``timo_v0`` rewards summed from its action to its next
  decision; rewards earned before its first decision of an episode are not reported.
- **Seeds**: ``reset(seed=s)`` deals game ``i``'s ``k``-th episode with engine seed
  ``(s + i + k * num_envs) mod 2**64``, the same deal as ``TimoGame().new_state(options,
  players, that seed)``. An episode that ends before the learner's first decision (a
  round won straight through skips, possible only with a tiny target) is skipped for
  the next.
- **Autoreset**: Gymnasium's next-step mode by default: the step that ends a game returns
  its last observation with ``terminated`` True; the following step ignores that game's
  action and returns the first observation of its next episode, with reward 0. With
  ``autoreset_mode=AutoresetMode.SAME_STEP`` the step that ends a game already returns
  the next episode's first observation, and its last one is in ``infos["final_obs"]``
  (an object array, ``_final_obs`` its mask), as Gymnasium's vector environments do and
  Stable-Baselines3 expects (``twintable.envs.sb3``). Both modes deal the same episodes.
- **Infos**: empty while no game ends. At a step where some games end, ``infos`` holds
  Gymnasium's vector-info arrays, each with its ``_name`` mask of the games that ended:
  ``winner`` (the seat that reached the target), ``scores`` (final points, one column
  per seat), ``returns`` (every seat's ``timo_v0`` return for the whole game: its final
  score minus the average, over 100) and ``episode_return`` (the learner's rewards this
  environment reported over the episode).
- **Speed**: the engine writes into the arrays it returns, with the GIL released and the
  games split between ``threads`` threads (workers kept alive between steps). With
  ``copy=False`` the returned arrays are the engine's own and the next step overwrites
  them; the default returns copies.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from twintable.envs.errors import IllegalActionError
from twintable.games.timo.cards import load_deck
from twintable.games.timo.fast import NATIVE
from twintable.games.timo.research import codec
from twintable.games.timo.rules import TimoGame

Observation = dict[str, npt.NDArray[Any]]
#: The C engine's opponents, in the order of its kinds.
OPPONENTS = ("greedy", "random")


class TimoVectorEnv(VectorEnv):
    """``num_envs`` games of Timo's Twist, one learning seat each; see the module."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(self, num_envs: int, players: int = 2,
                 options: Mapping[str, Any] | None = None, learner: int = 0,
                 threads: int | None = None, copy: bool = True,
                 opponents: str | Sequence[str] = "greedy",
                 autoreset_mode: AutoresetMode = AutoresetMode.NEXT_STEP):
        if not NATIVE:
            raise RuntimeError("the vector engine needs the C engine of Timo's Twist, "
                               "which was not built (no C compiler at install)")
        from twintable.games.timo import _native

        game = TimoGame()
        self.options = game.resolve_options(options)
        game.check_players(players, self.options)
        if self.options["teams"]:
            # Its episodes reward the learner's seat alone: a team game is not its to play.
            raise ValueError("the vector engine plays every seat for itself: no 'teams' "
                             "option (the timo_v0 environment plays teams)")
        if num_envs < 1 or not 0 <= learner < players:
            raise ValueError("num_envs must be positive and learner a seat")
        self.num_envs, self.players, self.learner, self.copy = num_envs, players, learner, copy
        if autoreset_mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError("autoreset_mode must be NEXT_STEP or SAME_STEP")
        self.autoreset_mode = autoreset_mode
        self.metadata = {"autoreset_mode": autoreset_mode}
        self.threads = threads if threads is not None else min(2, os.cpu_count() or 1)
        deck = load_deck(self.options["deck"])
        layout = codec.layout(players, deck, self.options["target"])
        self.single_observation_space = spaces.Dict({
            "observation": layout.box(),
            "action_mask": spaces.Box(0, 1, (codec.N_ACTIONS,), np.int8),
        })
        self.single_action_space = spaces.Discrete(codec.N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._observations = np.zeros((num_envs, layout.size), dtype=np.float32)
        self._masks = np.zeros((num_envs, codec.N_ACTIONS), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._engine = _native.Vector(
            bytes(deck.colour), bytes(deck.rank), bytes(deck.points), players,
            self.options["stacking"], self.options["draw_when_able"], self.options["target"],
            learner, self.threads, self._observations, self._masks, self._rewards,
            self._terminations, hand_size=self.options["hand_size"])
        self._episodes = Episodes(num_envs)
        self.set_opponents(opponents)

    def set_opponents(self, opponents: str | Sequence[str]) -> None:
        """Who plays the other seats, one name for every game or one per game
        (``"greedy"`` or ``"random"``; ``timo_vec_env`` also reads the levels that seat
        them, ``"easy"`` and ``"beginner"``); it applies from the next move on."""
        names = [opponents] * self.num_envs if isinstance(opponents, str) else list(opponents)
        if len(names) != self.num_envs:
            raise ValueError(f"give one opponent per game: {self.num_envs}, not {len(names)}")
        unknown = sorted(set(names) - set(OPPONENTS))
        if unknown:
            raise ValueError(f"unknown opponent(s) {', '.join(unknown)}; choose from "
                             f"{', '.join(OPPONENTS)} (a policy of your own: "
                             "twintable.envs.timo_selfplay)")
        self.opponents = tuple(names)
        self._engine.set_opponents(bytes(OPPONENTS.index(name) for name in names))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Deal every game afresh (``options`` are not used: the game's are fixed)."""
        self._engine.reset(self._episodes.reset(seed))
        return self._observation(), {}

    def step(self, actions: Any) -> tuple[Observation, npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                          dict[str, Any]]:
        refused = self._engine.step(self._episodes.indices(actions))
        if refused is not None:
            raise not_legal(*refused)
        self._episodes.returns += self._rewards
        infos = self._final_infos() if self._terminations.any() else {}
        if infos and self.autoreset_mode == AutoresetMode.SAME_STEP:
            ended = np.flatnonzero(self._terminations)
            final_obs = np.full(self.num_envs, None, dtype=object)
            for slot in ended:
                final_obs[slot] = {"observation": self._observations[slot].copy(),
                                   "action_mask": self._masks[slot].copy()}
            infos["final_obs"], infos["_final_obs"] = final_obs, self._terminations.copy()
            self._engine.restart_ended()
        if self.copy:
            return (self._observation(), self._rewards.copy(), self._terminations.copy(),
                    self._truncations.copy(), infos)
        return (self._observation(), self._rewards, self._terminations, self._truncations,
                infos)

    def _final_infos(self) -> dict[str, Any]:
        """The results of the games that ended this step (see the module docstring)."""
        ended = self._terminations.copy()
        winners = np.full(self.num_envs, -1, dtype=np.int64)
        scores = np.zeros((self.num_envs, self.players), dtype=np.int64)
        for game in np.flatnonzero(ended):
            final, winners[game], _ = self._engine.result(int(game))
            scores[game] = final
        return self._episodes.final_infos(ended, winners, scores)

    def _observation(self) -> Observation:
        if self.copy:
            return {"observation": self._observations.copy(), "action_mask": self._masks.copy()}
        return {"observation": self._observations, "action_mask": self._masks}

    def episode(self, game: int) -> tuple[int, int, bool]:
        """Game ``game``'s episode number, engine seed, and whether its learner is asked
        about a TIMO! race now."""
        episode, seed, reacting = self._engine.episode(game)
        return int(episode), int(seed), bool(reacting)


def not_legal(game: int, index: int) -> IllegalActionError:
    return IllegalActionError(f"action {index} is not legal in game {game} now; "
                              "no game moved")


class Episodes:
    """What every vector environment of Timo's Twist keeps about its episodes: the seeds
    of resets (``reset(seed=s)`` deals from ``s``; a reset without a seed draws the next
    from a generator seeded with the last ``s``), the learner's running returns, and the
    check of a step's actions."""

    def __init__(self, num_envs: int):
        self.num_envs = num_envs
        self._seeds = np.random.default_rng()
        self.returns = np.zeros(num_envs, dtype=np.float64)

    def reset(self, seed: int | None) -> int:
        """The base seed of the games dealt now; every return starts again from 0."""
        if seed is not None:
            if not 0 <= seed < 2**64:
                raise ValueError(f"seeds go from 0 to 2**64 - 1, not {seed}")
            self._seeds = np.random.default_rng(seed)
        else:
            seed = int(self._seeds.integers(0, 2**63))
        self.returns[:] = 0
        return seed

    def indices(self, actions: Any) -> npt.NDArray[np.int64]:
        """One action index per game, or IllegalActionError before any game moves."""
        indices = np.ascontiguousarray(actions, dtype=np.int64)
        if indices.shape != (self.num_envs,):
            raise IllegalActionError(f"expected {self.num_envs} action indices, "
                                     f"got shape {indices.shape}")
        return indices

    def final_infos(self, ended: npt.NDArray[np.bool_], winners: npt.NDArray[np.int64],
                    scores: npt.NDArray[np.int64]) -> dict[str, Any]:
        """Gymnasium's vector infos for the games that ended (``ended``): winner, scores,
        every seat's return for the game and the learner's episode return, which is then
        cleared for the next episode."""
        players = scores.shape[1]
        returns = (players * scores - scores.sum(axis=1, keepdims=True)) / (100.0 * players)
        episode_return = np.where(ended, self.returns, 0.0)
        self.returns[ended] = 0.0
        return {"winner": winners, "_winner": ended, "scores": scores,
                "_scores": ended.copy(), "returns": returns, "_returns": ended.copy(),
                "episode_return": episode_return, "_episode_return": ended.copy()}
