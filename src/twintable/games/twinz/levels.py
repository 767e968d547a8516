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

    read_ms: float
    """Reading the two clues: no guess comes sooner after they appear (issue 40: against
    people the race must not be a typing race). Stronger levels read no faster: they
    win by finding the word more often, not by typing first."""
    guess_ms: float
    """After reading, thinking and typing a guess (the median; :meth:`guess_delay`)."""
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

    def guess_delay(self, zipf: float, rng: random.Random) -> int:
        """From the clues appearing to a typed guess: the reading time, then a thinking
        and typing time (:meth:`draw`, rarer words taking longer)."""
        return int(self.read_ms) + self.draw(self.guess_ms, zipf, rng)


#: Bot levels. No bot guesses within 4 s of the clues appearing (its reading time), and
#: the default level (``words``, that is ``sharp``, Medium) needs about 5.75 s for an
#: everyday word, so a person who types the word in 6 s wins about half the races
#: against Medium bots (bench/twinz_race.py measures it; test_fair_races.py bounds it).
LEVELS = {
    "casual": Pace(read_ms=4000, guess_ms=3500, clue_ms=3400, draw_ms=1600, judge_ms=2500,
                   spread=0.45),
    "sharp": Pace(read_ms=4000, guess_ms=1750, clue_ms=2800, draw_ms=1200, judge_ms=2000,
                  spread=0.5),
    "expert": Pace(read_ms=4200, guess_ms=1200, clue_ms=2200, draw_ms=900, judge_ms=1500,
                   spread=0.5),
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
    senses: float = 0.6
    """How far it reads a clue as a sense of a word: a clue close to a word the lexicon
    lists for it ties it by this share of that word's strength (0: only listed words)."""
    plain_places: tuple[int, ...] = (2, 4)
    """Places (0-based) in its answers kept for its best answers by the vectors alone
    (the word may be on no card and in no list)."""


#: Levels differ in speed, depth and vocabulary, never in sense (RULES.md §4): even
#: ``casual`` knows what everyone says for a word (the head of each lexicon list) and
#: says only everyday words, so its clues make sense; it knows less and weighs fewer.
KNOWLEDGE = {
    "casual": Knowledge(knows_decks=False, lexicon=0.3, min_zipf=3.3, depth=12,
                        clue_zipf=3.8, senses=0.0),
    "sharp": Knowledge(knows_decks=True, lexicon=0.8, min_zipf=3.0, depth=24, clue_zipf=3.0),
    # Expert trusts what people say more than the vectors: one place of five for them.
    "expert": Knowledge(knows_decks=True, lexicon=1.0, min_zipf=3.0, depth=40, clue_zipf=3.0,
                        plain_places=(4,)),
}
