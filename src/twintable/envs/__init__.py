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

from twintable.envs.errors import IllegalActionError
from twintable.games import default_registry

#: Game id -> its environment module, as each game's entry declares it (``env``).
ENV_MODULES: dict[str, str] = {entry.id: entry.env for entry in default_registry().entries()
                               if entry.env is not None}


def env_module(game_id: str) -> ModuleType:
    """The environment module of a game (``"twins"`` -> ``twintable.envs.twins_v0``)."""
    try:
        name = ENV_MODULES[game_id]
    except KeyError:
        raise ValueError(f"no environment for game {game_id!r}; "
                         f"choose from {', '.join(sorted(ENV_MODULES))}") from None
    return import_module(name)


__all__ = ["ENV_MODULES", "IllegalActionError", "env_module"]
