"""Ending an episode with a penalty instead of raising, for code that samples actions
without looking at the mask (Gymnasium's ``check_env``, PettingZoo's
``parallel_seed_test``).

The environments themselves refuse an illegal action with
:class:`~twintable.envs.IllegalActionError`. This wrapper says what it does instead: an
illegal action is never played and never swapped for a legal one; the episode ends at
once, the offenders get ``penalty`` and everyone else 0, and each offender's info says
``illegal_action: True``. For AEC environments PettingZoo's own
``pettingzoo.utils.wrappers.TerminateIllegalWrapper`` does the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pettingzoo.utils.wrappers import BaseParallelWrapper

from twintable.envs.errors import IllegalActionError


class IllegalActionPenalty(BaseParallelWrapper):  # type: ignore[misc]
    """A ParallelEnv wrapper: an illegal action ends the episode with ``penalty``."""

    def __init__(self, env: Any, penalty: float = -1.0):
        super().__init__(env)
        self.penalty = float(penalty)
        self._last: dict[str, Any] = {}
        self._ended = False

    @property
    def agents(self) -> list[str]:
        return [] if self._ended else list(self.env.agents)

    @property
    def possible_agents(self) -> list[str]:
        return list(self.env.possible_agents)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._ended = False
        observations, infos = self.env.reset(seed=seed, options=options)
        self._remember(observations)
        return observations, infos

    def _remember(self, observations: Mapping[str, Any]) -> None:
        self._last = dict(observations)

    def _illegal(self, agent: str, action: Any) -> bool:
        """Whether the mask forbids ``action``; a missing action means wait (index 0)."""
        mask = self._last[agent]["action_mask"]
        number = 0 if action is None else int(action)
        return not 0 <= number < len(mask) or not mask[number]

    def step(self, actions: Mapping[str, Any]) -> tuple[
            dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        if self._ended:
            raise IllegalActionError("the episode has ended; call reset()")
        offenders = [agent for agent in self.env.agents
                     if self._illegal(agent, actions.get(agent))]
        if not offenders:
            observations, rewards, terminations, truncations, infos = self.env.step(actions)
            self._remember(observations)
            return observations, rewards, terminations, truncations, infos
        # Nothing was played: everyone still sees what they saw before this step.
        live = self.env.agents
        observations = {agent: {key: value.copy() for key, value in self._last[agent].items()}
                        for agent in live}
        rewards = {agent: self.penalty if agent in offenders else 0.0 for agent in live}
        penalty_infos: dict[str, dict[str, Any]] = {
            agent: {"illegal_action": True} if agent in offenders else {} for agent in live}
        self._ended = True
        return (observations, rewards, dict.fromkeys(live, True), dict.fromkeys(live, False),
                penalty_infos)
