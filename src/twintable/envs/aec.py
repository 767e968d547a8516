"""What every game's PettingZoo environment shares, written once: agents and spaces, the
seeded deals, the refusal of a masked action, and the AEC cycle's tail (reset's
bookkeeping, a dead agent's step, rewards, the next agent, rendering).

A game's AEC environment subclasses :class:`TableEnv` and writes only what is its own:
how an index becomes a move and is played (``play``), its rewards, who acts next, and
its text (``describe``). Its parallel form, where it has one, is
:class:`twintable.envs.parallel.TableParallelEnv`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from twintable.envs.errors import IllegalActionError

Spaces = dict[str, spaces.Space[Any]]


def agent_names(players: int) -> list[str]:
    """``seat_0`` ... ``seat_{players-1}``: agents are seats (docs/envs.md)."""
    return [f"seat_{seat}" for seat in range(players)]


def check_render_mode(metadata: Mapping[str, Any], render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in metadata["render_modes"]:
        raise ValueError(f"render_mode must be one of {metadata['render_modes']}")


def check_reward(reward: str, choices: Collection[str]) -> None:
    if reward not in choices:
        raise ValueError(f"reward must be one of {', '.join(choices)}, not {reward!r}")


def agent_spaces(agents: list[str], box: spaces.Box, n_actions: int) -> tuple[Spaces, Spaces]:
    """Each agent's observation space (the observation and its action mask) and its
    ``Discrete(n_actions)`` action space."""
    observation_spaces: Spaces = {agent: spaces.Dict({
        "observation": box, "action_mask": spaces.Box(0, 1, (n_actions,), np.int8)})
        for agent in agents}
    action_spaces: Spaces = {agent: spaces.Discrete(n_actions) for agent in agents}
    return observation_spaces, action_spaces


def masked_index(action: Any, mask: np.ndarray, agent: str, waits: bool = False) -> int:
    """The index ``action`` names if ``mask`` allows it, else :class:`IllegalActionError`
    (None is no index: an agent that may wait sends 0)."""
    if action is None:
        raise IllegalActionError(f"{agent} must give an action index (0 waits)" if waits
                                 else f"{agent} must act: give an action index")
    index = int(action)
    if not 0 <= index < len(mask) or not mask[index]:
        raise IllegalActionError(f"action {index} is not legal for {agent} now")
    return index


def shown(text: str, render_mode: str | None) -> str | None:
    """``render()``'s answer: the text, or None once printed (``"human"``)."""
    if render_mode == "human":
        print(text)
        return None
    return text


#: ``max_steps="auto"`` / ``max_ticks="auto"``: the cap each game derives from its options.
AUTO = "auto"


def episode_cap(value: int | str | None, derived: int, name: str = "max_steps") -> int | None:
    """An episode cap as given: ``"auto"`` (the game's derived default), None (no cap: an
    agent that never ends the game then stalls it) or a positive count."""
    if value == AUTO:
        return derived
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, None or 'auto', not {value!r}")
    return value


def final_infos(agents: list[str], scores: Sequence[float] | None,
                winners: Collection[int]) -> dict[str, dict[str, Any]]:
    """What every environment's last ``info`` holds for each agent (docs/envs.md):
    ``winner`` (this seat won; ties share), ``winners`` (every winning seat; none when the
    episode was truncated), ``score`` (this seat's final score) and ``scores`` (every
    seat's, in seat order; at a truncation the scores so far)."""
    won = sorted(int(seat) for seat in winners)
    board = [] if scores is None else [float(score) if isinstance(score, float) else int(score)
                                       for score in scores]
    return {agent: {"winner": seat in won, "winners": won,
                    "score": board[seat] if seat < len(board) else None, "scores": board}
            for seat, agent in enumerate(agents)}


def standing(game: Any, state: Any) -> tuple[list[int] | None, list[int]]:
    """The scores and winners of ``state``: the outcome's once the game is over, else the
    scores so far (where the game keeps them) and no winner."""
    outcome = game.outcome(state) if game.is_over(state) else None
    if outcome is not None:
        return list(outcome.scores), sorted(outcome.winners)
    if game.scores_by_round:
        return list(game.running_scores(state)), []
    return None, []


def win_rewards(agents: list[str], winners: Collection[int]) -> dict[str, float]:
    """+1 to each winner (ties share the win), −1 to everyone else."""
    return {agent: 1.0 if seat in winners else -1.0 for seat, agent in enumerate(agents)}


