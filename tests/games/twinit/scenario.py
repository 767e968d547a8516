"""Build Twin It tables for timeline tests, naming pictures by number.

``build`` lays out exactly the pictures a test names (centre slots, piles, sets, taboo
rows), choosing for each a card that shows that picture; every other card goes in the
box, out of play. ``run`` applies a timeline of (t_ms, seat, kind, card) steps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from twintable.core.types import SYSTEM_SEAT, Action, Event
from twintable.games.twinit import TwinItGame, TwinItState
from twintable.games.twinit.deck import DECK, PICTURES, family_of

GAME = TwinItGame()


class Cards:
    """Hands out unused cards that show a wanted picture."""

    def __init__(self, state: TwinItState):
        self.state = state
        self.used: set[int] = set()

    def showing(self, picture: int) -> int:
        for card, faces in enumerate(DECK):
            if card not in self.used and picture in faces:
                self.used.add(card)
                self.state.up[card] = faces.index(picture)
                return card
        raise ValueError(f"no card left showing picture {picture}")


def build(players: int = 2, *, options: Mapping[str, Any] | None = None,
          centre: Sequence[int] = (), piles: Mapping[int, Sequence[int]] | None = None,
          sets: Mapping[int, Sequence[Sequence[int]]] | None = None,
          taboo: Mapping[int, Sequence[int]] | None = None, turn: int = 0) -> TwinItState:
    """A table in play; ``piles`` list pictures bottom to top, ``sets`` list each set's
    pictures (one per card)."""
    state = GAME.new_state(options, players, seed=0)
    cards = Cards(state)
    state.centre = [cards.showing(p) if p >= 0 else -1 for p in centre]
    state.piles = [[cards.showing(p) for p in (piles or {}).get(seat, ())]
                   for seat in range(players)]
    state.sets = [[[cards.showing(p) for p in group] for group in (sets or {}).get(side, ())]
                  for side in range(state.sides)]
    state.taboo = [[cards.showing(p) for p in (taboo or {}).get(side, ())]
                   for side in range(state.sides)]
    state.box = [card for card in range(len(DECK)) if card not in cards.used]
    state.turn = turn
    return state


def spare(*avoid: int) -> list[int]:
    """Pictures from families other than the ones of ``avoid`` (no accidental look-alike)."""
    families = {family_of(p) for p in avoid}
    return [p for p in range(0, PICTURES, 5) if family_of(p) not in families]


def act(state: TwinItState, t_ms: int, seat: int, kind: str, card: str | None = None,
        **payload: Any) -> list[Event]:
    if card is not None:
        payload["card"] = card
    return GAME.apply(state, Action(seat, kind, payload, t_ms))


def tick(state: TwinItState, t_ms: int) -> list[Event]:
    return GAME.apply(state, Action(SYSTEM_SEAT, "tick", {}, t_ms))


def run(state: TwinItState, steps: Iterable[tuple[Any, ...]]) -> list[Event]:
    events: list[Event] = []
    for t_ms, seat, kind, *rest in steps:
        events += tick(state, t_ms) if kind == "tick" else act(state, t_ms, seat, kind, *rest)
    return events


def kinds(events: Iterable[Event]) -> list[str]:
    return [event.kind for event in events]


def sides_sets(state: TwinItState) -> list[list[int]]:
    """Each side's sets as their sizes."""
    return [[len(group) for group in groups] for groups in state.sets]


def picture_of_set(state: TwinItState, side: int, index: int) -> int:
    return state.picture(state.sets[side][index][0])


def other_face(state: TwinItState, card: int) -> int:
    return DECK[card][1 - state.up[card]]
