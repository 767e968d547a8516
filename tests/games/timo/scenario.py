"""Build Timo's Twist states for scenario tests, naming cards as people read them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from twintable.games.timo import TimoGame, TimoState
from twintable.games.timo.cards import COLOURS, load_deck

GAME = TimoGame()
DECK = load_deck("timo54")
LABELS = {DECK.label(card): card for card in range(DECK.size)}


def card(label: str) -> int:
    return LABELS[label]


def cards(labels: Sequence[str]) -> list[int]:
    return [LABELS[label] for label in labels]


def build(hands: Sequence[Sequence[str]], top: str, *, draw: Sequence[str] | None = None,
          turn: int = 0, direction: int = 1, penalty: int = 0, colour: str | None = None,
          options: dict[str, Any] | None = None, scores: Sequence[int] | None = None,
          dealer: int = 0) -> TimoState:
    """A state with these hands and discard top; unnamed cards fill the draw pile.

    With ``draw`` given (top last), the unnamed cards lie under the discard top instead,
    so every card is still in exactly one place.
    """
    state = GAME.new_state(options, len(hands), seed=0)
    state.hands = [cards(hand) for hand in hands]
    named = {c for hand in state.hands for c in hand} | {card(top)} | set(cards(draw or []))
    rest = [c for c in range(DECK.size) if c not in named]
    if draw is None:
        state.draw_pile, state.discard = rest, [card(top)]
    else:
        state.draw_pile, state.discard = cards(draw), [*rest, card(top)]
    state.turn, state.direction, state.penalty, state.dealer = turn, direction, penalty, dealer
    state.colour = COLOURS.index(colour) if colour else DECK.colour[card(top)]
    if scores is not None:
        state.scores = list(scores)
    return state


def labels(state: TimoState, seat: int) -> list[str]:
    return sorted(DECK.label(c) for c in state.hands[seat])
