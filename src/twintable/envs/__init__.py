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

from importlib import import_module
from types import ModuleType
from typing import Any

from twintable.envs.errors import IllegalActionError

#: Game id -> its environment module, newest version first.
ENV_MODULES: dict[str, str] = {
    "timo": "twintable.envs.timo_v0",
    "twins": "twintable.envs.twins_v0",
    "twinit": "twintable.envs.twinit_v0",
    "twinz": "twintable.envs.twinz_v0",
}


def env_module(game_id: str) -> ModuleType:
    """The environment module of a game (``"twins"`` -> ``twintable.envs.twins_v0``)."""
    try:
        name = ENV_MODULES[game_id]
    except KeyError:
        raise ValueError(f"no environment for game {game_id!r}; "
                         f"choose from {', '.join(sorted(ENV_MODULES))}") from None
    return import_module(name)


def evaluate(policy: Any, opponents: Any, games: int, seed: int = 0,
             **kwargs: Any) -> Any:
    """Win rate and mean return of ``policy`` against bots, with intervals, seats rotated:
    :func:`twintable.envs.evaluation.evaluate` (imported on first use: it needs Gymnasium)."""
    from twintable.envs.evaluation import evaluate as run

    return run(policy, opponents, games, seed, **kwargs)


__all__ = ["ENV_MODULES", "IllegalActionError", "env_module", "evaluate"]
