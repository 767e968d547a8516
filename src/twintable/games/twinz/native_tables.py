"""The word checks of Twinz's rules as integer tables, for its C engine (``_native.c``).

The C engine of the environment (``games/twinz/env.py``) plays clues and guesses as
vocabulary indices, so the rules' word comparisons become comparisons of integers, worked
out here once per printed deck (and remembered for the process):

- a card's mystery word (line and orientation) is a *mystery id*, the word's place in the
  deck's list of words; each has its vocabulary index, and the indices of its plain
  plurals in -s and -x (a right guess with ``accept_plural``: ``TwinzGame._matches``);
- the clues the root rule refuses for each mystery word (``roots.refusal``, RULES.md §4),
  as sorted vocabulary indices;
- reused and identical clues compare folded words, and the vocabulary holds one entry per
  folded form, so equal indices are equal folded words: no table is needed.

The root rule is costly (tens of microseconds a pair, and a deck has hundreds of mystery
words against thousands of clues), so the refused clues are found in two passes: every
word gets the *tokens* that any path of ``roots._why`` to a refusal must share with the
mystery word (its folded spelling, the lemma keys it may be read as, its long stem if
Lexique does not know it, and those of the parts of a compound), and only the clues
sharing a token with the mystery word's tokens (its spelling and plurals, its headwords
and family, their stems) are put to :func:`~twintable.games.twinz.roots.refusal` itself,
which decides.
tests/games/twinz/test_native.py holds the tables to ``refusal`` on sampled pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from twintable.games.twinz import roots
from twintable.games.twinz.decks import fold, load_decks

LINES = 6


@dataclass(frozen=True)
class DeckTables:
    """One printed deck's tables, in the flat integer arrays the C engine reads."""

    #: Each card's number on its back (1-6).
    backs: tuple[int, ...]
    #: ``card * 12 + (line - 1) * 2 + orientation`` -> mystery id.
    card_words: tuple[int, ...]
    #: Mystery id -> vocabulary index of the word, of its -s plural, of its -x plural
    #: (-1: not in the vocabulary), three numbers a word.
    matches: tuple[int, ...]
    #: Mystery id ``m``'s refused clues: ``refused[starts[m]:starts[m + 1]]``, sorted.
    starts: tuple[int, ...]
    refused: tuple[int, ...]


def _tokens(word: str) -> frozenset[str]:
    """What a clue (as ``roots.spell`` writes it) shares with the mystery word's
    :func:`_targets` whenever ``roots._why`` refuses it (a necessary condition only)."""
    found = {"F:" + fold(word), "K:" + roots._key(word)}
    found.update("K:" + key for key in roots._readings(word))
    own = roots._own_reading(word)
    if own:
        found.update("K:" + key for key in own)
    if fold(word) not in roots._lexicon():  # only such a clue is compared by its stem
        root = _stem(word)
        if len(root) >= roots.MIN_STEM:
            found.add("S:" + root)
    parts = [part for part in roots._PARTS.split(word) if len(part) >= 2]
    if len(parts) > 1:
        for part in parts:
            found |= _tokens(part)
    return frozenset(found)


def _targets(mystery: str) -> set[str]:
    """The tokens of a deck word (spelt) that a refused clue's :func:`_tokens` meets: its
    spelling and plurals (same word, inflection), its headwords and their families'
    keys (readings, family), and their stems (a clue outside Lexique)."""
    found = {"F:" + fold(mystery)} | {"F:" + fold(plural) for plural in roots.plurals(mystery)}
    related = roots._related(mystery) | roots._heads(mystery)
    found.update("K:" + key for key in related)
    found.update("S:" + _stem(word) for word in related)
    return found


#: Snowball stems, remembered: deck words share family members (stemming is most of the
#: tables' cost).
_stem = cache(roots.stem)


@cache
def _vocabulary_tokens(vocabulary: tuple[str, ...]) -> dict[str, list[int]]:
    """Token -> the vocabulary indices that carry it."""
    holders: dict[str, list[int]] = {}
    for index, word in enumerate(vocabulary):
        spelt = roots.spell(word)
        if not spelt:
            continue
        for token in _tokens(spelt):
            holders.setdefault(token, []).append(index)
    return holders


def refused_clues(mystery: str, vocabulary: tuple[str, ...]) -> list[int]:
    """The vocabulary indices the root rule refuses as clues for ``mystery``, sorted."""
    spelt = roots.spell(mystery)
    holders = _vocabulary_tokens(vocabulary)
    candidates: set[int] = set()
    for token in _targets(spelt):
        candidates.update(holders.get(token, ()))
    return sorted(index for index in candidates
                  if roots.refusal(vocabulary[index], mystery) is not None)


@cache
def deck_tables(deck: str, vocabulary: tuple[str, ...]) -> DeckTables:
    """The tables of the printed deck ``deck`` over ``vocabulary`` (one entry per folded
    form); ValueError when a card word is not in it."""
    cards = load_decks()[deck]
    index_of = {fold(word): index for index, word in enumerate(vocabulary)}
    words: list[str] = []
    ids: dict[str, int] = {}
    card_words: list[int] = []
    for card in cards:
        for line in range(1, LINES + 1):
            for orientation in (0, 1):
                word = card.word(line, orientation)
                if word not in ids:
                    ids[word] = len(words)
                    words.append(word)
                card_words.append(ids[word])
    matches: list[int] = []
    starts = [0]
    refused: list[int] = []
    for word in words:
        target = fold(word)
        if target not in index_of:
            raise ValueError(f"the {deck} deck's word {word!r} is not in the vocabulary")
        matches += [index_of[target], index_of.get(target + "s", -1),
                    index_of.get(target + "x", -1)]
        refused += refused_clues(word, vocabulary)
        starts.append(len(refused))
    return DeckTables(tuple(card.back for card in cards), tuple(card_words), tuple(matches),
                      tuple(starts), tuple(refused))


def flat(numbers: Sequence[int]) -> bytes:
    """Numbers as the C engine reads them: 32-bit signed integers, native order."""
    import array

    return array.array("i", numbers).tobytes()
