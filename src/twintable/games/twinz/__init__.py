"""Twinz: a French word-clue party game for duos, 4-10 players (RULES.md §4).

Shells find it through its plug-in entry, ``plugin.entry`` (``core/plugin.py``).
"""

from twintable.games.twinz.rules import TwinzGame
from twintable.games.twinz.state import TwinzState
from twintable.games.twinz.views import TwinzView

__all__ = ["TwinzGame", "TwinzState", "TwinzView"]
