"""Research environments: every game as a PettingZoo environment, and Gymnasium wrappers.

Each game has a versioned module, ``twintable.envs.<game>_v0``, to one convention
(docs/envs.md):

- ``env(players=..., options=None, render_mode=None)`` is the AEC environment wrapped in
  PettingZoo's ``OrderEnforcingWrapper`` only; ``raw_env`` is its class. Agents are
  ``"seat_0"``, ``"seat_1"``, ...
- Observations are ``{"observation": Box, "action_mask": Box(0, 1, (n,), int8)}`` and
  encode only what that seat's view shows; the action space is a fixed ``Discrete(n)``.
- An action whose mask bit is 0 raises :class:`IllegalActionError` and changes nothing:
  no wrapper here ever swaps an illegal action for a legal one.
- The raw environment exposes ``game``, ``state``, ``seat(agent)``, ``action_of(index)``
  and ``index_of(action)``, so the project's own bots can play any seat
  (``twintable.envs.gym``).

Importing this package imports no environment (and never ray or OpenSpiel); the
modules need the ``[rl]`` extra: ``pip install 'twintable[rl]'``.
"""

from __future__ import annotations

from typing import Any

from twintable.envs.errors import IllegalActionError
from twintable.envs.registry import ENV_MODULES, env_module


def evaluate(policy: Any, opponents: Any, games: int, seed: int = 0,
             **kwargs: Any) -> Any:
    """Win rate and mean return of ``policy`` against bots, with intervals, seats rotated:
    :func:`twintable.envs.evaluation.evaluate` (imported on first use: it needs Gymnasium)."""
    from twintable.envs.evaluation import evaluate as run

    return run(policy, opponents, games, seed, **kwargs)


__all__ = ["ENV_MODULES", "IllegalActionError", "env_module", "evaluate"]
