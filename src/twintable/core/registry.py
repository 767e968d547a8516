"""A registry of games by id. Games are registered explicitly, never on import."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from twintable.core.errors import OptionError
from twintable.core.game import Game


class GameRegistry:
    def __init__(self) -> None:
        self._games: dict[str, Game[Any]] = {}

    def register(self, game: Game[Any]) -> None:
        if game.id in self._games:
            raise ValueError(f"game {game.id!r} is already registered")
        self._games[game.id] = game

    def get(self, game_id: str) -> Game[Any]:
        try:
            return self._games[game_id]
        except KeyError:
            raise OptionError("game.unknown", f"unknown game {game_id!r}",
                              {"game": game_id, "known": sorted(self._games)}) from None

    def ids(self) -> list[str]:
        return sorted(self._games)

    def __iter__(self) -> Iterator[Game[Any]]:
        return iter(self._games.values())

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games
