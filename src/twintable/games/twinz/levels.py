"""Twinz bot levels: how fast each level plays (:class:`Pace`, :data:`LEVELS`, word
rarity stretching reaction times) and what each knows beyond the word vectors
(:class:`Knowledge`, :data:`KNOWLEDGE`). The bots themselves are in :mod:`.bots`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pace:
    """How fast a level plays, modelled on people: medians (ms) of log-normal times for
    an everyday word; :func:`difficulty` stretches them for rarer ones."""

    guess_ms: float
    """From the clues appearing to a typed guess: reading two words, thinking, typing."""
    clue_ms: float
    """From the countdown's start to a typed clue (capped inside the countdown)."""
    draw_ms: float
    """Taking the card once it is the duo's turn."""
    judge_ms: float
    """Contesting a clue, or voting on a contest, from the moment it is on view."""
    spread: float
    """Sigma of the log-normal: people vary from one word to the next."""

    def draw(self, median: float, zipf: float, rng: random.Random) -> int:
        """One reaction time (ms): the median, stretched by the word's rarity, times a
        log-normal draw from ``rng`` (the bot's seeded generator)."""
        return int(median * difficulty(zipf) * rng.lognormvariate(0.0, self.spread))


#: Bot levels. A person answers an easy pair of clues in a few seconds; the default level
#: (``words``, that is ``sharp``) needs about 5 s for an everyday word, so a person who
#: has it in 2-3 s wins the race (tests/games/twinz/test_fair_races.py measures it).
LEVELS = {
    "casual": Pace(guess_ms=7000, clue_ms=3400, draw_ms=1600, judge_ms=2500, spread=0.45),
    "sharp": Pace(guess_ms=5200, clue_ms=2800, draw_ms=1200, judge_ms=2000, spread=0.4),
    "expert": Pace(guess_ms=4000, clue_ms=2200, draw_ms=900, judge_ms=1500, spread=0.35),
}
DEFAULT_LEVEL = "sharp"
#: Zipf frequency (wordfreq's scale: 6 = very common, 3 = rare) at and above which a word
#: costs no extra time; every point below it adds RARITY_COST of the median.
EVERYDAY_ZIPF = 5.0
RARITY_COST = 0.2
#: A word the bot has no frequency for counts as this rare.
UNKNOWN_ZIPF = 2.0
#: A clue bot types its clue at least this long before the countdown ends (never late).
CLUE_MARGIN_MS = 250


def difficulty(zipf: float) -> float:
    """How much longer a word of this frequency takes than an everyday one (>= 1)."""
    return 1.0 + RARITY_COST * max(0.0, EVERYDAY_ZIPF - max(zipf, 1.0))


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a level knows beyond the word vectors (issue 15: levels differ in knowledge)."""

    knows_decks: bool
    """Knows the cards (they are public): a deck word is a likelier answer."""
    lexicon: float
    """How much of the association lexicon it knows (what players say for each deck
    word): this share of each word's list, strongest first; 0 for none."""
    min_zipf: float
    """Vocabulary: never guesses a word rarer than this (Zipf), deck words it knows aside."""
    depth: int
    """How many clue candidates it weighs for a mystery word."""
    clue_zipf: float
    """Clues: only words at least this common (Zipf), unless rounds taught them."""


#: Levels differ in speed, depth and vocabulary, never in sense (RULES.md §4): even
#: ``casual`` knows what everyone says for a word (the head of each lexicon list) and
#: says only everyday words, so its clues make sense; it knows less and weighs fewer.
KNOWLEDGE = {
    "casual": Knowledge(knows_decks=False, lexicon=0.3, min_zipf=3.3, depth=12,
                        clue_zipf=3.8),
    "sharp": Knowledge(knows_decks=True, lexicon=0.8, min_zipf=3.0, depth=24, clue_zipf=3.0),
    "expert": Knowledge(knows_decks=True, lexicon=1.0, min_zipf=3.0, depth=40, clue_zipf=3.0),
}
