"""Twin Tricks bots. They decide from their seat's :class:`TricksView` only.

The heuristic bot counts cards: every card played this hand is public, so it knows
which higher cards of a suit are still out, and it estimates how likely a card is to
hold up against the cards the others may hold.
"""

from __future__ import annotations

import random
from math import comb

from twintable.core.types import Action

from twintable_tricks.cards import DECK_SIZE, rank_of, suit_of
from twintable_tricks.views import TricksView

#: Below this chance of holding up, a card played before the trick's end is not worth it.
CONFIDENT_FOLLOW = 0.8


def unseen_cards(view: TricksView) -> set[int]:
    """Cards the viewer has not seen: in the others' hands or never dealt."""
    seen = set(view.hand)
    seen.update(card for _, plays in view.taken for _, card in plays)
    seen.update(card for _, card in view.trick)
    return set(range(DECK_SIZE)) - seen


def hold_chance(card: int, unseen: set[int], cards_out: int) -> float:
    """The chance that no card among ``cards_out`` drawn from ``unseen`` beats ``card``
    in its suit (ignoring that players must follow suit, which only helps)."""
    higher = sum(1 for other in unseen
                 if suit_of(other) == suit_of(card) and rank_of(other) > rank_of(card))
    cards_out = min(cards_out, len(unseen))
    return comb(len(unseen) - higher, cards_out) / comb(len(unseen), cards_out)


class HeuristicTricksBot:
    """Leads its surest card, wins a trick as cheaply as it can, and throws away its
    lowest card when the trick is lost anyway."""

    name = "heuristic"

    def act(self, view: TricksView, rng: random.Random) -> Action | None:
        if not view.legal:
            return None
        cards = {action.payload["card"]: action for action in view.legal}
        choice = self.lead(view, list(cards)) if not view.trick else self.follow(
            view, list(cards))
        return cards[choice]

    def lead(self, view: TricksView, legal: list[int]) -> int:
        unseen = unseen_cards(view)
        still_to_play = sum(size for seat, size in enumerate(view.hand_sizes)
                            if seat != view.viewer)
        # Measured against other thresholds: giving a lead away cheaply loses more often
        # than leading the likeliest winner, whatever its chance.
        return max(legal, key=lambda card: (hold_chance(card, unseen, still_to_play),
                                             -rank_of(card)))

    def follow(self, view: TricksView, legal: list[int]) -> int:
        led = suit_of(view.trick[0][1])
        top = max(rank_of(card) for _, card in view.trick if suit_of(card) == led)
        winning = sorted((card for card in legal if suit_of(card) == led
                          and rank_of(card) > top), key=rank_of)
        if not winning:
            return min(legal, key=rank_of)
        if len(view.trick) == view.players - 1:
            return winning[0]
        # Others still play to this trick: take it with the cheapest card likely to hold.
        unseen = unseen_cards(view)
        assert view.viewer is not None
        later = range(1, view.players - len(view.trick))
        cards_out = sum(view.hand_sizes[(view.viewer + step) % view.players] for step in later)
        for card in winning:
            if hold_chance(card, unseen, cards_out) >= CONFIDENT_FOLLOW:
                return card
        return min(legal, key=rank_of)
