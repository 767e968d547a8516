"""A designer's own Timo deck (cards.DeckFile, the ``deck`` option as a composition): the
game checks it, plays it on the rules and on the C engine alike, and refuses a deck it
could not deal with a clear message."""

from __future__ import annotations

import pytest

from twintable.core.errors import OptionError
from twintable.core.registry import default_registry
from twintable.games.timo.cards import load_deck
from twintable.games.timo.fast import NATIVE, FastTimoGame
from twintable.games.timo.rules import TimoGame
from twintable.sim.runner import make_bots, play_game

#: No zeros, three +2 a colour, the family deck's black cards: 4 x 25 + 8 = 108 cards.
SHORT = {"per_colour": {"1": 2, "2": 2, "3": 2, "4": 2, "5": 2, "6": 2, "7": 2, "8": 2,
                        "9": 2, "stop": 2, "twist": 2, "+2": 3}, "black": {"colour": 4, "+4": 4}}


def test_a_composition_is_a_deck_option_read_the_same_whatever_its_order() -> None:
    game = TimoGame()
    options = game.resolve_options({"deck": dict(reversed(list(SHORT.items())))})
    assert options["deck"] == game.resolve_options({"deck": SHORT})["deck"]
    deck = load_deck(options["deck"])
    assert deck.size == 4 * 25 + 8 and deck.name == "custom"
    assert load_deck("timo54").size == 54  # names still read the shipped decks
    # More cards seat more players with a bigger hand.
    assert game.player_range({**options, "hand_size": 10}) == (2, 6)


@pytest.mark.parametrize(("deck", "said"), [
    ({"per_colour": {"11": 1}}, "per_colour.11"),
    ({"per_colour": {"1": -1}}, "greater than or equal to 0"),
    ({"per_colour": {}, "black": {"+4": 4}}, "needs coloured cards"),
    ({"per_colour": {str(n): 4 for n in range(10)}}, "at most 128"),
    ({"per_colour": {"1": 1}, "jokers": 2}, "jokers"),
])
def test_a_deck_the_game_cannot_deal_is_refused_with_where_and_why(deck: dict[str, object],
                                                                   said: str) -> None:
    with pytest.raises(OptionError, match="option 'deck'") as refused:
        TimoGame().resolve_options({"deck": deck})
    assert said in str(refused.value)


@pytest.mark.skipif(not NATIVE, reason="the C engine was not built")
def test_a_custom_deck_plays_the_same_games_on_the_rules_and_on_the_c_engine() -> None:
    entry = default_registry().entry("timo")
    options = {"deck": SHORT, "target": 60}
    for seed in range(3):
        on_rules = play_game(TimoGame(), options, make_bots(entry, ["heuristic", "random"]),
                             seed, record=True)
        on_c = play_game(FastTimoGame(), options, make_bots(entry, ["heuristic", "random"]),
                         seed, record=True)
        assert on_rules == on_c
