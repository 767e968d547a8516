"""Twins cards and sets: 60 cards, values 1-10 in six colours, and how two cards rank.

Card id = colour * 10 + (value - 1). The ink ruling (RULES.md §2): the number on a card
is white when value + colour index is even, black otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from itertools import combinations
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")
DECK_SIZE = 60
VALUES = range(1, 11)

SINGLES, COLOURS_SET, PAIRS, TWINS = 0, 1, 2, 3
CATEGORY_NAMES = ("singles", "colours", "pairs", "twins")


def card_id(colour: int, value: int) -> int:
    return colour * 10 + value - 1


def value_of(card: int) -> int:
    return card % 10 + 1


def colour_of(card: int) -> int:
    return card // 10


def is_white(card: int) -> bool:
    return (value_of(card) + colour_of(card)) % 2 == 0


def classify(first: int, second: int) -> tuple[int, int]:
    """(category, value) of a two-card set; a higher tuple is a stronger set.

    Twins and Pairs rank by their value, Colours and Singles by the sum (RULES.md §2).
    """
    value_a, value_b = value_of(first), value_of(second)
    if value_a == value_b:
        same_ink = is_white(first) == is_white(second)
        return (TWINS if same_ink else PAIRS, value_a)
    if colour_of(first) == colour_of(second):
        return (COLOURS_SET, value_a + value_b)
    return (SINGLES, value_a + value_b)


def set_name(key: tuple[int, int]) -> str:
    return f"{CATEGORY_NAMES[key[0]]} {key[1]}"


# Every set's rank as one int (category * 100 + value), so comparisons on the hot path
# are int comparisons, and its share of all 1,770 sets that it beats or ties.
SET_RANK: list[list[int]] = [[0] * DECK_SIZE for _ in range(DECK_SIZE)]
for _a, _b in combinations(range(DECK_SIZE), 2):
    _category, _value = classify(_a, _b)
    SET_RANK[_a][_b] = SET_RANK[_b][_a] = _category * 100 + _value
_ALL_RANKS = sorted(SET_RANK[a][b] for a, b in combinations(range(DECK_SIZE), 2))
PERCENTILE: dict[int, float] = {}
for _index, _rank in enumerate(_ALL_RANKS):
    PERCENTILE[_rank] = (_index + 1) / len(_ALL_RANKS)

#: What a seat pays to buy its 1st, 2nd, 3rd card in a hand (RULES.md §2).
BUY_COST = (0, 1, 3)


class CashCard:
    """What each round does for a number of players at the start (RULES.md §2 table)."""

    __slots__ = ("gain", "lowest_r1", "lowest_r3", "pay_r1", "pay_r3", "top_r2")

    def __init__(self, lowest_r1: int, top_r2: int, lowest_r3: int, pay_r1: int = 2,
                 gain: int = 3, pay_r3: int = 1):
        self.lowest_r1, self.pay_r1 = lowest_r1, pay_r1
        self.top_r2, self.gain = top_r2, gain
        self.lowest_r3, self.pay_r3 = lowest_r3, pay_r3

    def to_json(self) -> dict[str, Any]:
        return {"round1": {"lowest": self.lowest_r1, "pay": self.pay_r1},
                "round2": {"highest": self.top_r2, "gain": self.gain},
                "round3": {"lowest": self.lowest_r3, "pay": self.pay_r3, "sit_out": True},
                "round4": {"highest": 1, "gain": "bank"}}


CASH_CARDS = {3: CashCard(1, 1, 1), 4: CashCard(2, 1, 1), 5: CashCard(3, 2, 2),
              6: CashCard(3, 2, 2)}


Places = Annotated[int, Field(ge=1, le=5)]
Chips = Annotated[int, Field(ge=0, le=50)]


class _Paying(BaseModel):
    model_config = ConfigDict(extra="forbid")
    lowest: Places
    pay: Chips


class _Paid(BaseModel):
    model_config = ConfigDict(extra="forbid")
    highest: Places
    gain: Chips


class CashCardFile(BaseModel):
    """One cash card: who pays or gets how much in rounds 1 to 3 (round 4 is always the
    whole bank to the best set)."""

    model_config = ConfigDict(extra="forbid")
    round1: _Paying
    round2: _Paid
    round3: _Paying


class ScoringFile(BaseModel):
    """A designer's scoring table for Twins (``--deck FILE``): the cash card per player
    count (counts left out keep the rulebook's), and the chips each player starts with.
    A card cannot make every player pay or be paid: a place count is below the players."""

    model_config = ConfigDict(extra="forbid")
    description: str = ""
    starting_chips: Annotated[int, Field(ge=1, le=100)] | None = None
    cash: dict[Literal["3", "4", "5", "6"], CashCardFile] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _fits(self) -> ScoringFile:
        for players, card in self.cash.items():
            most = max(card.round1.lowest, card.round2.highest, card.round3.lowest)
            if most >= int(players):
                raise ValueError(f"cash.{players}: {most} places of {players} players "
                                 "leaves nobody out")
        return self

    def options(self) -> dict[str, Any]:
        """The options that play this table: ``cash`` (as the option holds it), and
        ``starting_chips`` when the file sets it."""
        chosen: dict[str, Any] = {"cash": {players: card.model_dump() for players, card
                                           in sorted(self.cash.items())}}
        if self.starting_chips is not None:
            chosen["starting_chips"] = self.starting_chips
        return chosen


def cash_card(players: int, options: Mapping[str, Any]) -> CashCard:
    """The cash card these options play for so many players: the ``cash`` option's, else
    the rulebook's."""
    custom = (options.get("cash") or {}).get(str(players))
    if custom is None:
        return CASH_CARDS[players]
    return _card_of(json.dumps(custom, sort_keys=True))


@cache
def _card_of(text: str) -> CashCard:
    card = json.loads(text)
    return CashCard(card["round1"]["lowest"], card["round2"]["highest"],
                    card["round3"]["lowest"], pay_r1=card["round1"]["pay"],
                    gain=card["round2"]["gain"], pay_r3=card["round3"]["pay"])
