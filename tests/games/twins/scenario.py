"""Build Twins states for scenario tests, naming cards like "red 4"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from twintable.games.twins import TwinsGame, TwinsState
from twintable.games.twins.cards import COLOURS, DECK_SIZE, card_id
from twintable.games.twins.state import PICK

GAME = TwinsGame()


def card(name: str) -> int:
    colour, value = name.split()
    return card_id(COLOURS.index(colour), int(value))


def build(hands: Sequence[Sequence[str]], *, round_no: int = 1, chips: Sequence[int] | None = None,
          bank: int = 0, options: dict[str, Any] | None = None, dealer: int = 0,
          sitting_out: Sequence[int] = ()) -> TwinsState:
    """A state in the pick phase of ``round_no`` with these hands; other cards in the pile.

    Extra chips given to the bank come out of nobody's stack, so callers that test chip
    conservation set ``chips`` and ``bank`` to add up.
    """
    state = GAME.new_state(options, len(hands), seed=0)
    state.hands = [sorted(card(name) for name in hand) for hand in hands]
    used = {c for hand in state.hands for c in hand}
    state.draw_pile = [c for c in range(DECK_SIZE) if c not in used]
    state.phase, state.round_no, state.buyer, state.dealer = PICK, round_no, -1, dealer
    state.chips = list(chips) if chips is not None else [12] * len(hands)
    state.bank = bank
    state.sitting_out = [seat in sitting_out for seat in range(len(hands))]
    return state


def pick(state: TwinsState, seat: int, first: str, second: str) -> None:
    from twintable.core.types import Action

    GAME.apply(state, Action(seat, "pick", {"cards": [card(first), card(second)]}))
