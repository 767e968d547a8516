"""Gymnasium single-agent environments: one learning seat against the project's bots.

:class:`TwinTableEnv` wraps any game's AEC environment (``twintable.envs.<game>_v0``):
the learner plays one seat, and every other seat is played by a bot of the game's own
registry (``twintable.bots.registry``), which sees only its seat's view, as at a table.
A step is one move of the learner (one tick in Twin It); the bots move in between.

Importing this module registers the Gymnasium id of every game whose entry declares one
(``gym_id``: ``twintable/Timo-v0``, ``twintable/Twins-v0``, ...), so ::

    gymnasium.make("twintable.envs.gym:twintable/Twins-v0", players=4, opponents="strong")

works from a fresh interpreter (Gymnasium imports the module named before the colon).

The observation is the learner's dict observation (``observation`` and ``action_mask``);
``info["action_mask"]`` holds the mask too. An action the mask forbids raises
:class:`~twintable.envs.IllegalActionError` and changes nothing; with
``illegal_action="penalty"`` it instead ends the episode with ``illegal_reward`` and
``info["illegal_action"] = True``, still without playing it (Gymnasium's ``check_env``
samples actions without a mask, so it runs in that mode).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from twintable.bots.base import Bot
from twintable.bots.registry import bot_factory, resolve_bot, unknown_bot_message
from twintable.bots.user import POLICY_SUFFIXES, Policy, load_policy
from twintable.core.registry import default_registry
from twintable.envs.errors import IllegalActionError, OpponentMoveError
from twintable.envs.extension import EnvGame
from twintable.envs.opponents import asked_view, timed_move
from twintable.envs.registry import env_module

#: Gymnasium id -> game id, as each game's ``"envs"`` extension declares it.
GYM_IDS = {gym_id: entry.id for entry in default_registry().entries()
           if (gym_id := entry.extension(EnvGame).gym_id) is not None}
ILLEGAL_ACTIONS = ("raise", "penalty")

Observation = dict[str, np.ndarray]
#: Who plays another seat: a bot's name, a level (``"hard"``, ``"Expert"``), a user's
#: agent (``"module:Class"``, ``"policy.npz"``, ``"model.zip"``) or a policy callable.
Opponent = str | Policy


def is_policy(opponent: Any) -> bool:
    """Whether ``opponent`` plays from observations (a callable or a saved policy)
    rather than from its view (a bot)."""
    return callable(opponent) or (isinstance(opponent, str)
                                  and opponent.strip().lower().endswith(POLICY_SUFFIXES))


class TwinTableEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a Twin Table game as a Gymnasium environment; bots play the rest.

    ``opponents``: who plays every other seat (None: the game's default stand-in bot), or
    a list with one per other seat in seat order: a bot's name (``"heuristic"``,
    ``"strong"``), a level on the shared scale (``"hard"``, ``"Expert"``), a user's agent
    (``"module:Class"``, ``"policy.npz"``, ``"model.zip"``: ``twintable.bots.user``), or a
    policy callable (observation dict -> action index) that plays from its seat's
    observation: pass the learner's own policy for self-play. ``seat``: the learner's
    seat. Other keyword arguments (``players``, ``options``, ``dt``, ``reward``,
    ``max_steps``, ``max_ticks``, ...) go to the game's environment.
    """

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (gymnasium.Env declares it)

    def __init__(self, game: str, players: int | None = None, seat: int = 0,
                 opponents: Opponent | Sequence[Opponent] | None = None,
                 options: dict[str, Any] | None = None, render_mode: str | None = None,
                 illegal_action: str = "raise", illegal_reward: float = -1.0,
                 **env_kwargs: Any):
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        kwargs = dict(env_kwargs, options=options, render_mode=render_mode)
        if players is not None:
            kwargs["players"] = players
        self.game_id = game
        self.aec = env_module(game).env(**kwargs)
        self.raw = self.aec.unwrapped
        self.game = self.raw.game
        self.entry = _entry(game)
        agents: list[str] = list(self.raw.possible_agents)
        if not 0 <= seat < len(agents):
            raise ValueError(f"seat must be 0 to {len(agents) - 1}")
        self.seat = seat
        self.learner = agents[seat]
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.realtime = self.game.realtime
        self.wait_index = self._find_wait_index()
        self.opponents = self._lineup(opponents, len(agents))
        #: Each other seat's opponent as a name (a policy callable: its repr).
        self.bot_names = {other: opponent if isinstance(opponent, str) else repr(opponent)
                          for other, opponent in self.opponents.items()}
        self.observation_space = self.raw.observation_space(self.learner)
        self.action_space = self.raw.action_space(self.learner)
        self._bots: dict[int, Bot] = {}
        self._policies: dict[int, Policy] = {
            other: load_policy(opponent) for other, opponent in self.opponents.items()
            if is_policy(opponent)}
        self._bot_rng = random.Random(0)
        self._mask: np.ndarray | None = None
        self._done = True

    def _find_wait_index(self) -> int | None:
        """The index of "not now", for a bot that lets a race go by (None: no such move)."""
        declared = getattr(self.raw, "wait_index", None)
        if declared is not None:
            return int(declared)
        try:
            return int(self.raw.index_of(None))
        except (AttributeError, TypeError, ValueError, KeyError):
            return None

    def _lineup(self, opponents: Opponent | Sequence[Opponent] | None, players: int
                ) -> dict[int, Opponent]:
        others = [other for other in range(players) if other != self.seat]
        if opponents is None:
            names: list[Opponent] = [self.entry.default_bot] * len(others)
        elif isinstance(opponents, str) or callable(opponents):
            names = [opponents] * len(others)
        else:
            names = list(opponents)
            if len(names) != len(others):
                raise ValueError(f"give one bot per other seat: {len(others)}, "
                                 f"not {len(names)}")
        unknown = [name for name in names if isinstance(name, str) and not is_policy(name)
                   and resolve_bot(self.entry, name) is None]
        if unknown:
            raise ValueError(unknown_bot_message(self.entry, unknown))
        # Levels read as the bots they seat, so bot_names says who played.
        seated = [name if not isinstance(name, str) or is_policy(name)
                  else resolve_bot(self.entry, name) for name in names]
        return {other: name for other, name in zip(others, seated, strict=True)
                if name is not None}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        env_seed, bot_seed = (int(value) for value in
                              self.np_random.integers(0, 2**31 - 1, size=2))
        self.aec.reset(seed=env_seed)
        self._bots = {other: bot_factory(self.entry, name)()
                      for other, name in self.opponents.items()
                      if isinstance(name, str) and other not in self._policies}
        self._bot_rng = random.Random(bot_seed)
        observation, _, terminated, truncated, info = self._until_learner()
        self._done = terminated or truncated
        return observation, info

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool,
                                         dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        if self.illegal_action == "penalty" and not self._allowed(action):
            mask = self._mask if self._mask is not None else np.zeros(0, np.int8)
            observation = {key: np.array(value, copy=True)
                           for key, value in self.aec.observe(self.learner).items()}
            self._done = True
            return observation, self.illegal_reward, True, False, {
                "illegal_action": True, "action_mask": mask.copy()}
        self.aec.step(action)
        result = self._until_learner()
        self._done = result[2] or result[3]
        return result

    def _allowed(self, action: Any) -> bool:
        mask = self._mask
        try:
            number = int(action)
        except (TypeError, ValueError):
            return False
        return mask is not None and 0 <= number < len(mask) and bool(mask[number])

    def _until_learner(self) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Let the bots move until the learner must act or its episode has ended."""
        aec = self.aec
        while True:
            agent = aec.agent_selection
            if agent == self.learner:
                observation, reward, terminated, truncated, info = aec.last()
                observation = {key: np.array(value, copy=True)
                               for key, value in observation.items()}
                self._mask = observation["action_mask"]
                info = dict(info, action_mask=observation["action_mask"].copy())
                return observation, float(reward), bool(terminated), bool(truncated), info
            if aec.terminations[agent] or aec.truncations[agent]:
                aec.step(None)
                continue
            self._bot_move(agent)

    def _policy_move(self, agent: str, policy: Policy) -> None:
        """A policy opponent's move, from its seat's own observation (a masked index)."""
        observation = self.aec.observe(agent)
        index = policy(observation)
        try:
            self.aec.step(int(index))
        except IllegalActionError as error:
            raise OpponentMoveError(f"the policy playing {agent} chose index {index}, which "
                                    f"its mask does not allow ({error}); the policy is at "
                                    "fault, not the learner") from error

    def _bot_move(self, agent: str) -> None:
        seat = self.raw.seat(agent)
        policy = self._policies.get(seat)
        if policy is not None:
            self._policy_move(agent, policy)
            return
        bot = self._bots[seat]
        view = self._view(agent, seat)
        if self.realtime:
            action = timed_move(self.raw, self.entry, seat, bot, view, self._bot_rng)
        else:
            action = bot.act(view, self._bot_rng)
        if action is None:
            if self.wait_index is None:
                raise RuntimeError(f"the {bot.name} bot made no move for {agent}, and "
                                   f"{self.game_id} has no wait action")
            self.aec.step(self.wait_index)
            return
        try:
            index = self.raw.index_of(action)
        except (KeyError, ValueError):
            # A move the action space cannot name (a Twinz word bot's word outside the
            # vocabulary): environments that allow it play engine actions directly.
            step_action = getattr(self.raw, "step_action", None)
            if step_action is None:
                raise
            index, play = None, step_action
        else:
            play = self.aec.step
        argument = action if index is None else index
        if not self.realtime:
            try:
                play(argument)
            except IllegalActionError as error:
                raise OpponentMoveError(f"the {bot.name} bot playing {agent} chose a move "
                                        f"the environment does not allow now ({error}); "
                                        "the bot is at fault, not the learner") from error
            return
        try:
            play(argument)
        except IllegalActionError:
            # In a race the table may have changed since the bot looked (the simulator
            # lets such a move fail too): the bot waits this tick.
            assert self.wait_index is not None
            self.aec.step(self.wait_index)

    def _view(self, agent: str, seat: int) -> Any:
        """The bot's view; in a turn-based game its legal moves are only those the
        environment asks of the seat now (``timo_v0`` asks the seat on turn first whether
        it catches a player who forgot TIMO!)."""
        view = self.game.view(self.raw.state, seat)
        if self.realtime:
            return view
        return asked_view(self.raw, view, self.aec.observe(agent)["action_mask"])

    def render(self) -> str | None:
        return self.aec.render()  # type: ignore[no-any-return]

    def close(self) -> None:
        self.aec.close()


@cache
def _entry(game: str) -> Any:
    """A game's entry, built once per process (evaluate() builds an environment a game)."""
    return default_registry().entry(game)


def register_envs() -> None:
    """Register every game's Gymnasium id (idempotent)."""
    for gym_id, game in GYM_IDS.items():
        if gym_id not in gymnasium.registry:
            gymnasium.register(id=gym_id, entry_point="twintable.envs.gym:TwinTableEnv",
                               kwargs={"game": game})


register_envs()

__all__ = ["GYM_IDS", "Opponent", "TwinTableEnv", "is_policy", "register_envs"]
