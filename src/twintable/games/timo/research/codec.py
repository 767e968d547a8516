"""Timo's Twist as arrays: the action indices and the observation vector of one seat.

Both the PettingZoo environment (``timo_v0``) and the vectorised engine (``timo_vector``)
speak this encoding, and the learned bot (``research/policy.py``) plays through it at
tables and in ``sim``: encoding needs NumPy alone, only :func:`layout` imports Gymnasium.
The C engine (``games/timo/_native.c``: ``encode`` and the vector engine) writes the same
numbers, and tests/games/timo/research/test_vector.py compares the two after every step.
docs/envs_timo.md is the reader's copy of the layout below.

A *card type* is a colour and a rank, so the two copies of a card in the 108-card deck
share one type: type ``13 * colour + rank`` for the 52 coloured types (rank 0-9, Stop 10,
Twist 11, +2 12), 52 for the Colour card, 53 for the +4.

Actions (``N_ACTIONS`` = 125):

==========  ===================================================================
index       move
==========  ===================================================================
0-103       play the coloured type ``t``: ``2t`` plain, ``2t + 1`` calling TIMO!
104-119     play a black card naming a colour: ``104 + 8b + 2c + timo``, ``b`` 0
            for the Colour card and 1 for the +4, ``c`` the colour (blue, green,
            orange, pink), ``timo`` 1 to call TIMO! with it
120         draw (the penalty, if one is pending)
121         pass (keep the card just drawn)
122         call TIMO! (late: the seat is exposed)
123         catch the exposed seat
124         wait: let a TIMO! race go by (offered only while asked to react)
==========  ===================================================================

A play index means the first card of that type in the hand that may be played now (the
card just drawn, after a draw); which copy it is never matters to the game.

Observation of seat ``s`` (float32, length ``171 + 4 * players``); "relative" blocks
hold one slot per seat, starting with ``s`` and going up in seat number:

============================  ======================================================
slice                         meaning
============================  ======================================================
[0, 54)                       the seat's hand: how many cards of each type
[54, 108)                     the discard pile (since the last reshuffle, top
                              included): how many of each type
[108, 162)                    the top discard's type, one-hot
[162, 166)                    the colour in force, one-hot
166                           the penalty pending (cards the next draw takes)
167                           1 when play goes up in seat number, 0 when down
168                           1 when the seat drew a card it may still play
169                           1 when the seat is asked to react to a TIMO! race
170                           cards in the draw pile
[171, 171 + p)                relative: cards in each hand
[171 + p, 171 + 2p)           relative: scores
[171 + 2p, 171 + 3p)          relative: the seat on turn, one-hot
[171 + 3p, 171 + 4p)          relative: the exposed seat (at one card, no TIMO!
                              yet, catchable), one-hot; all 0 when none
============================  ======================================================
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from twintable.core.types import Action
from twintable.games.timo.cards import BLACK, COLOURS, Deck
from twintable.games.timo.cards import PENALTY as CARD_PENALTIES
from twintable.games.timo.rules import CALL, CATCH, DRAW, PASS, PLAY
from twintable.games.timo.state import NOBODY
from twintable.games.timo.views import TimoView

if TYPE_CHECKING:
    from twintable.envs.layout import Layout

CARD_TYPES = 54
BLACK_PLAYS = 104
DRAW_INDEX, PASS_INDEX, CALL_INDEX, CATCH_INDEX, WAIT_INDEX = 120, 121, 122, 123, 124
N_ACTIONS = 125

HAND, DISCARD, TOP, COLOUR = 0, 54, 108, 162
PENALTY, DIRECTION, DRAWN, REACTING, DRAW_PILE, SEATS = 166, 167, 168, 169, 170, 171

_SIMPLE = {DRAW: DRAW_INDEX, PASS: PASS_INDEX, CALL: CALL_INDEX, CATCH: CATCH_INDEX}


def observation_size(players: int) -> int:
    return SEATS + 4 * players


def layout(players: int, deck: Deck, target: int) -> Layout:
    """The observation's fields for this table, with the largest value each can take."""
    # The layout builds a Gymnasium Box; imported here so that encoding a view (the
    # learned bot at a table) needs NumPy only.
    from twintable.envs.layout import Field, Layout

    most_copies = max(Counter(map(card_type, deck.colour, deck.rank)).values())
    most_penalty = sum(CARD_PENALTIES.get(rank, 0) for rank in deck.rank)
    # A round's winner scores at most every card's points.
    most_score = target - 1 + sum(deck.points)
    fields = Layout([
        Field("hand", CARD_TYPES, most_copies,
              "the seat's hand: a count of the cards of each type"),
        Field("discard", CARD_TYPES, most_copies,
              "the discard pile since the last reshuffle, top included: a count per type"),
        Field("top", CARD_TYPES, 1, "the top discard's type, one-hot"),
        Field("colour", 4, 1, "the colour in force, one-hot (blue, green, orange, pink)"),
        Field("penalty", 1, most_penalty, "cards the pending +2/+4 penalty makes a draw take"),
        Field("direction", 1, 1, "1 when play goes up in seat number, 0 when down"),
        Field("drawn", 1, 1, "1 when the seat drew a card it may still play"),
        Field("reacting", 1, 1, "1 when the seat is asked to react to a TIMO! race"),
        Field("draw_pile", 1, deck.size, "cards in the draw pile"),
        Field("hand_sizes", players, deck.size, "relative: cards in each hand"),
        Field("scores", players, most_score, "relative: each seat's score"),
        Field("turn", players, 1, "relative: the seat on turn, one-hot (all 0 once over)"),
        Field("exposed", players, 1,
              "relative: the seat at one card that has not called TIMO!, one-hot"),
    ])
    assert fields.size == observation_size(players)
    return fields


