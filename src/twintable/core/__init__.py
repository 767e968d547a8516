"""Game-agnostic kernel: actions, events, errors, options, the Game interface, replay.

Nothing here does I/O, reads a clock or touches global randomness.
"""

from twintable.core.errors import OptionError, RuleError
from twintable.core.game import Game, Outcome, View
from twintable.core.options import Option, OptionSchema
from twintable.core.registry import GameRegistry
from twintable.core.replay import Replay
from twintable.core.types import SYSTEM_SEAT, Action, Event

__all__ = [
    "SYSTEM_SEAT",
    "Action",
    "Event",
    "Game",
    "GameRegistry",
    "Option",
    "OptionError",
    "OptionSchema",
    "Outcome",
    "Replay",
    "RuleError",
    "View",
]
