"""Twins: a poker-face chip game for 3-6 players with simultaneous reveals (RULES.md §2).

Shells find it through its plug-in entry, ``plugin.entry`` (``core/plugin.py``).
"""

from twintable.games.twins.rules import TwinsGame
from twintable.games.twins.state import TwinsState
from twintable.games.twins.views import TwinsView

__all__ = ["TwinsGame", "TwinsState", "TwinsView"]
