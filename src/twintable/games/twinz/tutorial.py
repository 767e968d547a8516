"""Twinz's guided first game (``core/tutorial.py``): four players, the newcomer giving a
clue in the first duo, then guessing another duo's word, with a long countdown.

The seed was chosen by playing the walkthrough (tests/games/twinz/test_tutorial.py).
"""

from __future__ import annotations

from typing import Any

from twintable.core.plugin import BotLevel
from twintable.core.tutorial import Advance, Step, Tutorial
from twintable.games.twinz.rules import CLUE, GUESS


def _guide() -> Any:
    from twintable.games.twinz.bots import WordBot

    return WordBot(level="casual")


def _words() -> bool:
    from twintable.games.twinz.words import model_vocab

    return model_vocab() is not None


# The newcomer sits in the first duo: a clue first, then, a round later, guesses. No hint
# to read before the clue: the countdown runs, and the word must stay in sight.
STEPS = (
    Step("clue", "#clue-word, #twinz-phase", "tutorial.twinz.clue", Advance(move=CLUE),
         keep=".tz-mystery, #twinz-phase"),
    Step("result", "#twinz-phase", "tutorial.twinz.result", Advance(event="round_over")),
    Step("guess", "#guess-word, #twinz-phase", "tutorial.twinz.guess", Advance(move=GUESS),
         keep=".tz-clues, #twinz-phase"),
    Step("points", "#log", "tutorial.twinz.points"),
)

def tutorial() -> Tutorial:
    # Time to read the hints before the first clue is due (5 s as printed); the rest as
    # printed.
    return Tutorial(seed=SEED, players=4,
                    bot=BotLevel("guide", "easy", _guide, available=_words),
                    steps=STEPS, person="casual", options={"countdown_s": 20})


SEED = 0
