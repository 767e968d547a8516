"""The parallel form of a game's environment, written once: every agent that may act
chooses at once, and the game's table plays the moves together.

A game whose moves are simultaneous by nature (Twins' secret picks, Twin It's race in a
tick) gives a *table*, the engine state and what both its forms share, implementing
:class:`ParallelTable`; :class:`TableParallelEnv` is the PettingZoo ``ParallelEnv`` over
it. Only how one step's moves are played is the game's (``ParallelTable.play_step``): which
moves are refused, in what order the rest take effect.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Protocol

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from twintable.core.types import Action
from twintable.envs.aec import Seats, check_render_mode, final_infos, shown, standing
from twintable.envs.errors import IllegalActionError

Observations = dict[str, dict[str, np.ndarray]]
Infos = dict[str, dict[str, Any]]


class ParallelTable(Protocol):
    """One game's engine state as its parallel form plays it."""

    game: Any
    agents: list[str]

    @property
    def state(self) -> Any: ...

    @property
    def over(self) -> bool: ...

    @property
    def truncated(self) -> bool: ...

    def reset(self, seed: int | None) -> None: ...

    def observe_all(self, seat: int) -> dict[str, np.ndarray]:
        """A seat's observation and mask in the parallel form (it may wait)."""
        ...

    def action_at(self, seat: int, index: Any) -> Action | None:
        """The move an index means now for ``seat`` in the parallel form (None: wait),
        or IllegalActionError."""
        ...

    def index_of(self, action: Action) -> int: ...

    def play_step(self, actions: Mapping[str, Any], agents: list[str]
                  ) -> tuple[dict[str, float], Infos]:
        """One step: every agent in ``agents`` acts at once (a missing one waits); an
        illegal index raises IllegalActionError before any move is played. The rewards
        and the infos."""
        ...

    def describe(self) -> str: ...


class TableParallelEnv(Seats, ParallelEnv):  # type: ignore[misc]
    """A game's parallel form over its table (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]]

    def __init__(self, table: ParallelTable, render_mode: str | None, box: spaces.Box,
                 n_actions: int, max_steps: int | None = None):
        check_render_mode(self.metadata, render_mode)
        #: The episode cap in parallel steps (None: the table's own, if any).
        self.max_steps = max_steps
        self.steps = 0
        self.table = table
        self.game = table.game
        self.render_mode = render_mode
        self._seat(list(table.agents), box, n_actions)
        self.agents: list[str] = []

    @property
    def state(self) -> Any:
        """The engine's state (PettingZoo's global ``state()`` is not offered)."""
        return self.table.state

    def action_of(self, index: int, agent: str) -> Action | None:
        return self.table.action_at(self.seat(agent), index)

    def index_of(self, action: Action) -> int:
        return self.table.index_of(action)

    def _observations(self) -> Observations:
        return {agent: self.table.observe_all(self.seat(agent)) for agent in self.agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observations, Infos]:
        self.table.reset(seed)
        self.steps = 0
        self.agents = list(self.possible_agents)
        return self._observations(), {agent: {} for agent in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[
            Observations, dict[str, float], dict[str, bool], dict[str, bool], Infos]:
        unknown = set(actions) - set(self.agents)
        if unknown:
            raise IllegalActionError(f"no such agent(s) in play: {sorted(unknown)}")
        rewards, infos = self.table.play_step(actions, self.agents)
        self.steps += 1
        table = self.table
        over = table.over
        truncated = not over and (table.truncated or (
            self.max_steps is not None and self.steps >= self.max_steps))
        observations = self._observations()
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, truncated)
        if over or truncated:
            scores, winners = self.standing()
            last = final_infos(self.possible_agents, scores, winners)
            infos = {agent: {**infos.get(agent, {}), **last[agent]} for agent in self.agents}
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def standing(self) -> tuple[list[int] | None, list[int]]:
        """The scores and winners the last infos report (the table's, where it keeps its
        own scores; else :func:`~twintable.envs.aec.standing` of the state)."""
        own = getattr(self.table, "standing", None)
        return own() if own is not None else standing(self.game, self.table.state)

    def render(self) -> str | None:
        return shown(self.table.describe(), self.render_mode)

    def close(self) -> None:
        pass


__all__ = ["ParallelTable", "TableParallelEnv"]
