"""Research environments: every game as a PettingZoo environment, and Gymnasium wrappers.

Each game's environment lives in its own package (its ``"envs"`` extension's ``module``,
``envs/extension.py``) and is published here under a versioned name it declares
(``names``): ``from twintable.envs
import <game>_v0`` and ``import twintable.envs.<game>_v0`` import the game's module
itself. Every environment keeps one convention (docs/envs.md):

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

The shared parts are here: the AEC base and the derived parallel form (``aec``), the
observation layouts (``layout``), the Gymnasium wrapper (``gym``), evaluation, the
OpenSpiel face. Importing this package imports no environment (and never ray or
OpenSpiel); the modules need the ``[rl]`` extra: ``pip install 'twintable[rl]'``.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from importlib import import_module
from types import ModuleType
from typing import Any

from twintable.envs.errors import IllegalActionError
from twintable.envs.registry import ENV_MODULES, PUBLISHED, env_module


def evaluate(policy: Any, opponents: Any, games: int, seed: int = 0,
             **kwargs: Any) -> Any:
    """Win rate and mean return of ``policy`` against bots, with intervals, seats rotated:
    :func:`twintable.envs.evaluation.evaluate` (imported on first use: it needs Gymnasium)."""
    from twintable.envs.evaluation import evaluate as run

    return run(policy, opponents, games, seed, **kwargs)


class _Published(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``twintable.envs.<name>`` for a published name and hands back the game's own
    module (one module object under two names, so its classes and state are one)."""

    def find_spec(self, fullname: str, path: Any = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in PUBLISHED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        # The import system keeps the module's own name, spec and file: it is the game's.
        return import_module(PUBLISHED[spec.name.rpartition(".")[2]])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the game's module ran when it was imported."""


if not any(isinstance(finder, _Published) for finder in sys.meta_path):
    sys.meta_path.append(_Published())


def __getattr__(name: str) -> ModuleType:
    """``from twintable.envs import <name>`` for a published name."""
    if name in PUBLISHED:
        return import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ENV_MODULES", "PUBLISHED", "IllegalActionError", "env_module", "evaluate"]
