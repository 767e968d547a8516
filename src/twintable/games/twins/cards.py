"""Twins cards and sets: 60 cards, values 1-10 in six colours, and how two cards rank.

Card id = colour * 10 + (value - 1). The ink ruling (RULES.md §2): the number on a card
is white when value + colour index is even, black otherwise.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

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

    def __init__(self, lowest_r1: int, top_r2: int, lowest_r3: int):
        self.lowest_r1, self.pay_r1 = lowest_r1, 2
        self.top_r2, self.gain = top_r2, 3
        self.lowest_r3, self.pay_r3 = lowest_r3, 1

    def to_json(self) -> dict[str, Any]:
        return {"round1": {"lowest": self.lowest_r1, "pay": self.pay_r1},
                "round2": {"highest": self.top_r2, "gain": self.gain},
                "round3": {"lowest": self.lowest_r3, "pay": self.pay_r3, "sit_out": True},
                "round4": {"highest": 1, "gain": "bank"}}


CASH_CARDS = {3: CashCard(1, 1, 1), 4: CashCard(2, 1, 1), 5: CashCard(3, 2, 2),
              6: CashCard(3, 2, 2)}
