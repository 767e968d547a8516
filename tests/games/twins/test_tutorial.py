"""Twins' guided first game: a person following the hints buys, picks four times and
the hand ends the game."""

from __future__ import annotations

from tests.games.tutorials import check_sentences, guided, walked_through
from twintable.games.twins.rules import ROUNDS


def test_a_person_following_the_hints_reaches_every_step_in_one_hand() -> None:
    done = walked_through("twins")
    _, tutorial = guided("twins")
    # Everyone buys once and picks once a round, but the lowest of round 3 sits out
    # round 4 (RULES.md §2, three players): the one hand is the whole game.
    assert done.moves == tutorial.players * (1 + ROUNDS) - 1
    assert 0 in done.winners


def test_every_hint_is_written_in_every_language() -> None:
    check_sentences("twins")
