"""Timo's Twist cards: colours, ranks, points, and decks loaded from data/decks.json.

A card is an int id into its deck; the deck's tuples give each id's colour, rank and
points, so the hot path compares small ints and never builds card objects.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

COLOURS = ("blue", "green", "orange", "pink")
BLACK = 4
COLOUR_NAMES = (*COLOURS, "black")
COLOUR_SYMBOLS = ("♦", "♣", "▲", "♥", "★")  # colour is never carried by hue alone

RANKS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "stop", "twist", "+2", "colour", "+4")
STOP, TWIST, PLUS2, WILD, PLUS4 = 10, 11, 12, 13, 14
PENALTY = {PLUS2: 2, PLUS4: 4}

# RULES.md §1 scoring: numbers at face value, Stop/Twist/+2 20, black cards 50.
RANK_POINTS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 20, 20, 50, 50)


@dataclass(frozen=True, slots=True)
class Deck:
    """One deck composition: for each card id, its colour index, rank index and points."""

    name: str
    colour: tuple[int, ...]
    rank: tuple[int, ...]
    points: tuple[int, ...]
    card_dicts: tuple[dict[str, Any], ...] = field(default=(), compare=False, repr=False)
    """Each card's JSON, made once: a view writes every card of the discard pile for
    every seat at every move (the server's hot path). Shared: never change one."""

    def __post_init__(self) -> None:
        if not self.card_dicts:
            object.__setattr__(self, "card_dicts", tuple(
                {"id": card, "colour": COLOUR_NAMES[colour], "rank": RANKS[rank]}
                for card, (colour, rank) in enumerate(zip(self.colour, self.rank,
                                                          strict=True))))

    @property
    def size(self) -> int:
        return len(self.colour)

    def label(self, card: int) -> str:
        colour, rank = self.colour[card], RANKS[self.rank[card]]
        return rank if colour == BLACK else f"{COLOUR_NAMES[colour]} {rank}"

    def card_json(self, card: int) -> dict[str, Any]:
        return self.card_dicts[card]


def deck_names() -> tuple[str, ...]:
    return tuple(_deck_data())


@cache
def load_deck(name: str) -> Deck:
    spec = _deck_data()[name]
    colours: list[int] = []
    ranks: list[int] = []
    for colour_index in range(len(COLOURS)):
        for rank_name, count in spec["per_colour"].items():
            colours += [colour_index] * count
            ranks += [RANKS.index(rank_name)] * count
    for rank_name, count in spec["black"].items():
        colours += [BLACK] * count
        ranks += [RANKS.index(rank_name)] * count
    return Deck(name, tuple(colours), tuple(ranks), tuple(RANK_POINTS[r] for r in ranks))


@cache
def _deck_data() -> dict[str, Any]:
    text = resources.files("twintable.games.timo").joinpath("data/decks.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data
