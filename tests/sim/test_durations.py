"""The lobby's game lengths are measurements: every game declares them per mode, and a
fresh simulation on other seeds lands within a factor of 1.5 of each (issue 24)."""

from __future__ import annotations

from typing import Any

import pytest

from twintable.core.game import Game
from twintable.core.plugin import GameEntry
from twintable.core.registry import default_registry
from twintable.sim import durations
from twintable.sim.durations import BOT_MOVE_MS, game_minutes, typical_minutes

#: The games twintable ships (installed plug-ins, such as examples/tricks, may measure none).
GAMES = [entry for entry in default_registry().entries()
         if entry.package.startswith("twintable.games.")]
#: Every installed game that declares its lengths (plug-ins included).
MEASURED = [entry for entry in default_registry().entries() if entry.rules.table_minutes]


def modes(game: Game[Any]) -> list[str]:
    mode = game.options_schema.options.get("mode")
    return [str(choice) for choice in mode.choices] if mode is not None and mode.kind == "choice" \
        else [""]


def test_every_game_twintable_ships_is_measured() -> None:
    assert GAMES and all(entry.rules.table_minutes for entry in GAMES)


@pytest.mark.parametrize("entry", GAMES, ids=[entry.id for entry in GAMES])
def test_every_mode_of_every_game_declares_its_length(entry: GameEntry) -> None:
    game = entry.rules
    assert set(game.table_minutes) == set(modes(game))
    for mode, (players, minutes) in game.table_minutes.items():
        low, high = game.player_range({"mode": mode} if mode else {})
        assert low <= players <= high and minutes > 0


@pytest.mark.parametrize("entry", MEASURED, ids=[entry.id for entry in MEASURED])
def test_declared_lengths_match_a_fresh_simulation_within_a_factor_of_one_and_a_half(
        entry: GameEntry) -> None:
    for mode, (players, declared) in entry.rules.table_minutes.items():
        measured = typical_minutes(entry, mode, players, games=5, seed=1000)
        assert declared / 1.5 <= measured <= declared * 1.5, (mode, declared, measured)


def test_a_person_sets_the_pace_of_a_turn_based_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # The measure depends on who plays: the same game with a person as quick as a bot
    # is shorter.
    entry = next(entry for entry in GAMES if not entry.rules.realtime)
    players, _ = next(iter(entry.rules.table_minutes.values()))
    at_a_persons_pace = game_minutes(entry, {}, players, seed=3)
    monkeypatch.setattr(durations, "PERSON_MOVE_MS", BOT_MOVE_MS)
    assert game_minutes(entry, {}, players, seed=3) < at_a_persons_pace


