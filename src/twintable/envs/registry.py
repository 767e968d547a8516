"""Which research modules each game has, as its ``"envs"`` extension declares them
(``envs/extension.py: EnvGame``): its environment (``module``) and the names its modules
are published under in ``twintable.envs`` (``names``).

It lives apart from the package's ``__init__`` so that the modules the package offers
(``gym``, ``evaluation``) can import it without importing the package that imports them.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from twintable.core.registry import default_registry
from twintable.envs.extension import EnvGame


def _published() -> dict[str, str]:
    names: dict[str, str] = {}
    for entry in default_registry().entries():
        for name, module in entry.extension(EnvGame).names.items():
            if name in names and names[name] != module:
                raise ValueError(f"two games publish twintable.envs.{name}: "
                                 f"{names[name]} and {module}")
            names[name] = module
    return names


#: Game id -> its environment module, as each game's ``"envs"`` extension declares it.
ENV_MODULES: dict[str, str] = {entry.id: module for entry in default_registry().entries()
                               if (module := entry.extension(EnvGame).module) is not None}
#: Published name (``twintable.envs.<name>``) -> the game's module behind it.
PUBLISHED: dict[str, str] = _published()


def env_module(game_id: str) -> ModuleType:
    """The environment module of a game (``"twins"`` -> ``twintable.games.twins.env``)."""
    try:
        name = ENV_MODULES[game_id]
    except KeyError:
        raise ValueError(f"no environment for game {game_id!r}; "
                         f"choose from {', '.join(sorted(ENV_MODULES))}") from None
    return import_module(name)


__all__ = ["ENV_MODULES", "PUBLISHED", "env_module"]
