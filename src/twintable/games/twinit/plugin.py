"""Twin It as a plug-in (``core/plugin.py``): its rules, its perception bots and their
levels, the pictures a client draws, and the rematch rule of chained games.

Twin It is played in the browser only (no terminal game). Bots and pictures are loaded
only when a shell first asks for them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from twintable.core.game import Outcome
from twintable.core.plugin import BotLevel, GameEntry
from twintable.games.twinit.rules import TwinItGame
from twintable.games.twinit.state import COMPETITIVE

#: The perception bots by name (``games/twinit/bots.py: LEVELS``), one a level on the
#: shared scale, weakest first; bench/levels.py measures each against the one below and
#: against scripted people.
LEVELS = {"beginner": "beginner", "casual": "easy", "sharp": "medium", "quick": "hard",
          "expert": "expert"}
#: Former names still accepted: "relaxed" was the slowest beginner, once the default.
ALIASES = {"beginner": ("relaxed",)}


def _perception(name: str) -> Callable[[], Any]:
    def make() -> Any:
        from twintable.games.twinit.bots import PerceptionBot

        return PerceptionBot(name)

    return make


def assets() -> dict[str, Any]:
    """Every picture as SVG with its name, and the level table's score floors."""
    from twintable.games.twinit.art import picture_svg
    from twintable.games.twinit.deck import PICTURES, picture_name
    from twintable.games.twinit.views import LEVEL_FLOORS

    return {"pictures": [picture_svg(p, 100) for p in range(PICTURES)],
            "names": [picture_name(p) for p in range(PICTURES)],
            "levels": {str(players): list(floors)
                       for players, floors in LEVEL_FLOORS.items()}}


def rematch_options(options: Mapping[str, Any], outcome: Outcome) -> dict[str, Any]:
    """RULES.md §3, taboo for chained games: in the French edition's competitive mode the
    last winners play the rematch under taboo."""
    chained = dict(options)
    if (options.get("edition") == "fr" and options.get("mode") == COMPETITIVE
            and outcome.winners):
        chained["taboo"] = sorted(outcome.winners)
    return chained


def tutorial() -> Any:
    """The guided first game (``tutorial.py``), loaded when a shell asks for it."""
    from twintable.games.twinit.tutorial import tutorial as guided

    return guided()


def entry() -> GameEntry:
    return GameEntry(
        rules=TwinItGame(), package="twintable.games.twinit",
        bots=tuple(BotLevel(name, level, _perception(name), aliases=ALIASES.get(name, ()))
                   for name, level in LEVELS.items()),
        default_bot="beginner",
        # Random touches are errors, not a way to play: the random bot is no level here.
        random_is_a_level=False,
        # Random moves rarely find twins: the kit's random games stop at the first set.
        short_options={"sets_to_win": 1, "duration_s": 10, "rounds": 2},
        tutorial=tutorial, lobby_order=30,
        extensions={
            "server": {"assets": assets, "rematch_options": rematch_options},
            "terminal": {"commands": "twintable.games.twinit.commands:app"},
            "envs": {"module": "twintable.games.twinit.env", "gym_id": "twintable/TwinIt-v0",
                     "names": {"twinit_v0": "twintable.games.twinit.env"}},
            "loadtest": {"chooser": "twintable.games.twinit.load:choose"}})
