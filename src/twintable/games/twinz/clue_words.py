"""Which words a Twinz bot may give as a clue (issue 40: no nonsense, nothing forbidden).

A bot may *read* and *guess* any word of its space (:mod:`.words`); what it *says* aloud
as a clue must also be a word a French player would give and understand:

- **Not English** (RULES.md §4: a translation is contested and upheld): a word read
  more in English than in French (wordfreq, by :data:`ENGLISH_MARGIN` Zipf or more) and
  not common in French reads as the English word (SINGER for CHANTER, CHIP for PUCE,
  SELLER for OREILLER), unless the reviewed list of French words spelt like English ones
  keeps it (``data/vocabulary_review.json``, ``clue_cognates``: FOUR, CASE, MUSCLE).
- **Not a word the bot only knows by a borrowed vector**: spaCy pruned most rare words
  by pointing each at the row of a commoner word (:mod:`.words`). Such a word's tie to
  that commoner word is a copy, not a meaning: POUTINE has OMELETTE's row, FROMAGERIE
  MÉNAGERIE's, REX CAFARD's, SINGER CHANTER's. So a clue never shares the mystery
  word's row, and a clue found by the vectors alone must own its row; a clue the
  association lexicon lists (or that rounds taught) was chosen by people, not by a row.
- **Not a look-alike** when only the vectors found it: the vectors tie words that merely
  begin alike (PORTANT, PORTEUR for PORTE), which says the word's spelling, not its
  sense (a word of its family is refused by the root check anyway).
- **Not rare**: the level's Zipf floor (:class:`.levels.Knowledge` ``clue_zipf``).

Brands, proper names, abbreviations and the English words a reviewer met are out of the
bots' vocabulary altogether (``excluded`` in the same review, :func:`.words.junk_words`).
"""

from __future__ import annotations

from functools import cache

from twintable.games.twinz.decks import fold
from twintable.games.twinz.words import vocabulary_review

#: A word at least this much more frequent in English (Zipf) reads as English ...
ENGLISH_MARGIN = 0.5
#: ... unless it is this common in French (FOUR, CASE, MINE, LOT are French first).
FRENCH_ZIPF = 4.5
#: Two words that begin with this many letters alike look alike to a player.
ALIKE_PREFIX = 4


@cache
def cognates() -> frozenset[str]:
    """Folded French words spelt like English ones that players use as French (reviewed)."""
    return frozenset(fold(word) for words in vocabulary_review().get("clue_cognates", {})
                     .values() for word in words)


@cache
def reads_as_english(word: str) -> bool:
    """Whether ``word`` would be heard as an English word at a French table."""
    from wordfreq import zipf_frequency

    folded = fold(word)
    if folded in cognates() or folded != word.casefold():  # an accent: French spelling
        return False
    french = zipf_frequency(word, "fr")
    return french < FRENCH_ZIPF and zipf_frequency(word, "en") - french >= ENGLISH_MARGIN


def looks_alike(word: str, other: str) -> bool:
    """Whether two words begin with :data:`ALIKE_PREFIX` letters alike (folded)."""
    first, second = fold(word), fold(other)
    return len(first) >= ALIKE_PREFIX and first[:ALIKE_PREFIX] == second[:ALIKE_PREFIX]
