"""The game kit under pytest: a game's own tests run every check of ``twintable check``.

In a game's tests (one test per check, named after it)::

    from twintable.kit.testing import kit_tests

    test_twintable_check = kit_tests("mygame")

``kit_tests()`` with no id runs the checks on every installed game (the project's own
tests do that). Installed with Twin Table, this module is also a pytest plugin
(entry point ``pytest11``): its fixture ``twintable_check`` answers a game's results,
``twintable_check("mygame")``. Each game is checked once per test process.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

#: The checks' names, in the order they are reported (kept in step with the kit's
#: CHECKS by a test, so that collecting tests imports no game).
CHECK_NAMES = ("type", "options", "playouts", "legal moves", "refusals", "views hide",
               "conservation", "serialization", "replay", "seed", "bots", "entry",
               "rules pages", "translations")


@cache
def results(game_id: str) -> dict[str, Any]:
    """Every check's result on one installed game, by check name (run once)."""
    from twintable.core.registry import default_registry
    from twintable.kit.checks import check_game

    return {result.name: result for result in check_game(default_registry().entry(game_id))}


def installed_games() -> list[str]:
    """The ids of every installed game, read from the entry points."""
    from twintable.core.registry import game_ids

    return game_ids()


def kit_tests(*game_ids: str) -> Callable[..., None]:
    """A test, parametrized by game and check, that fails with the check's reason; a
    check that does not apply to the game is skipped with why."""
    ids = list(game_ids) or installed_games()
    cases = [pytest.param(game_id, name, id=f"{game_id}-{name.replace(' ', '-')}")
             for game_id in ids for name in CHECK_NAMES]

    @pytest.mark.parametrize(("game_id", "check"), cases)
    def test_twintable_check(game_id: str, check: str) -> None:
        result = results(game_id)[check]
        if result.passed is None:
            pytest.skip(result.detail)
        assert result.passed, f"{game_id}: {check}: {result.detail}"

    return test_twintable_check


@pytest.fixture
def twintable_check() -> Callable[[str], dict[str, Any]]:
    """``twintable_check(game_id)``: that game's results by check name."""
    return results


__all__ = ["CHECK_NAMES", "installed_games", "kit_tests", "results", "twintable_check"]
