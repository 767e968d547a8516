"""Shared fixtures: the game, and states built for a case (the "override setup" pattern)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from twintable_tricks.cards import from_label as card
from twintable_tricks.rules import TricksGame
from twintable_tricks.state import TricksState

Build = Callable[..., TricksState]


@pytest.fixture
def game() -> TricksGame:
    return TricksGame()


@pytest.fixture
def build(game: TricksGame) -> Build:
    """A game whose hands, trick on the table and turn are set for the case; the cards
    nobody holds go to the stock."""

    def make(hands: Sequence[Sequence[str]], trick: Sequence[tuple[int, str]] = (),
             turn: int | None = None, target: int = 10) -> TricksState:
        state = game.new_state({"target": target, "hand_size": max(map(len, hands))},
                               len(hands), seed=1)
        state.hands = [[card(name) for name in hand] for hand in hands]
        state.trick = [(seat, card(name)) for seat, name in trick]
        state.leader = trick[0][0] if trick else (turn or 0)
        state.turn = turn if turn is not None else (
            (trick[-1][0] + 1) % len(hands) if trick else 0)
        held = {c for hand in state.hands for c in hand} | {c for _, c in state.trick}
        state.stock = [c for c in range(40) if c not in held]
        return state

    return make