def card_type(colour: int, rank: int) -> int:
    return 52 + rank - 13 if colour == BLACK else 13 * colour + rank


def play_index(colour: int, rank: int, named: int, timo: bool) -> int:
    """The index of playing a card of ``colour``/``rank``; ``named`` is the colour a black
    card names (ignored for a coloured card)."""
    if colour == BLACK:
        return BLACK_PLAYS + 8 * (rank - 13) + 2 * named + timo
    return 2 * (13 * colour + rank) + timo


def index_of(action: Action, deck: Any) -> int:
    """The action index of a Timo action (its card's type for a play)."""
    if action.kind != PLAY:
        return _SIMPLE[action.kind]
    card = action.payload["card"]
    colour = deck.colour[card]
    named = COLOURS.index(action.payload["colour"]) if colour == BLACK else 0
    return play_index(colour, deck.rank[card], named, bool(action.payload.get("timo", False)))


def indexed_legal(view: TimoView) -> dict[int, Action]:
    """The view's legal actions by index; the first action of an index wins (the first
    copy of a card type in the hand, as the C engine picks)."""
    indexed: dict[int, Action] = {}
    for action in view.legal:
        indexed.setdefault(index_of(action, view.deck), action)
    return indexed


def encode(view: TimoView, reacting: bool, observation: npt.NDArray[np.float32],
           mask: npt.NDArray[np.int8]) -> None:
    """Write ``view``'s observation and action mask into the given zeroed arrays.

    ``reacting``: the seat is asked to react to a TIMO! race rather than to move, so its
    mask holds its race action (call or catch) and wait, and nothing of its turn.
    """
    deck, players = view.deck, view.players
    seat = view.viewer if view.viewer is not None else 0
    colour_of, rank_of = deck.colour, deck.rank
    for card in view.hand:
        observation[HAND + card_type(colour_of[card], rank_of[card])] += 1
    for card in view.discard:
        observation[DISCARD + card_type(colour_of[card], rank_of[card])] += 1
    top = view.discard[-1]
    observation[TOP + card_type(colour_of[top], rank_of[top])] = 1
    observation[COLOUR + view.colour] = 1
    observation[PENALTY] = view.penalty
    observation[DIRECTION] = view.direction == 1
    observation[DRAWN] = view.drawn != NOBODY
    observation[REACTING] = reacting
    observation[DRAW_PILE] = view.draw_pile_size
    for offset in range(players):
        other = (seat + offset) % players
        observation[SEATS + offset] = view.hand_sizes[other]
        observation[SEATS + players + offset] = view.scores[other]
    if not view.over:
        observation[SEATS + 2 * players + (view.turn - seat) % players] = 1
    if view.exposed != NOBODY:
        observation[SEATS + 3 * players + (view.exposed - seat) % players] = 1
    for index, action in indexed_legal(view).items():
        if not reacting or action.kind in (CALL, CATCH):
            mask[index] = 1
    if reacting:
        mask[WAIT_INDEX] = 1
