"""What one seat, or a spectator, may see of a Twin Tricks game.

A seat sees its own hand; everyone sees how many cards each hand holds, every card
played this hand, the tricks and points won, and whose turn it is. The cards nobody
was dealt stay hidden from all. The view is its own type, so a new field of the state
stays hidden until it is added here on purpose.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from twintable.core.types import Action

from twintable_tricks.cards import card_json
from twintable_tricks.state import Play


def _plays_json(plays: tuple[Play, ...]) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": card_json(card)} for seat, card in plays]


def _trick_json(trick: tuple[int, tuple[Play, ...]] | None) -> dict[str, Any] | None:
    if trick is None:
        return None
    winner, plays = trick
    return {"winner": winner, "plays": _plays_json(plays)}


class TricksView(NamedTuple):
    """A named tuple: immutable, and cheap enough to build for every bot decision."""

    viewer: int | None
    options: dict[str, Any]
    players: int
    hand: tuple[int, ...]
    """The viewer's own cards; empty for a spectator."""
    hand_sizes: tuple[int, ...]
    trick: tuple[Play, ...]
    """The trick on the table, in playing order."""
    taken: tuple[tuple[int, tuple[Play, ...]], ...]
    """This hand's finished tricks: (winner, plays)."""
    last_trick: tuple[int, tuple[Play, ...]] | None
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]
    dealer: int
    leader: int
    turn: int
    hand_no: int
    over: bool
    winners: tuple[int, ...]
    legal: tuple[Action, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "tricks",
            "viewer": self.viewer,
            "options": dict(self.options),
            "players": self.players,
            "hand": [card_json(card) for card in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "trick": _plays_json(self.trick),
            "taken": [_trick_json(trick) for trick in self.taken],
            "last_trick": _trick_json(self.last_trick),
            "tricks_won": list(self.tricks_won),
            "scores": list(self.scores),
            "dealer": self.dealer,
            "leader": self.leader,
            "turn": None if self.over else self.turn,
            "hand_no": self.hand_no,
            "over": self.over,
            "winners": list(self.winners),
            "legal": [action.to_json() for action in self.legal],
        }
