"""The guided game's steps: when each is done, as the server and the browser read it."""

from __future__ import annotations

import pytest

from twintable.core.plugin import BotLevel
from twintable.core.tutorial import READ, Advance, Step, Tutorial, advance
from twintable.core.types import Event

ME, OTHER, CLOCK = 0, 1, -1


@pytest.mark.parametrize(("rule", "seat", "kind", "events", "done"), [
    (Advance(move="play"), ME, "play", [], True),
    (Advance(move="play"), OTHER, "play", [], False),  # someone else's move is not mine
    (Advance(move="play"), ME, "draw", ["played"], False),
    (Advance(event="taken"), OTHER, "touch", ["taken"], True),
    (Advance(event="taken"), CLOCK, "timeout", ["taken"], True),
    (Advance(event="taken", mine=True), OTHER, "touch", ["taken"], False),
    (Advance(event="taken", mine=True), ME, "touch", ["touched", "taken"], True),
    (Advance(event="taken"), ME, "touch", ["touched"], False),
    (READ, ME, "play", ["played"], False),  # only "Next" ends a step that explains
])
def test_a_step_is_done_by_its_own_move_or_event(rule: Advance, seat: int, kind: str,
                                                 events: list[str], done: bool) -> None:
    assert rule.met(ME, seat, kind, events) is done


def test_only_events_the_player_sees_count_and_steps_go_one_at_a_time() -> None:
    steps = (Step("a", "#a", "t.a", Advance(event="drew")), Step("b", "#b", "t.b"))
    secret = Event("drew", {}, frozenset({OTHER}))
    assert advance(steps, 0, ME, OTHER, "draw", [secret]) == 0
    assert advance(steps, 0, ME, OTHER, "draw", [Event("drew")]) == 1
    assert advance(steps, 1, ME, OTHER, "draw", [Event("drew")]) == 1
    assert advance(steps, 2, ME, OTHER, "draw", [Event("drew")]) == 2


def test_a_tutorial_is_sent_without_its_deal_and_checks_its_steps() -> None:
    bot = BotLevel("guide", "beginner", object)
    steps = (Step("a", "#a", "t.a", Advance(move="play")), Step("b", "#b", "t.b"))
    sent = Tutorial(seed=7, players=2, bot=bot, steps=steps, person="random").to_json()
    assert sent == {"steps": [
        {"id": "a", "anchor": "#a", "text": "t.a", "advance": {"move": "play"}, "keep": ""},
        {"id": "b", "anchor": "#b", "text": "t.b", "advance": {"next": True}, "keep": ""}]}
    assert "seed" not in str(sent)
    with pytest.raises(ValueError, match="own id"):
        Tutorial(seed=7, players=2, bot=bot, steps=steps * 2, person="random")
    with pytest.raises(ValueError, match="not both"):
        Advance(move="play", event="played")
