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
``games/timo/data/timo_learned.npz``; ``data/timo_learned.md`` says how they were made): it
answers every TIMO! race at once, as the other bots do, and on its turn plays the legal
move its network thinks most probable. It needs NumPy and nothing of Gymnasium. The
weights were trained at two seats; at a larger table the bot sees the next player as its
one opponent (:meth:`LearnedTimoBot._as_trained`).
"""

from __future__ import annotations

import random
from importlib.resources import as_file, files
from pathlib import Path
from typing import Any

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
WEIGHTS = "timo_learned.npz"


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
        inputs = self.policy.network.params["w1"].shape[0]
        self.players = (inputs - codec.SEATS) // 4

    def _as_trained(self, observation: Any, view: TimoView) -> Any:
        """A view of another table size, seen as the weights' (two seats, the only
        size trained so far): the seat itself, and in the opponent's slot the player who
        moves next (whom its plays hit) with the best score among the others; the turn
        and the exposed seat mark the opponent slot when they are anyone else."""
        players, seats = view.players, codec.SEATS
        relative = observation[seats:].reshape(4, players)
        following = 1 if view.direction == 1 else players - 1
        squeezed = np.array([
            [relative[0, 0], relative[0, following]],
            [relative[1, 0], relative[1, 1:].max()],
            [relative[2, 0], relative[2, 1:].max()],
            [relative[3, 0], relative[3, 1:].max()]], np.float32)
        if self.players != 2:
            raise ValueError(f"weights for {self.players} players cannot seat {players}")
        return np.concatenate([observation[:seats], squeezed.reshape(-1)])

    def act(self, view: TimoView, rng: random.Random) -> Action | None:
        for action in view.legal:
            if action.kind in (CALL, CATCH):
                return action
        if view.viewer != view.turn or not view.legal:
            return None
        observation = np.zeros(codec.observation_size(view.players), np.float32)
        mask = np.zeros(codec.N_ACTIONS, np.int8)
        codec.encode(view, False, observation, mask)
        if view.players != self.players:
            observation = self._as_trained(observation, view)
        index = self.policy({"observation": observation, "action_mask": mask})
        return codec.indexed_legal(view)[int(index)]


def learned() -> LearnedTimoBot:
    return LearnedTimoBot()
