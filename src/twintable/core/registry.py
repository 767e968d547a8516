"""A registry of games by id: their plug-in entries (``core/plugin.py``), registered
explicitly, never on import."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from twintable.core.errors import OptionError
from twintable.core.game import Game
from twintable.core.plugin import GameEntry


class GameRegistry:
    def __init__(self) -> None:
        self._entries: dict[str, GameEntry] = {}

    def register(self, entry: GameEntry) -> None:
        if entry.id in self._entries:
            raise ValueError(f"game {entry.id!r} is already registered")
        self._entries[entry.id] = entry

    def entry(self, game_id: str) -> GameEntry:
        """The game's whole declaration: rules, bots, timing, client, tools."""
        try:
            return self._entries[game_id]
        except KeyError:
            raise OptionError("game.unknown", f"unknown game {game_id!r} (the games: "
                              f"{', '.join(sorted(self._entries))})",
                              {"game": game_id, "known": sorted(self._entries)}) from None

    def get(self, game_id: str) -> Game[Any]:
        """The game's rules."""
        return self.entry(game_id).rules

    def ids(self) -> list[str]:
        return sorted(self._entries)

    def entries(self) -> list[GameEntry]:
        return list(self._entries.values())

    def __iter__(self) -> Iterator[Game[Any]]:
        return (entry.rules for entry in self._entries.values())

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._entries
