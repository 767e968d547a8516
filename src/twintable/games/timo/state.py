"""The full, secret state of a Timo's Twist game. Only the rules module mutates it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from twintable.core.rng import Rng
from twintable.core.slots import Copy, SlotState
from twintable.core.teams import seat_teams
from twintable.games.timo.cards import Deck

NOBODY = -1

#: The kinds of move a seat makes (RULES.md §1).
PLAY, DRAW, PASS, CALL, CATCH = "play", "draw", "pass", "call_timo", "catch"


class TimoState(SlotState):
    """Mutable state with an explicit :meth:`clone`; card lists hold card ids.

    The draw pile's top is its last element. ``exposed`` is the seat that is down to one
    card and has not called TIMO! while the window is open (RULES.md §1: until the next
    player acts); ``caught`` is the seat already caught in that window, so that a later
    catch is refused as too late. ``round_winner`` is the winner of the last finished
    round (the game's winner once it is over).
    """

    __slots__ = (
        "caught", "colour", "dealer", "deck", "direction", "discard", "draw_pile",
        "drawn", "exposed", "hands", "options", "over", "penalty", "players", "rng",
        "round_no", "round_winner", "scores", "seed", "teams", "turn", "turn_count",
        "version",
    )

    #: How :meth:`clone` copies each changing field (the rest never change in place).
    COPIES: ClassVar[Mapping[str, Copy]] = {
        "rng": "clone", "hands": "lists", "draw_pile": "list", "discard": "list",
        "scores": "list",
        **dict.fromkeys(("caught", "colour", "dealer", "deck", "direction", "drawn",
                         "exposed", "options", "over", "penalty", "players", "round_no",
                         "round_winner", "seed", "teams", "turn", "turn_count", "version"),
                      "share"),
    }

    def __init__(self, deck: Deck, options: dict[str, Any], players: int, seed: int):
        self.deck = deck
        self.options = options
        self.players = players
        self.seed = seed
        #: The team of each seat (the ``teams`` option), None: every player for themselves.
        self.teams = seat_teams(options.get("teams", ()), players)
        self.rng = Rng(seed)
        self.version = 0
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.draw_pile: list[int] = []
        self.discard: list[int] = []
        self.colour = 0
        self.turn = 0
        self.direction = 1
        self.penalty = 0
        self.drawn = NOBODY
        self.exposed = NOBODY
        self.caught = NOBODY
        self.dealer = 0
        self.round_no = 0
        self.round_winner = NOBODY
        self.scores = [0] * players
        self.turn_count = 0
        self.over = False

    @property
    def top(self) -> int:
        return self.discard[-1]

