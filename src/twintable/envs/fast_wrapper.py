"""PettingZoo's order checks without the attribute-forwarding cost: ``FastOrderEnforcingWrapper``.

PettingZoo's :class:`~pettingzoo.utils.wrappers.OrderEnforcingWrapper` reaches every
attribute of the wrapped environment through ``__getattr__``, the slowest path Python has:
the standard loop (``agent_iter``, ``last``, ``step``) reads ``agents``,
``agent_selection``, ``_cumulative_rewards``, ``terminations``, ``truncations`` and
``infos`` that way, several times a step, which costs more than a fast engine's whole
step. This subclass makes those reads direct properties and methods that make the same
checks first, so it raises the same errors in the same order (an ``AttributeError`` for
data read before ``reset``, PettingZoo's ``EnvLogger`` errors for ``step``, ``observe``,
``render``, ``state`` and ``agent_iter`` before ``reset``, the ``agent_iter`` assertion
when a loop does not step) and is still an ``OrderEnforcingWrapper`` for every tool that
checks for one. tests/games/timo/test_env.py compares its errors with the original's.

It assumes what PettingZoo's own wrapper assumes of the environment inside: the AEC
attributes live on it, and its ``last`` is :meth:`AECEnv.last` or gives the same answer.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)


def _not_before_reset(name: str) -> Any:
    """A read-only property that goes straight to the wrapped environment's ``name``,
    refusing (as OrderEnforcingWrapper.__getattr__ does) before the first reset."""

    def read(self: FastOrderEnforcingWrapper) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(read, doc=f"The wrapped environment's ``{name}`` (after reset).")


class FastOrderEnforcingWrapper(OrderEnforcingWrapper):  # type: ignore[misc]
    """:class:`OrderEnforcingWrapper` with the AEC loop's reads made direct."""

    rewards = _not_before_reset("rewards")
    terminations = _not_before_reset("terminations")
    truncations = _not_before_reset("truncations")
    infos = _not_before_reset("infos")
    agent_selection = _not_before_reset("agent_selection")
    agents = _not_before_reset("agents")

    @property
    def num_agents(self) -> int:
        return len(self.agents)

    @property
    def _cumulative_rewards(self) -> dict[Any, float]:
        # The one private name BaseWrapper forwards, unchecked.
        rewards: dict[Any, float] = self.env._cumulative_rewards
        return rewards

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        env = self.env
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        agent = env.agent_selection
        assert agent is not None
        return (env.observe(agent) if observe else None, env._cumulative_rewards[agent],
                env.terminations[agent], env.truncations[agent], env.infos[agent])

    def observe(self, agent: Any) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable[Any, Any, Any]:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _FastIterable(self, max_iter)


class _FastIterable(AECOrderEnforcingIterable[Any, Any, Any]):  # type: ignore[misc]
    def __iter__(self) -> _FastIterator:
        return _FastIterator(self.env, self.max_iter)


class _FastIterator(AECOrderEnforcingIterator[Any, Any, Any]):  # type: ignore[misc]
    """AECOrderEnforcingIterator's ``__next__``, reading the wrapped environment directly."""

    def __init__(self, env: FastOrderEnforcingWrapper, max_iter: int):
        super().__init__(env, max_iter)
        self._inner: AECEnv = env.env

    def __next__(self) -> Any:
        inner = self._inner
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        wrapper = self.env
        # Raised, not asserted: PettingZoo's own message exactly, also where pytest
        # rewrites this package's asserts (the kit's pytest plug-in) or under -O.
        if not wrapper._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        wrapper._has_updated = False
        return inner.agent_selection
