"""The full, secret state of a Twins game. Only the rules module mutates it."""

from __future__ import annotations

from typing import Any

from twintable.core.rng import Rng

BUY, PICK, OVER = "buy", "pick", "over"
#: The kinds of move a seat makes: buy a card, pick a secret set (RULES.md §2).
BUY_KIND, PICK_KIND = "buy", "pick"


class TwinsState:
    """Mutable state with an explicit :meth:`clone`.

    ``picks[seat]`` holds a committed, still secret pair (the cards stay in the hand until
    the reveal). ``played`` holds this hand's revealed sets in order, public to everyone.
    ``out`` marks bankrupt seats, who have left the game.
    """

    __slots__ = (
        "bank", "bought", "buyer", "chips", "dealer", "draw_pile", "ending", "hand_no",
        "hands", "ledger", "options", "out", "phase", "picks", "played", "players", "rng",
        "round_no", "seed", "sitting_out", "version",
    )

    def __init__(self, options: dict[str, Any], players: int, seed: int):
        self.options = options
        self.players = players
        self.seed = seed
        self.rng = Rng(seed)
        self.version = 0
        self.chips: list[int] = [options.get("starting_chips", 12)] * players
        self.bank = 0
        self.out = [False] * players
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.draw_pile: list[int] = []
        self.played: list[tuple[int, int, int, int]] = []  # (round, seat, card, card)
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

    def clone(self) -> TwinsState:
        other = TwinsState.__new__(TwinsState)
        other.options = self.options
        other.players = self.players
        other.seed = self.seed
        other.rng = self.rng.clone()
        other.version = self.version
        other.chips = self.chips[:]
        other.bank = self.bank
        other.out = self.out[:]
        other.hands = [hand[:] for hand in self.hands]
        other.draw_pile = self.draw_pile[:]
        other.played = self.played[:]
        other.picks = self.picks[:]
        other.bought = self.bought[:]
        other.sitting_out = self.sitting_out[:]
        other.dealer = self.dealer
        other.buyer = self.buyer
        other.hand_no = self.hand_no
        other.round_no = self.round_no
        other.phase = self.phase
        other.ending = self.ending
        other.ledger = dict(self.ledger)
        return other
