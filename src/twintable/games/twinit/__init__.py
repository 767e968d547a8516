"""Twin It: a real-time race to spot identical pictures, 1-6 players (RULES.md §3).

Shells find it through its plug-in entry, ``plugin.entry`` (``core/plugin.py``).
"""

from twintable.games.twinit.rules import TwinItGame
from twintable.games.twinit.state import TwinItState
from twintable.games.twinit.views import TwinItView

__all__ = ["TwinItGame", "TwinItState", "TwinItView"]
