"""The games: the four built-in ones, each in its own package, and the discovery of every
installed game through the ``twintable.games`` entry points (``core/plugin.py``).

Shells find games only here. Nothing registers itself on import: the registry is built
when asked for, from the entry points installed with the package (the built-in games are
declared in twintable's own ``pyproject.toml``, as any other game's package does).
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points

from twintable.core.plugin import ENTRY_POINT_GROUP, GameEntry
from twintable.core.registry import GameRegistry


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
