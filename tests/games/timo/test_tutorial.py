"""Timo's guided first game: a person following the hints plays, draws, calls TIMO!
and wins the short round (seat 0)."""

from __future__ import annotations

from tests.games.tutorials import check_sentences, walked_through


def test_a_person_following_the_hints_reaches_every_step_and_wins() -> None:
    done = walked_through("timo")
    assert done.winners == {0}
    assert done.moves < 40  # a few minutes at a table, not a whole game to 300


def test_every_hint_is_written_in_every_language() -> None:
    check_sentences("timo")
