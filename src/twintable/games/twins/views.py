"""What one seat, or a spectator, may see of a Twins game.

A seat sees its own hand and its own committed pick; everyone sees the chips, the bank,
the round, who has committed (never what), and the sets revealed so far this hand.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from twintable.core.types import Action
from twintable.games.twins.cards import (
    CATEGORY_NAMES,
    COLOURS,
    SET_RANK,
    cash_card,
    classify,
    colour_of,
    is_white,
    value_of,
)


def card_json(card: int) -> dict[str, Any]:
    return {"id": card, "colour": COLOURS[colour_of(card)], "value": value_of(card),
            "ink": "white" if is_white(card) else "black"}


def played_json(played: tuple[tuple[int, int, int, int], ...]) -> list[dict[str, Any]]:
    return [{"round": r, "seat": s, "cards": [card_json(a), card_json(b)],
             "set": CATEGORY_NAMES[classify(a, b)[0]], "rank": SET_RANK[a][b]}
            for r, s, a, b in played]


class TwinsView(NamedTuple):
    viewer: int | None
    options: dict[str, Any]
    players: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    chips: tuple[int, ...]
    bank: int
    out: tuple[bool, ...]
    dealer: int
    hand_no: int
    round_no: int
    phase: str
    buyer: int
    bought: tuple[int, ...]
    committed: tuple[bool, ...]
    my_pick: tuple[int, int] | None
    sitting_out: tuple[bool, ...]
    played: tuple[tuple[int, int, int, int], ...]
    """This hand's revealed sets: (round, seat, card, card)."""
    legal: tuple[Action, ...]
    last_played: tuple[tuple[int, int, int, int], ...] = ()
    """The hand before's revealed sets, round 4 and the bank's set included."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "twins",
            "viewer": self.viewer,
            # JSON's shape (a tuple option, ``teams``, as a list), as a client reads it.
            "options": {k: list(v) if isinstance(v, tuple) else v
                        for k, v in self.options.items()},
            "players": self.players,
            "hand": [card_json(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "chips": list(self.chips),
            "bank": self.bank,
            "out": list(self.out),
            "dealer": self.dealer,
            "hand_no": self.hand_no,
            "round": self.round_no,
            "phase": self.phase,
            "buyer": self.buyer if self.buyer >= 0 else None,
            "bought": list(self.bought),
            "committed": list(self.committed),
            "my_pick": [card_json(c) for c in self.my_pick] if self.my_pick else None,
            "sitting_out": list(self.sitting_out),
            "played": played_json(self.played),
            "last_played": played_json(self.last_played),
            "cash_card": cash_card(self.players, self.options).to_json(),
            "legal": [action.to_json() for action in self.legal],
        }
