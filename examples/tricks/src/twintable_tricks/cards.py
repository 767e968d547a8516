"""Twin Tricks cards: 40 of them, four suits of the ranks 1 to 10.

A card is an int id, ``suit * 10 + rank - 1``, so comparing and sorting cards is
comparing small ints and a card needs no object.
"""

from __future__ import annotations

from typing import Any

SUITS = ("moons", "stars", "suns", "waves")
#: Printed beside the rank so a suit is never told by its colour alone.
SUIT_SYMBOLS = ("☾", "★", "☀", "≈")
RANKS = 10
DECK_SIZE = len(SUITS) * RANKS


def card_id(suit: int, rank: int) -> int:
    return suit * RANKS + rank - 1


def suit_of(card: int) -> int:
    return card // RANKS


def rank_of(card: int) -> int:
    return card % RANKS + 1


def label(card: int) -> str:
    return f"{SUITS[suit_of(card)]} {rank_of(card)}"


def card_json(card: int) -> dict[str, Any]:
    return {"id": card, "suit": SUITS[suit_of(card)], "rank": rank_of(card)}


def from_label(text: str) -> int:
    """The card a label names: ``"suns 7"`` -> its id (the inverse of :func:`label`)."""
    suit, rank = text.split()
    return card_id(SUITS.index(suit), int(rank))
