"""Timo's Twist: a shedding card game for 2-6 players (RULES.md §1).

Shells find it through its plug-in entry, ``plugin.entry`` (``core/plugin.py``).
"""

from twintable.games.timo.rules import TimoGame
from twintable.games.timo.state import TimoState
from twintable.games.timo.views import TimoView

__all__ = ["TimoGame", "TimoState", "TimoView"]
