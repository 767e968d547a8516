"""``clone_slots``: a copy that shares nothing a move could change."""

from __future__ import annotations

from twintable.core.rng import Rng
from twintable.core.slots import clone_slots


class Table:
    __slots__ = ("hands", "options", "rng", "scores", "seen", "turn")

    def __init__(self) -> None:
        self.hands = [[1, 2], [3]]
        self.scores = {0: 5}
        self.seen: list[int] = []
        self.rng = Rng(4, 2)
        self.options = (("target", 10),)
        self.turn = 1


def test_a_clone_changes_apart_from_its_original() -> None:
    state = Table()
    copy = clone_slots(state)
    copy.hands[0].append(9)
    copy.hands.append([])
    copy.scores[1] = 2
    copy.seen.append(7)
    copy.rng.stream()
    copy.turn = 0
    assert state.hands == [[1, 2], [3]] and state.scores == {0: 5} and state.seen == []
    assert state.rng.to_json() == {"seed": 4, "counter": 2} and state.turn == 1
    assert copy.options is state.options  # immutable: shared
