"""``SlotState``: one clone for every game's state, a copy that shares nothing a move
could change, compiled once per class."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import pytest

from twintable.core.rng import Rng
from twintable.core.slots import Copy, SlotState


class Table(SlotState):
    __slots__ = ("hands", "options", "rng", "scores", "seen", "turn")

    def __init__(self) -> None:
        self.hands = [[1, 2], [3]]
        self.scores = {0: 5}
        self.seen: list[int] = []
        self.rng = Rng(4, 2)
        self.options = (("target", 10),)
        self.turn = 1


class Declared(Table):
    """A subclass naming its copies: its own fields and its base's."""

    __slots__ = ("cache", "log")
    COPIES: ClassVar[Mapping[str, Copy]] = {
        "cache": "reset", "log": lambda log: [entry.upper() for entry in log],
        "hands": "lists", "seen": "share"}

    def __init__(self) -> None:
        super().__init__()
        self.cache: object = object()
        self.log = ["a"]


def test_a_clone_changes_apart_from_its_original() -> None:
    state = Table()
    copy = state.clone()
    assert type(copy) is Table
    copy.hands[0].append(9)
    copy.hands.append([])
    copy.scores[1] = 2
    copy.seen.append(7)
    copy.rng.stream()
    copy.turn = 0
    assert state.hands == [[1, 2], [3]] and state.scores == {0: 5} and state.seen == []
    assert state.rng.to_json() == {"seed": 4, "counter": 2} and state.turn == 1
    assert copy.options is state.options  # immutable: shared


def test_declared_copies_are_used_and_the_bases_fields_copied_too() -> None:
    state = Declared()
    copy = state.clone()
    assert type(copy) is Declared and copy.cache is None and copy.log == ["A"]
    assert copy.seen is state.seen  # declared shared
    assert copy.hands == state.hands and copy.hands[0] is not state.hands[0]
    assert copy.scores == state.scores and copy.scores is not state.scores
    assert Declared.FIELDS == ("hands", "options", "rng", "scores", "seen", "turn", "cache",
                               "log")


def test_adopt_takes_over_every_field() -> None:
    state, other = Declared(), Declared()
    other.turn, other.log = 3, ["z"]
    state.adopt(other)
    assert state.turn == 3 and state.log is other.log and state.cache is other.cache


def test_a_copy_of_no_field_or_of_no_kind_is_refused() -> None:
    with pytest.raises(TypeError, match="COPIES names no field colour"):
        class Misspelt(Table):
            __slots__ = ()
            COPIES: ClassVar[Mapping[str, Copy]] = {"colour": "share"}
    with pytest.raises(TypeError, match="'deep' is not a copy"):
        class Unknown(Table):
            __slots__ = ()
            COPIES: ClassVar[Mapping[str, Copy]] = {"hands": "deep"}
