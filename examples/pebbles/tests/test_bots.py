"""The counter bot leaves the heap on a multiple, and so never loses a two-player game it
can win: it beats the random bot from either seat."""

from __future__ import annotations

import random
from typing import Any

import pytest
from twintable.bots.base import RandomBot
from twintable.sim.runner import play_game

from twintable_pebbles.bots import CounterBot
from twintable_pebbles.rules import PebblesGame

GAME = PebblesGame()


@pytest.mark.parametrize(("heap", "last_loses", "count"), [
    (10, False, 2), (8, True, 3), (6, True, 1),
    (8, False, 1), (9, True, 1)])  # the last two cannot be won: it takes one
def test_it_leaves_the_next_seat_a_losing_heap(heap: int, last_loses: bool,
                                              count: int) -> None:
    state = GAME.new_state({"heap": heap, "last_loses": last_loses}, 2, seed=1)
    action = CounterBot().act(GAME.view(state, 0), random.Random(1))
    assert action is not None and action.payload["count"] == count


def test_it_wins_every_game_it_starts_and_most_it_does_not() -> None:
    # The bot reads its own view type: seated as any bot.
    leading: list[Any] = [CounterBot(), RandomBot()]
    following: list[Any] = [RandomBot(), CounterBot()]
    first = [play_game(GAME, {}, leading, seed).winners for seed in range(40)]
    second = [play_game(GAME, {}, following, seed).winners for seed in range(40)]
    assert all(winners == {0} for winners in first)
    assert sum(winners == {1} for winners in second) >= 30
