"""Every game that has an OpenSpiel face, registered with OpenSpiel. Importing this module
imports ``pyspiel`` and each game's OpenSpiel module (its ``"envs"`` extension's
``openspiel``), which registers that game's Python game:

>>> import pyspiel, twintable.envs.openspiel
>>> game = pyspiel.load_game("python_twintable_timo", {"players": 4, "seed": 7})

The face every game shares is :mod:`twintable.envs.openspiel_face`; docs/openspiel.md
lists the games and their parameters. What a game cannot serve fails fast: an algorithm
that enumerates the game tree (CFR, best response, ``get_all_states``) raises
:class:`TreeWalkError` at its first backtrack, and :func:`check_algorithm` refuses one
by name up front.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from twintable.core.registry import default_registry
from twintable.envs.extension import EnvGame
from twintable.envs.openspiel_face import (
    Rules,
    TreeWalkError,
    TwinTableGame,
    TwinTableObserver,
    TwinTableState,
    check_algorithm,
    game_type,
)

#: Game id -> its OpenSpiel module, imported (and so registered) here.
GAMES: dict[str, ModuleType] = {entry.id: import_module(module)
                                for entry in default_registry().entries()
                                if (module := entry.extension(EnvGame).openspiel) is not None}

__all__ = ["GAMES", "Rules", "TreeWalkError", "TwinTableGame", "TwinTableObserver",
           "TwinTableState", "check_algorithm", "game_type"]
