"""What one seat, or a spectator, may see of a Timo's Twist game.

The view is its own type listing what is visible; a new field of the state stays hidden
until it is added here on purpose.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from twintable.core.types import Action
from twintable.games.timo.cards import COLOUR_NAMES, Deck


class TimoView(NamedTuple):
    """A named tuple: immutable, and cheap enough to build for every bot decision."""

    viewer: int | None
    deck: Deck
    options: dict[str, Any]
    players: int
    hand: tuple[int, ...]
    """The viewer's own cards; empty for a spectator."""
    hand_sizes: tuple[int, ...]
    discard: tuple[int, ...]
    """The discard pile since the last reshuffle, bottom first: every card in it was shown."""
    colour: int
    turn: int
    direction: int
    penalty: int
    drawn: int
    """The card the viewer just drew and may still play, else -1 (others never see it)."""
    draw_pile_size: int
    exposed: int
    dealer: int
    round_no: int
    scores: tuple[int, ...]
    over: bool
    winner: int
    legal: tuple[Action, ...]

    @property
    def top(self) -> int:
        return self.discard[-1]

    def to_json(self) -> dict[str, Any]:
        return self.shared_json() | self.own_json()

    def own_json(self) -> dict[str, Any]:
        """The keys of the JSON that differ from one audience to another."""
        return own_json(self.deck, self.viewer, self.hand, self.drawn,
                        [action.to_json() for action in self.legal])

    def shared_json(self) -> dict[str, Any]:
        """The keys of the JSON that every audience of one state sees alike (the
        server writes them once for all the seats: ``TimoGame.views_json``)."""
        card = self.deck.card_dicts.__getitem__
        return {
            "game": "timo",
            "options": {k: list(v) if isinstance(v, tuple) else v
                        for k, v in self.options.items()},
            "players": self.players,
            "hand_sizes": list(self.hand_sizes),
            "discard": [card(c) for c in self.discard],
            "top": card(self.top),
            "colour": COLOUR_NAMES[self.colour],
            "turn": self.turn,
            "direction": self.direction,
            "penalty": self.penalty,
            "draw_pile_size": self.draw_pile_size,
            "exposed": self.exposed if self.exposed >= 0 else None,
            "dealer": self.dealer,
            "round": self.round_no,
            "scores": list(self.scores),
            "over": self.over,
            "winner": self.winner if self.winner >= 0 else None,
        }


def own_json(deck: Deck, viewer: int | None, hand: tuple[int, ...], drawn: int,
             legal: list[dict[str, Any]]) -> dict[str, Any]:
    """:meth:`TimoView.own_json` from its parts, the legal moves already as JSON (the
    server writes them from a cache: ``TimoGame.views_json``)."""
    card = deck.card_dicts.__getitem__
    return {
        "viewer": viewer,
        "hand": [card(c) for c in hand],
        "drawn": card(drawn) if drawn >= 0 else None,
        "legal": legal,
    }
