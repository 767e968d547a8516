"""A registry of games by id, and the discovery of every installed game.

Games are found through the ``twintable.games`` entry points (``core/plugin.py``), the
four built-in ones too (twintable's own ``pyproject.toml`` declares them as any other
game's package does). Every shell finds games only here. Nothing registers itself on
import: :func:`default_registry` builds the registry when asked, from the entry points
installed with the packages.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from twintable.core.errors import OptionError
from twintable.core.game import Game
from twintable.core.plugin import ENTRY_POINT_GROUP, GameEntry


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


@cache
def _entry_points() -> tuple[EntryPoint, ...]:
    """The installed entry points, by game id (read once: installing a game needs a
    restart anyway)."""
    return tuple(sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name))


def game_ids() -> list[str]:
    """The ids of every installed game, read from the entry points without loading any."""
    return [point.name for point in _entry_points()]


def load_entry(point: EntryPoint) -> GameEntry:
    """The entry an entry point names; its name must be the game's id."""
    declare = point.load()
    entry = declare()
    if not isinstance(entry, GameEntry):
        raise TypeError(f"entry point {point.name} = {point.value} returned "
                        f"{type(entry).__name__}, not a GameEntry")
    if entry.id != point.name:
        raise ValueError(f"entry point {point.name} = {point.value} declares the game "
                         f"{entry.id!r}: the entry point's name must be the game's id")
    return entry


def default_registry() -> GameRegistry:
    """A registry holding every installed game (built-in and plug-in) in lobby order,
    each entry built afresh."""
    registry = GameRegistry()
    entries = [load_entry(point) for point in _entry_points()]
    for entry in sorted(entries, key=lambda entry: (entry.lobby_order, entry.id)):
        registry.register(entry)
    return registry
