"""Twin Tricks rules, case by case, from states built for each case."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from twintable.core.errors import RuleError
from twintable.core.types import Action

from twintable_tricks.cards import from_label as card
from twintable_tricks.rules import TricksGame
from twintable_tricks.state import TricksState

Build = Callable[..., TricksState]


def play(seat: int, name: str) -> Action:
    return Action(seat, "play", {"card": card(name)})


def test_a_player_must_follow_the_suit_led_when_they_can(game: TricksGame,
                                                         build: Build) -> None:
    state = build([["suns 2"], ["suns 3", "moons 9"]], trick=[(0, "suns 2")])
    assert [a.payload["card"] for a in game.legal_actions(state, 1)] == [card("suns 3")]
    with pytest.raises(RuleError) as refused:
        game.apply(state, play(1, "moons 9"))
    assert refused.value.code == "card.must_follow"


def test_a_player_without_the_suit_led_may_play_any_card(game: TricksGame,
                                                         build: Build) -> None:
    state = build([["suns 2"], ["waves 3", "moons 9"]], trick=[(0, "suns 2")])
    assert {a.payload["card"] for a in game.legal_actions(state, 1)} == {
        card("waves 3"), card("moons 9")}


@pytest.mark.parametrize(("plays", "winner"), [
    # The highest card of the suit led wins; another suit never does, however high.
    ([(1, "stars 4"), (2, "moons 10"), (0, "stars 2")], 1),
    ([(1, "stars 4"), (2, "stars 9"), (0, "stars 2")], 2),
    ([(1, "stars 4"), (2, "stars 1"), (0, "stars 7")], 0),
])
def test_the_highest_card_of_the_suit_led_takes_the_trick_and_leads_next(
        game: TricksGame, build: Build, plays: list[tuple[int, str]], winner: int) -> None:
    hands = [["suns 1", "suns 2"], ["suns 3", "suns 4"], ["suns 5", "suns 6"]]
    for seat, name in plays:
        hands[seat].append(name)
    state = build(hands, turn=1)
    events = []
    for seat, name in plays:
        events += game.apply(state, play(seat, name))
    assert events[-1].kind == "trick_won" and events[-1].data["seat"] == winner
    assert state.tricks_won[winner] == 1
    assert game.to_act(state) == {winner} and state.trick == []


def test_the_last_trick_scores_one_more_and_a_new_hand_is_dealt(game: TricksGame,
                                                                build: Build) -> None:
    state = build([["moons 1", "suns 8"], ["moons 2", "suns 9"]], target=99)
    for action in [play(0, "moons 1"), play(1, "moons 2"), play(1, "suns 9")]:
        game.apply(state, action)
    events = game.apply(state, play(0, "suns 8"))
    over = next(e for e in events if e.kind == "hand_over")
    assert over.data["tricks"] == [0, 2] and over.data["points"] == [0, 3]
    assert state.scores == [0, 3]
    assert state.hand_no == 2 and [len(hand) for hand in state.hands] == [2, 2]
    assert state.turn == (state.dealer + 1) % 2
    assert state.last_trick == (1, ((1, card("suns 9")), (0, card("suns 8"))))


def test_the_game_ends_after_the_hand_that_reaches_the_target_and_ties_share(
        game: TricksGame, build: Build) -> None:
    state = build([["moons 1", "suns 8"], ["moons 2", "suns 9"]], target=2)
    state.scores = [2, 0]
    for action in [play(0, "moons 1"), play(1, "moons 2"), play(1, "suns 9")]:
        game.apply(state, action)
    events = game.apply(state, play(0, "suns 8"))
    assert events[-1].kind == "game_over"
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.scores == (2, 3) and outcome.winners == {1}
    tied = build([["moons 1"], ["moons 2"]], target=1)
    tied.scores = [2, 0]
    game.apply(tied, play(0, "moons 1"))
    game.apply(tied, play(1, "moons 2"))
    assert tied.scores == [2, 2]
    result = game.outcome(tied)
    assert result is not None and result.winners == {0, 1}


@pytest.mark.parametrize(("action", "code"), [
    (Action(1, "play", {"card": 0}), "turn.not_yours"),
    (Action(0, "play", {"card": 39}), "card.not_in_hand"),
    (Action(0, "play", {"card": True}), "card.not_in_hand"),
    (Action(0, "play", {}), "card.not_in_hand"),
    (Action(0, "pass"), "action.unknown"),
    (Action(7, "play", {"card": 0}), "seat.invalid"),
])
def test_illegal_actions_are_refused_and_change_nothing(game: TricksGame, build: Build,
                                                        action: Action, code: str) -> None:
    state = build([["moons 1", "suns 8"], ["moons 2", "suns 9"]])
    before = game.snapshot(state)
    with pytest.raises(RuleError) as refused:
        game.apply(state, action)
    assert refused.value.code == code
    assert game.snapshot(state) == before


def test_a_view_shows_its_own_hand_and_the_table_but_no_other_hand(game: TricksGame,
                                                                    build: Build) -> None:
    state = build([["moons 1", "suns 8"], ["moons 2", "suns 9"]], trick=[(0, "waves 4")],
                  turn=1)
    view = game.view(state, 1).to_json()
    assert [c["id"] for c in view["hand"]] == [card("moons 2"), card("suns 9")]
    assert view["hand_sizes"] == [2, 2] and view["turn"] == 1
    assert view["trick"] == [{"seat": 0, "card": {"id": card("waves 4"), "suit": "waves",
                                                  "rank": 4}}]
    spectator = game.view(state, None).to_json()
    assert spectator["hand"] == [] and spectator["legal"] == []
    assert "stock" not in view and "hands" not in view
