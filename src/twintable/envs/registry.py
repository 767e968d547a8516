"""Which environment module each game has, as its entry declares it (``env``).

It lives apart from the package's ``__init__`` so that the modules the package offers
(``gym``, ``evaluation``) can import it without importing the package that imports them.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

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


__all__ = ["ENV_MODULES", "env_module"]
