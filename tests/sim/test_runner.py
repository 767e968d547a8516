"""The simulation driver and its statistics."""

from __future__ import annotations

import pytest

from twintable.core.registry import default_registry
from twintable.sim.runner import make_bots, play_game, run_games, seat_bots

ENTRY = default_registry().entry("timo")
GAME = ENTRY.rules


def test_same_seed_same_game() -> None:
    first = play_game(GAME, {"target": 60}, make_bots(ENTRY, ["heuristic", "random"]), 11,
                      record=True)
    second = play_game(GAME, {"target": 60}, make_bots(ENTRY, ["heuristic", "random"]), 11,
                       record=True)
    assert first.actions == second.actions and first.scores == second.scores


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    def flat(workers: int) -> list[tuple[int, tuple[int, ...]]]:
        return [(r.seed, r.scores) for chunk in run_games(
            "timo", {"target": 50}, ["heuristic", "random"], 8, 100, workers, chunk=3)
            for r in chunk]

    assert flat(1) == flat(2)


def test_seats_rotate() -> None:
    assert seat_bots(["a", "b", "c"], 0) == ["a", "b", "c"]
    assert seat_bots(["a", "b", "c"], 1) == ["b", "c", "a"]


def test_unknown_bot_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bots(ENTRY, ["oracle"])

