"""Timo's Twist cards: colours, ranks, points, and decks loaded from data/decks.json.

A card is an int id into its deck; the deck's tuples give each id's colour, rank and
points, so the hot path compares small ints and never builds card objects.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

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


#: The most cards a deck may hold (the C engine's tables are this long).
MAX_CARDS = 128
#: The card counts a custom deck names: per colour, and black cards.
COLOURED_RANKS = RANKS[:WILD]
BLACK_RANKS = ("colour", "+4")

CountsPerColour = dict[Literal[COLOURED_RANKS], Annotated[int, Field(ge=0, le=8)]]  # type: ignore[valid-type]
BlackCounts = dict[Literal[BLACK_RANKS], Annotated[int, Field(ge=0, le=16)]]  # type: ignore[valid-type]


class DeckFile(BaseModel):
    """A custom deck (``--deck FILE``, or the ``deck`` option as a composition): how many
    of each card every colour has, and how many black cards, as in ``data/decks.json``.
    Ranks left out have none."""

    model_config = ConfigDict(extra="forbid")

    description: str = ""
    per_colour: CountsPerColour
    black: BlackCounts = Field(default_factory=dict)

    @model_validator(mode="after")
    def _playable(self) -> DeckFile:
        coloured = sum(self.per_colour.values()) * len(COLOURS)
        total = coloured + sum(self.black.values())
        if coloured == 0:
            raise ValueError("a deck needs coloured cards (the start card is one)")
        if total > MAX_CARDS:
            raise ValueError(f"{total} cards: a deck holds at most {MAX_CARDS}")
        return self

    def composition(self) -> dict[str, Any]:
        """The deck as the ``deck`` option holds it: counts in rank order, none left out
        that is above zero (the same deck always reads the same)."""
        return {"per_colour": {rank: self.per_colour[rank] for rank in COLOURED_RANKS
                               if self.per_colour.get(rank)},
                "black": {rank: self.black[rank] for rank in BLACK_RANKS if self.black.get(rank)}}


def load_deck(deck: str | Mapping[str, Any]) -> Deck:
    """A deck by its name in ``data/decks.json``, or a composition (:class:`DeckFile`'s
    ``per_colour`` and ``black``)."""
    if isinstance(deck, str):
        return _named_deck(deck)
    return _composed_deck(json.dumps(dict(deck), sort_keys=True))


@cache
def _named_deck(name: str) -> Deck:
    return _build(name, _deck_data()[name])


@cache
def _composed_deck(text: str) -> Deck:
    return _build("custom", json.loads(text))


def _build(name: str, spec: Mapping[str, Any]) -> Deck:
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
