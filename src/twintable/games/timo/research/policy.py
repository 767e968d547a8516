"""The simple Timo's Twist player of the vectorised engine's other seats, in Python, and
the learned player: both bot levels of the game (``greedy`` and ``learned``).

The vector engine (``timo_vector``) plays every seat but the learner's inside C with
this policy (``greedy_index`` in ``games/timo/_native.c``); this is the same policy as a
bot on views, so the differential test can play the same games through ``timo_v0`` and
a researcher can seat it anywhere. It reacts to every TIMO! race at once (catch, or call
TIMO!), always calls TIMO! with its play, plays the card it just drew, else the first
playable coloured card of its hand, else the first playable black card naming the colour
it holds most of (ties: the lowest colour; none held: the colour in force), and draws
only when it cannot play. It uses no randomness.

:class:`LearnedTimoBot` plays the weights ``twintable train timo`` wrote (shipped as
``games/timo/data/timo_a2c.npz``; ``data/timo_a2c.md`` says how they were made): it
answers every TIMO! race at once, as the other bots do, and on its turn plays the legal
move its network thinks most probable. It needs NumPy and nothing of Gymnasium.
"""

from __future__ import annotations

import random
from importlib.resources import as_file, files
from pathlib import Path

import numpy as np

from twintable.core.types import Action
from twintable.games.timo.cards import BLACK
from twintable.games.timo.research import codec
from twintable.games.timo.rules import CALL, CATCH, PLAY
from twintable.games.timo.state import NOBODY
from twintable.games.timo.views import TimoView


def greedy_index(view: TimoView, reacting: bool) -> int:
    """The policy's action index for ``view``'s seat (``reacting``: asked about a race)."""
    seat = view.viewer
    if view.exposed != NOBODY and (reacting or seat == view.turn):
        return codec.CALL_INDEX if seat == view.exposed else codec.CATCH_INDEX
    if reacting:
        return codec.WAIT_INDEX
    deck, hand = view.deck, view.hand
    legal = codec.indexed_legal(view)
    card = view.drawn
    if card == NOBODY:
        playable_cards = {a.payload["card"] for a in view.legal if a.kind == PLAY}
        playable = [c for c in hand if c in playable_cards]
        coloured = [c for c in playable if deck.colour[c] != BLACK]
        card = coloured[0] if coloured else playable[0] if playable else NOBODY
    if card == NOBODY:
        return codec.DRAW_INDEX
    named = 0
    if deck.colour[card] == BLACK:
        counts = [0, 0, 0, 0]
        for other in hand:
            if deck.colour[other] != BLACK:
                counts[deck.colour[other]] += 1
        named = max(range(4), key=lambda c: (counts[c], -c)) if any(counts) else view.colour
    index = codec.play_index(deck.colour[card], deck.rank[card], named, len(hand) == 2)
    assert index in legal, "the policy chose a move the rules do not offer"
    return index


class GreedyTimoPolicy:
    """:func:`greedy_index` as a bot: ``act`` returns the action, or None to wait."""

    name = "greedy"

    def act(self, view: TimoView, rng: random.Random, reacting: bool = False) -> Action | None:
        """``reacting``: asked about a race on its turn (timo_v0's question order)."""
        if not view.legal:
            return None
        index = greedy_index(view, reacting or view.viewer != view.turn)
        return None if index == codec.WAIT_INDEX else codec.indexed_legal(view)[index]


#: The shipped weights, in the game package's data.
WEIGHTS = "timo_a2c.npz"


def weights_available() -> bool:
    """Whether the shipped weights are installed (NumPy is: this module imports it)."""
    return files("twintable.games.timo").joinpath("data", WEIGHTS).is_file()


class LearnedTimoBot:
    """A trained policy as a bot (the module docstring): ``weights`` defaults to the
    shipped file."""

    name = "learned"

    def __init__(self, weights: Path | str | None = None):
        from twintable.games.timo.research.training import LearnedPolicy

        if weights is None:
            with as_file(files("twintable.games.timo").joinpath("data", WEIGHTS)) as path:
                self.policy = LearnedPolicy.load(path)
        else:
            self.policy = LearnedPolicy.load(weights)

    def act(self, view: TimoView, rng: random.Random) -> Action | None:
        for action in view.legal:
            if action.kind in (CALL, CATCH):
                return action
        if view.viewer != view.turn or not view.legal:
            return None
        observation = np.zeros(codec.observation_size(view.players), np.float32)
        mask = np.zeros(codec.N_ACTIONS, np.int8)
        codec.encode(view, False, observation, mask)
        index = self.policy({"observation": observation, "action_mask": mask})
        return codec.indexed_legal(view)[int(index)]


def learned() -> LearnedTimoBot:
    return LearnedTimoBot()
