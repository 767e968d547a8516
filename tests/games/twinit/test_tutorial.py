"""Twin It's guided first game: the guide is slower than any level a person can choose,
and a person following the hints flips, takes a pair and wins."""

from __future__ import annotations

from tests.games.tutorials import check_sentences, guided, walked_through
from twintable.games.twinit.bots import LEVELS


def test_the_guide_is_slower_than_every_level() -> None:
    _, tutorial = guided("twinit")
    guide = tutorial.bot.make()
    slowest = max(LEVELS.values(), key=lambda level: level.reaction_ms)
    assert guide.level.reaction_ms >= 2 * slowest.reaction_ms
    assert guide.level.flip_ms > slowest.flip_ms


def test_a_person_following_the_hints_reaches_every_step_and_wins() -> None:
    done = walked_through("twinit")
    assert done.winners == {0}
    assert done.at_ms > 10_000  # long enough to read the hints on the way


def test_every_hint_is_written_in_every_language() -> None:
    check_sentences("twinit")
