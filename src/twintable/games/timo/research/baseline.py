"""The ``search`` bot as it was before its rollouts moved into C (issue 27, round two):
kept as a fixed yardstick for benchmarks ("the current ``search``" of the trained agent's
target) and for the bot ladder's history, not offered at tables.

Per decision it samples ``samples`` (24) states in Python, and for each candidate plays
the round out on the C engine with ``_native.c: greedy_round`` (a random playable
coloured card, a black one only when no other fits). It needs the C engine.
"""

from __future__ import annotations

import random
from typing import Any

from twintable.core.types import Action
from twintable.games.timo.bots import REFLEXES, SearchTimoBot, _reaction, _round_value
from twintable.games.timo.fast import FastTimoGame
from twintable.games.timo.rules import TimoGame
from twintable.games.timo.state import TimoState
from twintable.games.timo.views import TimoView


class RandomRolloutSearchBot:
    """Determinized Monte Carlo with random rollouts: the pre-round-two ``search``."""

    name = "search-v1"
    # The same reflexes in TIMO! races as the level it was.
    reflexes = REFLEXES["search"]

    def __init__(self, samples: int = 24):
        self.samples = samples
        self.game = TimoGame()
        self._fast = FastTimoGame()
        self._candidates = SearchTimoBot(native=False)._candidates
        self._templates: dict[tuple[Any, ...], Any] = {}

    def act(self, view: TimoView, rng: random.Random) -> Action | None:
        reaction = _reaction(view)
        if reaction is not None:
            return reaction
        if view.viewer != view.turn or not view.legal:
            return None
        candidates = self._candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        totals = [0.0] * len(candidates)
        rollout_options = {**view.options, "target": 1}
        for _ in range(self.samples):
            sample = self.game.sample_state(view, rng)
            sample.options = rollout_options
            for index, action in enumerate(candidates):
                state = sample.clone()
                self.game.apply(state, action)
                totals[index] += self._rollout(state, view, rng)
        best = max(range(len(candidates)), key=lambda i: totals[i])
        return candidates[best]

    def _rollout(self, state: TimoState, view: TimoView, rng: random.Random) -> float:
        key = (state.players, *sorted(state.options.items()))
        template = self._templates.get(key)
        if template is None:
            template = self._templates[key] = self._fast.new_state(state.options,
                                                                   state.players, 0)
        engine = template.clone()
        engine.load(self._fast.plain(state))
        version, words, gauss = rng.getstate()
        rng.setstate((version, engine.greedy_round(words), gauss))
        return _round_value(view, engine.round_winner, engine.scores)
