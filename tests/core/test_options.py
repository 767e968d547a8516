"""Options described as data: the values they take, in words, and their unit."""

from __future__ import annotations

from twintable.core.options import Option


def test_each_kind_says_what_values_it_takes() -> None:
    assert Option("hand_size", "int", 7, "", minimum=1, maximum=20,
                  unit="cards").range_text() == "1 to 20 cards"
    assert Option("target", "int", 300, "", minimum=1).range_text() == "at least 1"
    assert Option("limit", "int", None, "", maximum=9).range_text() == "at most 9"
    assert Option("any", "int", 0, "").range_text() == "any integer"
    assert Option("on", "bool", True, "").range_text() == "true or false"
    assert Option("deck", "choice", "a", "", choices=("a", "b", "c")).range_text() == \
        "a, b or c"
    assert Option("seats", "int_list", (), "", minimum=0, maximum=9,
                  max_items=3).range_text() == "up to 3 of 0 to 9"


def test_the_unit_travels_with_the_option() -> None:
    assert Option("deal", "int", 8, "", minimum=8, maximum=18,
                  unit="cards").to_json()["unit"] == "cards"
    assert Option("on", "bool", True, "").to_json()["unit"] is None
