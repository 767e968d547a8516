"""The full, secret state of a Twin Tricks game. Only the rules module changes it."""

from __future__ import annotations

from typing import Any

from twintable.core.rng import Rng
from twintable.core.slots import SlotState

NOBODY = -1

#: One card on the table: (seat, card).
Play = tuple[int, int]


class TricksState(SlotState):
    """Mutable state with an explicit :meth:`clone`; card lists hold card ids.

    ``stock`` holds the cards nobody was dealt this hand (never shown). ``trick`` is the
    trick being played, in playing order; ``taken`` lists this hand's finished tricks as
    (winner, plays). ``last_trick`` keeps the latest finished trick, also across the end
    of a hand, so that a table can still show it when the next hand has begun.
    """

    __slots__ = (
        "dealer", "hand_no", "hands", "last_trick", "leader", "options", "over", "players",
        "rng", "scores", "seed", "stock", "taken", "trick", "tricks_won", "turn",
        "turn_count", "version",
    )

    def __init__(self, options: dict[str, Any], players: int, seed: int):
        self.options = options
        self.players = players
        self.seed = seed
        self.rng = Rng(seed)
        self.version = 0
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.stock: list[int] = []
        self.trick: list[Play] = []
        self.taken: list[tuple[int, tuple[Play, ...]]] = []
        self.last_trick: tuple[int, tuple[Play, ...]] | None = None
        self.tricks_won = [0] * players
        self.scores = [0] * players
        self.dealer = 0
        self.leader = 0
        self.turn = 0
        self.hand_no = 0
        self.turn_count = 0
        self.over = False

