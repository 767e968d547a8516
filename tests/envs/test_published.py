"""Each game's research modules are published under ``twintable.envs`` by the names its
entry declares (``env_names``), resolved from the entries: both import forms give the
game's own module object, and nothing in ``envs/`` lists a game."""

from __future__ import annotations

import importlib
import sys

import pytest

import twintable.envs
from twintable.core.registry import default_registry
from twintable.envs import ENV_MODULES, PUBLISHED, env_module
from twintable.envs.extension import EnvGame


def test_every_published_name_is_the_games_own_module() -> None:
    declared = {name: module for entry in default_registry().entries()
                for name, module in entry.extension(EnvGame).names.items()}
    assert declared == PUBLISHED
    assert declared, "no game publishes a research module"
    for name, module in declared.items():
        via_import = importlib.import_module(f"twintable.envs.{name}")
        via_attribute = getattr(twintable.envs, name)
        assert via_import is via_attribute is importlib.import_module(module)
        assert sys.modules[f"twintable.envs.{name}"] is via_import
        assert via_import.__name__ == module  # one module under two names: one state


def test_from_import_and_dotted_import_both_work() -> None:
    namespace: dict[str, object] = {}
    for name in PUBLISHED:
        exec(f"from twintable.envs import {name}\nimport twintable.envs.{name}", namespace)
        assert namespace[name] is importlib.import_module(PUBLISHED[name])


def test_every_game_environment_is_its_entrys() -> None:
    for entry in default_registry().entries():
        module = entry.extension(EnvGame).module
        if module is not None:
            assert ENV_MODULES[entry.id] == module
            assert env_module(entry.id).__name__ == module
            assert hasattr(env_module(entry.id), "raw_env")


def test_an_unknown_name_is_not_found() -> None:
    with pytest.raises(ImportError):
        importlib.import_module("twintable.envs.chess_v0")
    with pytest.raises(ImportError):
        exec("from twintable.envs import chess_v0", {})
    with pytest.raises(ValueError, match="no environment for game 'chess'"):
        env_module("chess")
