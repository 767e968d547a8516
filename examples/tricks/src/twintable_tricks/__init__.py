"""Twin Tricks: a trick-taking card game for 2 to 4 players, as a Twin Table plug-in.

The package holds everything about the game: cards, state, rules, views, bots, its
rules pages and its web module. Twin Table finds it through the ``twintable.games``
entry point declared in this package's pyproject.toml; nothing in Twin Table names it.
"""

from twintable_tricks.rules import TricksGame
from twintable_tricks.state import TricksState
from twintable_tricks.views import TricksView

__all__ = ["TricksGame", "TricksState", "TricksView"]
