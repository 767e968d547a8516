"""Ratings are only updated when there is someone to compare with."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from twintable.core.game import Outcome
from twintable.server.ratings import new_ratings
from twintable.server.storage.models import SeatRow


class NoStore:
    """Fails if touched: these games must not be rated at all."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the store was used ({name})")


@pytest.mark.parametrize(("players", "winners"), [(1, {0}), (3, {0, 1, 2})],
                         ids=["solo", "cooperative"])
def test_solo_and_cooperative_games_are_not_rated(players: int, winners: set[int]) -> None:
    seats = [SeatRow(table_id="t", seat=seat, kind="human", player_id=f"player-{seat}x",
                     display_name=f"P{seat}") for seat in range(players)]
    outcome = Outcome((3,) * players, frozenset(winners))
    assert asyncio.run(new_ratings(NoStore(), "twinit", seats, outcome)) == []  # type: ignore[arg-type]