class Seeds:
    """Engine seeds drawn from a generator that ``reset(seed=s)`` seeds with ``s``, so the
    same ``s`` deals the same game and later unseeded resets follow from it."""

    def __init__(self) -> None:
        self._np_random, _ = seeding.np_random(None)

    def next(self, seed: int | None) -> int:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        return int(self._np_random.integers(0, 2**31 - 1))


class Seats:
    """Agents as seats, with their spaces: what both forms of an environment answer."""

    possible_agents: list[str]
    observation_spaces: Spaces
    action_spaces: Spaces

    def _seat(self, agents: list[str], box: spaces.Box, n_actions: int) -> None:
        self.possible_agents = agents
        self._seat_of = {agent: seat for seat, agent in enumerate(agents)}
        self.observation_spaces, self.action_spaces = agent_spaces(agents, box, n_actions)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def seat(self, agent: str) -> int:
        return self._seat_of[agent]


class TableEnv(Seats, AECEnv):  # type: ignore[misc]
    """An AEC environment over one engine state (``_state``), one seat an agent."""

    metadata: ClassVar[dict[str, Any]]
    game: Any
    _state: Any
    #: The episode cap in AEC steps (None: none); each game documents its default.
    max_steps: int | None = None
    #: AEC steps taken this episode.
    steps = 0
    #: Whether ``rewards`` may hold a nonzero reward (:meth:`_settle_quietly` then zeroes
    #: them); a game that settles quiet steps so sets it True when it hands out rewards.
    _rewarded = True

    def __init__(self, players: int, render_mode: str | None, box: spaces.Box,
                 n_actions: int):
        super().__init__()
        check_render_mode(self.metadata, render_mode)
        self.render_mode = render_mode
        self._seat(agent_names(players), box, n_actions)

    # -- the convention every environment keeps ------------------------------------------
    @property
    def state(self) -> Any:
        """The engine's state (PettingZoo's global ``state()`` is not offered: it would
        show every secret)."""
        return self._state

    # -- the AEC cycle -------------------------------------------------------------------
    def _start(self, first: str) -> None:
        """Reset's bookkeeping: every agent in play, nothing earned, ``first`` to act."""
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = first
        self.steps = 0

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.play(agent, action)
        self.steps += 1
        if self.max_steps is not None and self.steps >= self.max_steps:
            self._cap()

    def _cap(self) -> None:
        """The episode cap: truncate every agent still playing (no winner)."""
        if not self.agents or any(self.terminations.values()) or any(self.truncations.values()):
            return
        self.truncations = dict.fromkeys(self.agents, True)
        self._final_infos()

    def standing(self) -> tuple[list[int] | None, list[int]]:
        """The scores and winners the last info reports (:func:`standing` of the state)."""
        return standing(self.game, self._state)

    def _final_infos(self) -> None:
        scores, winners = self.standing()
        self.infos = final_infos(self.possible_agents, scores, winners)

    def play(self, agent: str, action: Any) -> None:
        """Play ``agent``'s action (an index; raise IllegalActionError and change nothing
        when its mask forbids it), then :meth:`_settle`."""
        raise NotImplementedError

    def _settle(self, agent: str, rewards: dict[str, float], next_agent: str, *,
                over: bool, truncated: bool = False,
                infos: dict[str, dict[str, Any]] | None = None) -> None:
        """A step's tail: this step's rewards, the end, and who acts next."""
        self._cumulative_rewards[agent] = 0.0
        self.rewards = rewards
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        if infos is not None:
            self.infos = infos
        elif over or truncated:
            self._final_infos()
        self._accumulate_rewards()
        self.agent_selection = next_agent
        if self.render_mode == "human":
            self.render()

    def _settle_quietly(self, agent: str, next_agent: str) -> None:
        """:meth:`_settle` for a step that ends nothing and rewards nobody, on the engines'
        fast path: every reward is 0, so only what changed is written."""
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self.rewards = dict.fromkeys(self.possible_agents, 0.0)
            self._rewarded = False
        self.agent_selection = next_agent
        if self.render_mode == "human":
            self.render()

    # -- showing -------------------------------------------------------------------------
    def describe(self) -> str:
        """The table as a spectator sees it, in words (no secret)."""
        raise NotImplementedError

    def render(self) -> str | None:
        return shown(self.describe(), self.render_mode)

    def close(self) -> None:
        pass


__all__ = ["AUTO", "Seats", "Seeds", "TableEnv", "agent_names", "agent_spaces",
           "check_render_mode", "check_reward", "episode_cap", "final_infos", "masked_index",
           "shown", "standing", "win_rewards"]
