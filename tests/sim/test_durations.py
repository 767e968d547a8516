"""The lobby's game lengths are measurements: every game declares them per mode, and a
fresh simulation on other seeds lands within a factor of 1.5 of each (issue 24)."""

from __future__ import annotations

from typing import Any

import pytest

from twintable.games import default_registry
from twintable.sim import durations
from twintable.sim.durations import BOT_MOVE_MS, game_minutes, typical_minutes

GAMES = list(default_registry())


def modes(game: Any) -> list[str]:
    mode = game.options_schema.options.get("mode")
    return [str(choice) for choice in mode.choices] if mode is not None and mode.kind == "choice" \
        else [""]


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_every_mode_of_every_game_declares_its_length(game: Any) -> None:
    assert set(game.table_minutes) == set(modes(game))
    for mode, (players, minutes) in game.table_minutes.items():
        low, high = game.player_range({"mode": mode} if mode else {})
        assert low <= players <= high and minutes > 0


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_declared_lengths_match_a_fresh_simulation_within_a_factor_of_one_and_a_half(
        game: Any) -> None:
    for mode, (players, declared) in game.table_minutes.items():
        measured = typical_minutes(game, mode, players, games=5, seed=1000)
        assert declared / 1.5 <= measured <= declared * 1.5, (mode, declared, measured)


def test_a_person_sets_the_pace_of_a_turn_based_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # The measure depends on who plays: the same game with a person as quick as a bot
    # is shorter.
    game = next(game for game in GAMES if not getattr(game, "realtime", False))
    players, _ = next(iter(game.table_minutes.values()))
    at_a_persons_pace = game_minutes(game, {}, players, seed=3)
    monkeypatch.setattr(durations, "PERSON_MOVE_MS", BOT_MOVE_MS)
    assert game_minutes(game, {}, players, seed=3) < at_a_persons_pace
