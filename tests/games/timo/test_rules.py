"""Timo's Twist rulings (RULES.md §1), one scenario each, from states built for the case."""

from __future__ import annotations

import pytest

from tests.games.timo.native import mirrored_apply, require_native
from tests.games.timo.scenario import DECK, GAME, build, card, labels
from twintable.core.errors import OptionError, RuleError
from twintable.core.types import Action
from twintable.games.timo.cards import BLACK, PLUS2, PLUS4, STOP, TWIST, load_deck
from twintable.games.timo.state import TimoState


@pytest.fixture(autouse=True, params=["python", "c"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each scenario runs twice: on the Python rules, then with every action also played
    on the C engine from the same state, which must end equal or refuse alike."""
    if request.param == "c":
        require_native()
        monkeypatch.setattr(GAME, "apply", lambda state, action: mirrored_apply(
            GAME, state, action))


def play(state: TimoState, seat: int, label: str, **extra: object) -> list[str]:
    events = GAME.apply(state, Action(seat, "play", {"card": card(label), **extra}))
    return [event.kind for event in events]


def refused(state: TimoState, action: Action, code: str) -> None:
    before = GAME.snapshot(state)
    with pytest.raises(RuleError) as error:
        GAME.apply(state, action)
    assert error.value.code == code
    assert error.value.message
    assert GAME.snapshot(state) == before


# -- the deck -------------------------------------------------------------------------
def test_deck_has_54_cards_13_per_colour_and_two_black() -> None:
    assert DECK.size == 54
    for colour in range(4):
        ranks = sorted(DECK.rank[c] for c in range(54) if DECK.colour[c] == colour)
        assert ranks == list(range(13))
    assert sorted(DECK.label(c) for c in range(54) if DECK.colour[c] == BLACK) == ["+4", "colour"]


def test_the_deck_is_an_option_read_from_data() -> None:
    state = GAME.new_state({"deck": "classic108"}, 4, seed=3)
    assert state.deck.size == 108
    assert load_deck("classic108").rank.count(PLUS2) == 8


# -- the rulebook's worked example ----------------------------------------------------
def test_rulebook_example_legal_plays_on_orange_5() -> None:
    state = build([["green 5", "orange 2", "blue 9", "colour"], ["pink 1"]], top="orange 5")
    legal = GAME.legal_actions(state, 0)
    played = {DECK.label(a.payload["card"]) for a in legal if a.kind == "play"}
    assert played == {"green 5", "orange 2", "colour"}
    colours = {a.payload["colour"] for a in legal if a.payload.get("card") == card("colour")}
    assert colours == {"blue", "green", "orange", "pink"}
    assert all(a.kind != "draw" for a in legal)
    refused(state, Action(0, "play", {"card": card("blue 9")}), "card.not_playable")


# -- card effects ---------------------------------------------------------------------
def test_stop_skips_the_next_player() -> None:
    state = build([["blue stop", "blue 1"], ["pink 1"], ["pink 2"]], top="blue 5")
    assert "skipped" in play(state, 0, "blue stop")
    assert state.turn == 2


def test_twist_reverses_direction() -> None:
    state = build([["blue twist", "blue 1"], ["pink 1"], ["pink 2"]], top="blue 5")
    play(state, 0, "blue twist")
    assert (state.direction, state.turn) == (-1, 2)


def test_twist_with_two_players_acts_as_stop() -> None:
    state = build([["blue twist", "blue 1"], ["pink 1"]], top="blue 5")
    play(state, 0, "blue twist")
    assert (state.direction, state.turn) == (1, 0)


def test_plus2_makes_the_next_player_draw_two_and_lose_the_turn() -> None:
    state = build([["blue +2", "blue 1"], ["pink 1"], ["pink 2"]], top="blue 5")
    play(state, 0, "blue +2")
    assert len(state.hands[1]) == 3
    assert state.turn == 2 and state.penalty == 0


def test_colour_card_names_the_colour() -> None:
    state = build([["colour", "blue 1"], ["pink 1"]], top="blue 5")
    play(state, 0, "colour", colour="green")
    assert state.colour == 1 and state.turn == 1
    refused(state, Action(1, "play", {"card": card("pink 1")}), "card.not_playable")


def test_plus4_names_a_colour_and_next_player_draws_four() -> None:
    state = build([["+4", "blue 1"], ["pink 1"]], top="blue 5")
    play(state, 0, "+4", colour="pink")
    assert len(state.hands[1]) == 5 and state.turn == 0 and state.colour == 3


def test_black_card_needs_a_valid_colour_and_others_take_none() -> None:
    state = build([["colour", "+4", "blue 1"], ["pink 1"]], top="blue 5")
    refused(state, Action(0, "play", {"card": card("colour")}), "colour.required")
    refused(state, Action(0, "play", {"card": card("+4"), "colour": "black"}), "colour.invalid")
    refused(state, Action(0, "play", {"card": card("blue 1"), "colour": "pink"}),
            "colour.not_allowed")


def test_black_cards_may_always_be_played() -> None:
    state = build([["+4", "blue 1"], ["pink 1"]], top="blue 5")
    assert {a.payload["card"] for a in GAME.legal_actions(state, 0) if a.kind == "play"} == {
        card("+4"), card("blue 1")}


# -- stacking -------------------------------------------------------------------------
def test_plus2_on_plus2_passes_on_the_sum() -> None:
    state = build([["blue +2", "pink 3"], ["green +2", "pink 4"], ["pink 1"]], top="blue 5")
    play(state, 0, "blue +2")
    assert state.turn == 1 and state.penalty == 2  # seat 1 can stack, so it chooses
    play(state, 1, "green +2")
    assert len(state.hands[2]) == 5 and state.turn == 0 and state.penalty == 0


def test_plus4_on_plus2_is_allowed_and_adds_up() -> None:
    state = build([["blue +2", "pink 3"], ["+4", "pink 4"], ["pink 1"]], top="blue 5")
    play(state, 0, "blue +2")
    play(state, 1, "+4", colour="green")
    assert len(state.hands[2]) == 7 and state.turn == 0


def test_plus2_on_plus4_is_refused() -> None:
    state = build([["+4", "pink 3"], ["pink +2", "pink 4"]], top="pink 5")
    play(state, 0, "+4", colour="pink")
    assert len(state.hands[1]) == 6, "a +2 cannot stack on +4, so the penalty is taken"
    assert state.turn == 0


def test_plus2_on_pending_plus4_is_refused_with_a_code() -> None:
    state = build([["pink 3"], ["pink +2", "pink 4"]], top="+4", colour="pink", turn=1,
                  penalty=4)
    refused(state, Action(1, "play", {"card": card("pink +2")}), "card.must_stack_or_draw")


def test_plus4_stacks_on_plus4() -> None:
    # Our ruling; it takes a deck with more than one +4 card.
    state = GAME.new_state({"deck": "classic108"}, 2, seed=0)
    deck = state.deck
    first, second = [c for c in range(deck.size) if deck.rank[c] == PLUS4][:2]
    numbers = [c for c in range(deck.size) if deck.rank[c] < 10]
    state.hands = [numbers[:3], [second, numbers[3]]]
    state.draw_pile = [c for c in range(deck.size)
                       if c not in (first, second) and c not in numbers[:4]]
    state.discard, state.colour, state.turn, state.penalty = [first], 0, 1, 4
    state.exposed = state.drawn = -1
    GAME.apply(state, Action(1, "play", {"card": second, "colour": "blue"}))
    assert len(state.hands[0]) == 3 + 8 and state.turn == 1


def test_ordinary_card_is_refused_while_a_penalty_is_pending() -> None:
    state = build([["pink 3"], ["blue 5", "green +2"]], top="blue +2", turn=1, penalty=2)
    refused(state, Action(1, "play", {"card": card("blue 5")}), "card.must_stack_or_draw")


def test_drawing_instead_of_stacking_takes_the_sum_and_the_turn_passes() -> None:
    state = build([["pink 3"], ["blue 5", "green +2"], ["pink 4"]], top="blue +2", turn=1,
                  penalty=4)
    GAME.apply(state, Action(1, "draw"))
    assert len(state.hands[1]) == 6 and state.turn == 2 and state.penalty == 0


def test_stacking_off_means_the_victim_draws_at_once() -> None:
    state = build([["blue +2", "pink 3"], ["green +2", "pink 4"]], top="blue 5",
                  options={"stacking": False})
    play(state, 0, "blue +2")
    assert len(state.hands[1]) == 4 and state.turn == 0


# -- drawing --------------------------------------------------------------------------
def test_drawing_is_refused_when_a_card_could_be_played() -> None:
    state = build([["blue 1"], ["pink 1"]], top="blue 5")
    refused(state, Action(0, "draw"), "draw.has_playable")


def test_draw_when_able_option_allows_it() -> None:
    state = build([["blue 1", "pink 2"], ["pink 1"]], top="blue 5",
                  options={"draw_when_able": True}, draw=["green 9"])
    GAME.apply(state, Action(0, "draw"))
    assert len(state.hands[0]) == 3 and state.turn == 1


def test_a_playable_drawn_card_may_be_played_at_once_and_only_it() -> None:
    state = build([["pink 1", "pink 7"], ["pink 2"]], top="blue 5", draw=["blue 8"])
    GAME.apply(state, Action(0, "draw"))
    assert state.turn == 0 and state.drawn == card("blue 8")
    kinds = {(a.kind, a.payload.get("card")) for a in GAME.legal_actions(state, 0)}
    assert kinds == {("play", card("blue 8")), ("pass", None)}
    refused(state, Action(0, "draw"), "draw.already_drawn")
    play(state, 0, "blue 8")
    assert state.turn == 1


def test_the_drawn_card_may_be_kept() -> None:
    state = build([["pink 1", "pink 7"], ["pink 2"]], top="blue 5", draw=["blue 8"])
    GAME.apply(state, Action(0, "draw"))
    GAME.apply(state, Action(0, "pass"))
    assert state.turn == 1 and len(state.hands[0]) == 3


def test_an_unplayable_drawn_card_ends_the_turn() -> None:
    state = build([["pink 1"], ["pink 2"]], top="blue 5", draw=["green 8"])
    GAME.apply(state, Action(0, "draw"))
    assert state.turn == 1 and labels(state, 0) == ["green 8", "pink 1"]


def test_pass_is_only_for_after_drawing() -> None:
    state = build([["pink 1"], ["pink 2"]], top="blue 5")
    refused(state, Action(0, "pass"), "pass.not_allowed")


def test_an_empty_draw_pile_is_rebuilt_from_the_discards_under_the_top() -> None:
    state = build([["pink 1"], ["pink 2"]], top="blue 5", draw=[])
    under = state.discard[:-1]
    events = GAME.apply(state, Action(0, "draw"))
    assert "reshuffled" in [e.kind for e in events]
    assert state.discard == [card("blue 5")]
    assert sorted(state.draw_pile + state.hands[0]) == sorted([*under, card("pink 1")])


def test_with_nothing_left_to_draw_the_player_passes() -> None:
    state = build([["pink 1"], ["pink 2"]], top="blue 5", draw=[])
    state.hands[1] += state.discard[:-1]
    state.discard = state.discard[-1:]
    GAME.apply(state, Action(0, "draw"))
    assert state.turn == 1 and labels(state, 0) == ["pink 1"]


# -- the start of a round -------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_start_card_is_never_black_and_acts_on_the_first_player(players: int) -> None:
    seen = set()
    for seed in range(400):
        state = GAME.new_state({}, players, seed)
        start = state.discard[0]
        rank, first = DECK.rank[start], (state.dealer + 1) % players
        seen.add(rank)
        assert DECK.colour[start] != BLACK
        assert len(state.discard) == 1
        sizes = [len(hand) for hand in state.hands]
        if rank == STOP or (rank == TWIST and players == 2):
            assert state.turn == (state.dealer + 2) % players
        elif rank == TWIST:
            assert state.direction == -1 and state.turn == (state.dealer - 1) % players
        elif rank == PLUS2 and state.penalty == 0:
            assert sizes[first] == 9 and state.turn == (first + 1) % players
        elif rank == PLUS2:
            assert state.turn == first  # it may stack
        else:
            assert state.turn == first and sizes == [7] * players
    assert {STOP, TWIST, PLUS2} <= seen


def test_the_dealer_moves_left_each_round_and_hands_are_dealt_again() -> None:
    state = build([["blue 1"], ["pink 2", "pink 3"], ["green 4"]], top="blue 5", dealer=2)
    play(state, 0, "blue 1")
    assert state.dealer == 0 and state.round_no == 2
    assert [len(hand) for hand in state.hands] in ([7, 7, 7], [7, 9, 7], [7, 7, 9])


# -- TIMO! ----------------------------------------------------------------------------
def test_forgetting_timo_can_be_caught_for_two_cards() -> None:
    state = build([["blue 1", "blue 2"], ["pink 1"], ["pink 2"]], top="blue 5")
    play(state, 0, "blue 1")
    assert state.exposed == 0 and GAME.to_act(state) == {0, 1, 2}
    GAME.apply(state, Action(2, "catch", {"target": 0}))
    assert len(state.hands[0]) == 3
    refused(state, Action(1, "catch", {"target": 0}), "catch.too_late")


def test_calling_timo_with_the_play_is_safe() -> None:
    state = build([["blue 1", "blue 2"], ["pink 1"]], top="blue 5")
    assert "timo_called" in play(state, 0, "blue 1", timo=True)
    refused(state, Action(1, "catch", {"target": 0}), "catch.not_catchable")


def test_calling_timo_after_the_play_but_before_the_next_player() -> None:
    state = build([["blue 1", "blue 2"], ["pink 1"]], top="blue 5")
    play(state, 0, "blue 1")
    GAME.apply(state, Action(0, "call_timo"))
    refused(state, Action(1, "catch", {"target": 0}), "catch.not_catchable")
    refused(state, Action(0, "call_timo"), "timo.not_needed")


def test_the_window_closes_when_the_next_player_acts() -> None:
    state = build([["blue 1", "blue 2"], ["blue 3", "pink 4"], ["pink 2"]], top="blue 5")
    play(state, 0, "blue 1")
    play(state, 1, "blue 3")
    refused(state, Action(2, "catch", {"target": 0}), "catch.not_catchable")


def test_catching_someone_with_more_cards_or_oneself_is_refused() -> None:
    state = build([["blue 1", "blue 2", "blue 3"], ["pink 1"]], top="blue 5")
    refused(state, Action(1, "catch", {"target": 0}), "catch.not_catchable")
    refused(state, Action(1, "catch", {"target": 1}), "catch.self")
    refused(state, Action(1, "catch", {"target": 7}), "catch.invalid_target")


def test_timo_with_more_than_one_card_left_is_refused() -> None:
    state = build([["blue 1", "blue 2", "blue 3"], ["pink 1", "pink 2"]], top="blue 5")
    refused(state, Action(0, "play", {"card": card("blue 1"), "timo": True}),
            "timo.not_one_card")
    refused(state, Action(1, "call_timo"), "timo.not_one_card")


# -- end of round and game ------------------------------------------------------------
def test_round_winner_scores_the_other_hands() -> None:
    state = build([["blue 1"], ["pink 7", "green stop", "colour"], ["+4", "green 0"]],
                  top="blue 5")
    play(state, 0, "blue 1")
    assert state.scores == [7 + 20 + 50 + 50 + 0, 0, 0]


def test_a_closing_plus2_still_makes_the_next_player_draw_first() -> None:
    state = build([["blue +2"], ["pink 7"]], top="blue 5", draw=["green 9", "green 8"])
    play(state, 0, "blue +2")
    assert state.scores[0] == 7 + 9 + 8


def test_reaching_the_target_ends_the_game() -> None:
    state = build([["blue 1"], ["pink 7"]], top="blue 5", scores=[295, 280])
    kinds = play(state, 0, "blue 1")
    assert kinds[-1] == "game_over" and state.over
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {0} and outcome.scores == (302, 280)
    assert GAME.to_act(state) == frozenset()
    refused(state, Action(1, "draw"), "game.over")


def test_target_is_an_option() -> None:
    state = build([["blue 1"], ["pink 7"]], top="blue 5", options={"target": 5})
    play(state, 0, "blue 1")
    assert state.over


# -- bad input ------------------------------------------------------------------------
def test_bad_actions_are_refused_and_change_nothing() -> None:
    state = build([["blue 1", "pink 9"], ["pink 1"]], top="blue 5")
    refused(state, Action(0, "play", {"card": card("pink 1")}), "card.not_in_hand")
    refused(state, Action(0, "play", {"card": "blue 1"}), "card.not_in_hand")
    refused(state, Action(0, "play", {"card": card("pink 9")}), "card.not_playable")
    refused(state, Action(1, "play", {"card": card("pink 1")}), "turn.not_yours")
    refused(state, Action(1, "draw"), "turn.not_yours")
    refused(state, Action(0, "shout"), "action.unknown")
    refused(state, Action(5, "draw"), "seat.invalid")
    refused(state, Action(0, "play", {"card": card("blue 1"), "timo": "yes"}),
            "payload.invalid")


def test_options_are_validated() -> None:
    with pytest.raises(OptionError) as unknown:
        GAME.new_state({"stackin": True}, 2, 1)
    assert unknown.value.code == "option.unknown"
    with pytest.raises(OptionError) as bad:
        GAME.new_state({"target": 0}, 2, 1)
    assert bad.value.code == "option.invalid"
    with pytest.raises(OptionError) as deck:
        GAME.new_state({"deck": "tarot"}, 2, 1)
    assert deck.value.code == "option.invalid"
    with pytest.raises(OptionError) as players:
        GAME.new_state({}, 7, 1)
    assert players.value.code == "players.invalid"


@pytest.mark.parametrize(("hand_size", "players"), [(1, 2), (5, 4), (10, 5)])
def test_hand_size_deals_that_many_cards_to_every_player(hand_size: int, players: int) -> None:
    state = GAME.new_state({"hand_size": hand_size, "stacking": False}, players, 11)
    sizes = sorted(map(len, state.hands))
    # Only the first player may hold more: a +2 start card makes them draw.
    assert sizes[:-1] == [hand_size] * (players - 1) and sizes[-1] in (hand_size,
                                                                      hand_size + 2)
    assert len(state.draw_pile) + len(state.discard) + sum(sizes) == DECK.size


def test_a_hand_size_outside_its_range_or_too_big_for_the_table_is_refused() -> None:
    option = GAME.options_schema.options["hand_size"]
    assert (option.default, option.minimum, option.maximum, option.unit) == (7, 1, 20, "cards")
    for value in (0, 21, "7"):
        with pytest.raises(OptionError, match="hand_size") as bad:
            GAME.new_state({"hand_size": value}, 2, 1)
        assert bad.value.code == "option.invalid"
    with pytest.raises(OptionError, match="2 to 5 players with these options") as players:
        GAME.new_state({"hand_size": 10}, 6, 1)
    assert players.value.code == "players.invalid"
