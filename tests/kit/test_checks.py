"""The kit's checks fail for the reason they name: each promise broken on purpose by a
small game (``countdown.py``) is caught by its own check, and only by it."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tests.kit.countdown import (
    CalledSimultaneous,
    CarelessRefusal,
    Countdown,
    Leaky,
    Miscounted,
    SeededFirstPlayer,
    Undeclared,
    entry_of,
)
from twintable.core.game import Game
from twintable.kit.checks import CHECK_NAMES, check_game
from twintable.kit.testing import CHECK_NAMES as TESTING_NAMES

#: The checks that read the rules alone (the others read bots, pages and catalogues).
RULES_CHECKS = CHECK_NAMES[:10]


def verdicts(game: Game[Any]) -> dict[str, bool | None]:
    return {result.name: result.passed
            for result in check_game(entry_of(game), seeds=(1, 2), only=RULES_CHECKS)}


def test_a_game_with_nothing_hidden_and_no_chance_passes_every_rules_check() -> None:
    results = check_game(entry_of(Countdown()), seeds=(1, 2), only=RULES_CHECKS)
    assert [(r.name, r.passed) for r in results] == [(name, True) for name in RULES_CHECKS]
    details = {r.name: r.detail for r in results}
    assert details["type"] == "turn-based, perfect information, no chance"
    assert details["seed"] == "another seed plays the same moves to the same views"


@pytest.mark.parametrize(("game", "check", "reason"), [
    (SeededFirstPlayer(), "seed", "declared without chance"),
    (CarelessRefusal(), "refusals", "changed the state"),
    (Leaky(), "views hide", "depends on what it cannot see"),
    (Miscounted(), "conservation", "changed what the game conserves"),
    (CalledSimultaneous(), "type", "no seats ever acted at once"),
], ids=lambda value: type(value).__name__ if isinstance(value, Game) else "")
def test_each_broken_promise_fails_its_own_check(game: Game[Any], check: str,
                                                 reason: str) -> None:
    results = {r.name: r for r in check_game(entry_of(game), seeds=(1, 2),
                                             only=RULES_CHECKS)}
    assert results[check].passed is False and reason in results[check].detail
    assert [name for name, r in results.items() if r.passed is False] == [check]


def test_a_game_without_a_type_fails_the_type_check_and_runs_no_other() -> None:
    assert verdicts(Undeclared()) == {name: (False if name == "type" else None)
                                      for name in RULES_CHECKS}


def test_an_unknown_check_is_refused() -> None:
    with pytest.raises(ValueError, match="no such check: speed"):
        check_game(entry_of(Countdown()), only=["speed"])


def test_the_pytest_helper_knows_every_check_in_order() -> None:
    """``twintable.kit.testing`` names the checks without importing the kit (collecting
    tests imports no game): the two lists must agree."""
    assert TESTING_NAMES == CHECK_NAMES


@pytest.mark.parametrize(("extensions", "reason"), [
    ({"envs": {"module": "tests.kit.countdown"}, "srever": {}},
     "no shell reads the extension srever"),
    ({"terminal": {"modul": "tests.kit.countdown"}}, "its 'terminal' extension does not fit"),
    ({"envs": {"gym_id": "tests/Countdown-v0"}}, "a Gymnasium id (tests/Countdown-v0) "
                                                 "without an environment"),
])
def test_an_extension_no_shell_can_read_fails_the_entry_check(
        extensions: dict[str, dict[str, Any]], reason: str) -> None:
    """A game's shell extensions are keyword data (core/plugin.py): the kit builds every
    shell's record, so a misspelt shell or field fails here, not when that shell runs."""
    entry = dataclasses.replace(entry_of(Countdown()), extensions=extensions)
    result, = check_game(entry, seeds=(1,), only=["entry"])
    assert result.passed is False and reason in result.detail
