"""Timo's Twist bots: sensible choices from a view, and strength in a quick match."""

from __future__ import annotations

import random

from tests.games.timo.scenario import DECK, GAME, build, card
from twintable.bots.base import RandomBot
from twintable.core.types import Action
from twintable.games.timo.bots import HeuristicTimoBot, SearchTimoBot
from twintable.sim.runner import play_game


def choose(bot: HeuristicTimoBot | SearchTimoBot, state: object, seat: int = 0) -> Action:
    action = bot.act(GAME.view(state, seat), random.Random(1))  # type: ignore[arg-type]
    assert action is not None
    return action


def test_heuristic_names_the_colour_it_holds_most_of() -> None:
    state = build([["colour", "pink 1", "pink 2", "blue 3"], ["green 1"]], top="green 5")
    action = choose(HeuristicTimoBot(), state)
    assert action.payload == {"card": card("colour"), "colour": "pink"}


def test_heuristic_keeps_action_cards_until_the_next_player_is_close() -> None:
    hand = ["blue +2", "blue 7", "green 1"]
    relaxed = build([hand, ["pink 1", "pink 2", "pink 3", "pink 4"]], top="blue 5")
    assert choose(HeuristicTimoBot(), relaxed).payload["card"] == card("blue 7")
    pressed = build([hand, ["pink 1", "pink 2"]], top="blue 5")
    assert choose(HeuristicTimoBot(), pressed).payload["card"] == card("blue +2")


def test_heuristic_stacks_rather_than_drawing() -> None:
    state = build([["pink 3"], ["green +2", "blue 1"]], top="blue +2", turn=1, penalty=2)
    action = choose(HeuristicTimoBot(), state, seat=1)
    assert action.kind == "play" and action.payload["card"] == card("green +2")


def test_heuristic_calls_timo_and_catches_those_who_forget() -> None:
    state = build([["blue 1", "blue 2"], ["pink 1", "pink 2", "pink 3"]], top="blue 5")
    assert choose(HeuristicTimoBot(), state).payload.get("timo") is True
    GAME.apply(state, Action(0, "play", {"card": card("blue 1")}))  # forgot
    assert choose(HeuristicTimoBot(), state, seat=1) == Action(1, "catch", {"target": 0})


def test_search_returns_a_legal_action_and_calls_timo() -> None:
    state = build([["blue 1", "blue 2"], ["pink 1", "pink 2", "pink 3"]], top="blue 5")
    action = choose(SearchTimoBot(samples=6), state)
    assert action.key() in {a.key() for a in GAME.legal_actions(state, 0)}
    assert action.payload.get("timo") is True


def test_search_goes_out_when_it_can() -> None:
    state = build([["blue 1", "green 9", "green 4"], ["pink 1"]], top="blue 5", draw=None)
    state.hands[0] = [card("blue 1")]
    assert choose(SearchTimoBot(samples=4), state).payload["card"] == card("blue 1")


def test_sampled_worlds_agree_with_the_view() -> None:
    state = GAME.new_state({}, 3, seed=4)
    view = GAME.view(state, 1)
    rng = random.Random(3)
    for _ in range(20):
        world = GAME.sample_state(view, rng)
        assert world.hands[1] == state.hands[1]
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert world.discard == state.discard
        everything = [c for h in world.hands for c in h] + world.draw_pile + world.discard
        assert sorted(everything) == list(range(DECK.size))


def test_heuristic_beats_random_in_a_short_match() -> None:
    wins = 0
    for seed in range(20):
        bots = [HeuristicTimoBot(), RandomBot()] if seed % 2 else [RandomBot(),
                                                                   HeuristicTimoBot()]
        heuristic_seat = seed % 2 == 0
        result = play_game(GAME, {"target": 100}, bots, seed)
        wins += int(heuristic_seat) in result.winners
    assert wins >= 15
