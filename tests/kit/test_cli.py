"""``twintable check``: one line per check with its reason, and an exit code that fails
when a check fails."""

from __future__ import annotations

import importlib

import pytest
from typer.testing import CliRunner

from tests.kit.countdown import Countdown, SeededFirstPlayer, entry_of
from twintable.cli import app
from twintable.core.registry import GameRegistry

#: The module, not the command it defines (``twintable.cli.check`` names both).
check_module = importlib.import_module("twintable.cli.check")


class Seeded(SeededFirstPlayer):
    id = "seeded"


@pytest.fixture
def games(monkeypatch: pytest.MonkeyPatch) -> None:
    registry = GameRegistry()
    for game in (Countdown(), Seeded()):
        registry.register(entry_of(game))
    monkeypatch.setattr(check_module, "default_registry", lambda: registry)


def run(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(app, ["check", *args], terminal_width=200)
    return result.exit_code, result.output.splitlines()


def test_a_game_that_passes_exits_zero_with_a_line_per_check(games: None) -> None:
    code, lines = run("countdown", "--seeds", "1", "--only", "type", "--only", "seed")
    assert code == 0
    assert lines[0] == "Countdown (countdown) passes: 2 passed, 0 failed, 0 skipped"
    assert lines[1].split()[:2] == ["pass", "type"]
    assert "no chance" in lines[1] and lines[2].split()[:2] == ["pass", "seed"]


def test_a_failed_check_says_why_and_exits_one(games: None) -> None:
    code, lines = run("seeded", "--seeds", "2", "--only", "seed", "--only", "refusals")
    assert code == 1
    assert lines[0].startswith("Countdown (seeded) fails: 1 passed, 1 failed")
    failed = [line for line in lines if line.split()[:1] == ["FAIL"]]
    assert len(failed) == 1 and "declared without chance" in failed[0]


@pytest.mark.parametrize("args", [("chess",), ("countdown", "--only", "speed")])
def test_an_unknown_game_or_check_is_refused(games: None, args: tuple[str, ...]) -> None:
    code, lines = run(*args)
    assert code == 2 and lines[0].startswith("error:")
