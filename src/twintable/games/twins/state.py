"""The full, secret state of a Twins game. Only the rules module mutates it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from twintable.core.rng import Rng
from twintable.core.slots import Copy, SlotState
from twintable.core.teams import seat_teams

BUY, PICK, OVER = "buy", "pick", "over"
#: The kinds of move a seat makes: buy a card, pick a secret set (RULES.md §2).
BUY_KIND, PICK_KIND = "buy", "pick"


class TwinsState(SlotState):
    """Mutable state with an explicit :meth:`clone`.

    ``picks[seat]`` holds a committed, still secret pair (the cards stay in the hand until
    the reveal). ``played`` holds this hand's revealed sets in order, public to everyone;
    ``last_played`` the hand before's, all four rounds (shown until the first reveal).
    ``out`` marks bankrupt seats, who have left the game.
    """

    __slots__ = (
        "bank", "bought", "buyer", "chips", "dealer", "draw_pile", "ending", "hand_no",
        "hands", "last_played", "ledger", "options", "out", "phase", "picks", "played",
        "players", "rng", "round_no", "seed", "sitting_out", "teams", "version",
    )

    #: How :meth:`clone` copies each changing field (the rest never change in place).
    COPIES: ClassVar[Mapping[str, Copy]] = {
        "rng": "clone", "hands": "lists", "ledger": "dict",
        **dict.fromkeys(("bought", "chips", "draw_pile", "last_played", "out", "picks",
                         "played", "sitting_out"), "list"),
        **dict.fromkeys(("bank", "buyer", "dealer", "ending", "hand_no", "options", "phase",
                         "players", "round_no", "seed", "teams", "version"), "share"),
    }

    def __init__(self, options: dict[str, Any], players: int, seed: int):
        self.options = options
        self.players = players
        self.seed = seed
        #: The team of each seat (the ``teams`` option), None: every player for themselves.
        self.teams = seat_teams(options.get("teams", ()), players)
        self.rng = Rng(seed)
        self.version = 0
        self.chips: list[int] = [options.get("starting_chips", 12)] * players
        self.bank = 0
        self.out = [False] * players
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.draw_pile: list[int] = []
        self.played: list[tuple[int, int, int, int]] = []  # (round, seat, card, card)
        self.last_played: list[tuple[int, int, int, int]] = []
        self.picks: list[tuple[int, int] | None] = [None] * players
        self.bought = [0] * players
        self.sitting_out = [False] * players
        self.dealer = 0
        self.buyer = -1
        self.hand_no = 0
        self.round_no = 0
        self.phase = BUY
        self.ending = False  # a bankruptcy happened: this hand is the last
        # Chips moved, by round, direction and set category ("round2_received_twins"),
        # for simulation reports.
        self.ledger: dict[str, int] = {}

