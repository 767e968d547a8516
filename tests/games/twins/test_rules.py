"""Twins rulings (RULES.md §2) as scenarios, the rulebook's examples included."""

from __future__ import annotations

import pytest

from tests.games.twins.scenario import GAME, build, card, pick
from twintable.core.errors import OptionError, RuleError
from twintable.core.types import Action
from twintable.games.twins.rules import lowest_payers, paid_tiers, pay_from_bank
from twintable.games.twins.state import BUY, OVER, PICK, TwinsState


def refused(state: TwinsState, action: Action, code: str) -> None:
    before = GAME.snapshot(state)
    with pytest.raises(RuleError) as error:
        GAME.apply(state, action)
    assert error.value.code == code and error.value.message
    assert GAME.snapshot(state) == before


def rank(first: str, second: str) -> int:
    from twintable.games.twins.cards import SET_RANK

    return SET_RANK[card(first)][card(second)]


# -- the rulebook's examples ----------------------------------------------------------
def test_rulebook_round_2_example_order_and_payout() -> None:
    # Single 12, Twins 4, Pair 8, Colour 8, Colour 16 (5 players, highest two get 3).
    sets = {0: rank("red 5", "blue 7"), 1: rank("red 4", "yellow 4"),
            2: rank("red 8", "orange 8"), 3: rank("green 3", "green 5"),
            4: rank("purple 7", "purple 9")}
    assert sorted(sets, key=sets.__getitem__, reverse=True) == [1, 2, 4, 3, 0]
    state = build([["red 5", "blue 7"], ["red 4", "yellow 4"], ["red 8", "orange 8"],
                   ["green 3", "green 5"], ["purple 7", "purple 9"]], round_no=2, bank=10,
                  chips=[12, 12, 12, 12, 2])
    for seat, hand in enumerate(state.hands):
        GAME.apply(state, Action(seat, "pick", {"cards": hand[:2]}))
    assert state.chips == [12, 15, 15, 12, 2] and state.bank == 4


def test_rulebook_tie_example_1_all_tied_at_the_line_pay() -> None:
    # 4 players, lowest two pay 2: Single 7, Single 12, Single 12, Colour 16.
    state = build([["red 3", "blue 4"], ["red 5", "blue 7"], ["orange 5", "green 7"],
                   ["purple 7", "purple 9"]])
    for seat, hand in enumerate(state.hands):
        GAME.apply(state, Action(seat, "pick", {"cards": hand[:2]}))
    assert state.chips == [10, 10, 10, 12] and state.bank == 6


def test_rulebook_tie_example_2_tier_that_does_not_fit_gets_nothing() -> None:
    # 5 players, highest two get 3: Twins 9 and four Pair 3s.
    ranks = {0: rank("red 9", "yellow 9"), 1: rank("red 3", "orange 3"),
             2: rank("yellow 3", "green 3"), 3: rank("blue 3", "purple 3"),
             4: rank("red 3", "green 3")}
    assert paid_tiers(ranks, 2) == [[0]]


def test_three_way_tie_for_first_with_two_places_pays_nobody() -> None:
    ranks = {0: 309, 1: 309, 2: 309, 3: 105, 4: 3}
    assert paid_tiers(ranks, 2) == []
    assert paid_tiers({0: 309, 1: 309, 2: 200}, 2) == [[0, 1]]


def test_lowest_payers_include_everyone_at_the_line() -> None:
    assert lowest_payers({0: 7, 1: 12, 2: 12, 3: 116}, 2) == {0, 1, 2}
    assert lowest_payers({0: 7, 1: 12}, 3) == {0, 1}
    assert lowest_payers({}, 2) == set()


def test_bank_short_pays_in_rank_order_and_ties_split_rounding_down() -> None:
    assert pay_from_bank(4, [[0], [1]], 3) == ({0: 3, 1: 1}, 0)
    assert pay_from_bank(5, [[0, 1]], 3) == ({0: 2, 1: 2}, 1)
    assert pay_from_bank(1, [[0, 1]], 3) == ({0: 0, 1: 0}, 1)
    assert pay_from_bank(9, [[0, 1]], 3) == ({0: 3, 1: 3}, 3)


# -- rounds ---------------------------------------------------------------------------
def test_picks_stay_secret_until_everyone_has_committed() -> None:
    state = build([["red 1", "red 2", "red 3"], ["blue 1", "blue 2"], ["green 9", "green 8"]])
    pick(state, 0, "red 1", "red 2")
    assert GAME.to_act(state) == {1, 2}
    view = GAME.view(state, 1)
    assert view.committed == (True, False, False) and view.played == ()
    assert GAME.view(state, 0).my_pick == (card("red 1"), card("red 2"))
    assert GAME.view(state, 1).my_pick is None
    pick(state, 1, "blue 1", "blue 2")
    pick(state, 2, "green 9", "green 8")
    assert state.round_no == 2 and len(GAME.view(state, 1).played) == 3


def test_round_3_payers_sit_out_round_4_and_ties_all_pay() -> None:
    state = build([["red 1", "blue 2", "red 5", "red 6"], ["blue 1", "red 2", "blue 5", "blue 6"],
                   ["green 9", "green 8", "green 1", "green 2"]], round_no=3)
    pick(state, 0, "red 1", "blue 2")
    pick(state, 1, "blue 1", "red 2")
    pick(state, 2, "green 9", "green 8")
    assert state.chips == [11, 11, 12] and state.sitting_out == [True, True, False]
    assert state.round_no == 4 and GAME.to_act(state) == {2}
    refused(state, Action(0, "pick", {"cards": [card("red 5"), card("red 6")]}),
            "pick.sitting_out")


def test_round_4_best_set_takes_the_whole_bank() -> None:
    state = build([["red 1", "blue 2"], ["red 9", "yellow 9"], ["green 9", "green 8"]],
                  round_no=4, bank=7, chips=[10, 10, 9])
    for seat, hand in enumerate(state.hands):
        GAME.apply(state, Action(seat, "pick", {"cards": hand[:2]}))
    assert state.chips[1] == 17 and state.bank == 0


def test_round_4_tie_leaves_the_bank_for_the_next_hand() -> None:
    state = build([["red 1", "blue 2"], ["red 9", "yellow 9"], ["orange 9", "green 9"]],
                  round_no=4, bank=7, chips=[10, 10, 9])
    for seat, hand in enumerate(state.hands):
        GAME.apply(state, Action(seat, "pick", {"cards": hand[:2]}))
    assert state.bank == 7 and state.chips == [10, 10, 9] and state.hand_no == 2


def test_when_everyone_sits_out_round_4_the_bank_stays() -> None:
    state = build([["red 1", "blue 2", "red 5", "red 6"], ["blue 1", "red 2", "blue 5", "blue 6"],
                   ["yellow 1", "orange 2", "green 5", "green 6"]], round_no=3)
    pick(state, 0, "red 1", "blue 2")
    pick(state, 1, "blue 1", "red 2")
    pick(state, 2, "yellow 1", "orange 2")
    assert state.bank == 3 and state.hand_no == 2 and state.phase == BUY


# -- bankruptcy and the end -----------------------------------------------------------
def test_bankrupt_player_pays_all_and_leaves_the_hand_finishes_then_the_game_ends() -> None:
    state = build([["red 1", "blue 2", "red 5", "red 6", "red 7", "red 8"],
                   ["blue 9", "yellow 9", "blue 5", "blue 6", "blue 7", "blue 8", "blue 1",
                    "blue 2"],
                   ["green 9", "green 8", "green 5", "green 6", "green 1", "green 2", "green 3",
                    "green 4"]],
                  chips=[1, 12, 23])
    pick(state, 0, "red 1", "blue 2")
    pick(state, 1, "blue 9", "yellow 9")
    pick(state, 2, "green 9", "green 8")
    assert state.out == [True, False, False] and state.chips[0] == 0 and state.bank == 1
    assert GAME.to_act(state) == {1, 2}
    refused(state, Action(0, "pick", {"cards": [card("red 5"), card("red 6")]}),
            "seat.bankrupt")
    for round_no in (2, 3, 4):
        assert state.round_no == round_no
        for seat in sorted(GAME.to_act(state)):
            GAME.apply(state, Action(seat, "pick", {"cards": state.hands[seat][:2]}))
    assert state.phase == OVER
    outcome = GAME.outcome(state)
    assert outcome is not None and sum(outcome.scores) + state.bank == 36
    assert outcome.winners == {max(range(3), key=lambda s: state.chips[s])}


def test_max_hands_ends_the_game() -> None:
    state = build([["red 1", "blue 2"], ["red 9", "yellow 9"], ["green 9", "green 8"]],
                  round_no=4, options={"max_hands": 1})
    for seat, hand in enumerate(state.hands):
        GAME.apply(state, Action(seat, "pick", {"cards": hand[:2]}))
    assert state.phase == OVER
    refused(state, Action(0, "buy", {"count": 0}), "game.over")


def test_dealer_moves_clockwise_and_buying_starts_on_the_left() -> None:
    state = build([["red 1", "blue 2"], ["red 9", "yellow 9"], ["green 9", "green 8"]],
                  round_no=4, dealer=2)
    for seat, hand in enumerate(state.hands):
        GAME.apply(state, Action(seat, "pick", {"cards": hand[:2]}))
    assert state.dealer == 0 and state.buyer == 1 and state.phase == BUY
    assert [len(hand) for hand in state.hands] == [8, 8, 8]


# -- the buy step ---------------------------------------------------------------------
def test_buying_in_order_costs_1_or_3_and_draws() -> None:
    state = GAME.new_state({}, 3, seed=5)
    first = state.buyer
    assert first == (state.dealer + 1) % 3 and GAME.to_act(state) == {first}
    refused(state, Action((first + 1) % 3, "buy", {"count": 1}), "buy.not_your_turn")
    refused(state, Action(first, "buy", {"count": 3}), "buy.invalid_count")
    refused(state, Action(first, "pick", {"cards": state.hands[first][:2]}),
            "phase.not_picking")
    GAME.apply(state, Action(first, "buy", {"count": 2}))
    assert state.chips[first] == 9 and state.bank == 3 and len(state.hands[first]) == 10
    second = (first + 1) % 3
    GAME.apply(state, Action(second, "buy", {"count": 1}))
    assert state.chips[second] == 11 and len(state.hands[second]) == 9
    GAME.apply(state, Action(state.dealer, "buy", {"count": 0}))
    assert state.phase == PICK and state.round_no == 1
    refused(state, Action(first, "buy", {"count": 0}), "phase.not_buying")


def test_nobody_buys_what_they_cannot_afford() -> None:
    state = GAME.new_state({}, 3, seed=5)
    state.chips[state.buyer], state.bank = 2, 10
    refused(state, Action(state.buyer, "buy", {"count": 2}), "buy.unaffordable")
    assert [a.payload["count"] for a in GAME.legal_actions(state, state.buyer)] == [0, 1]


# -- bad picks ------------------------------------------------------------------------
def test_bad_picks_are_refused_and_change_nothing() -> None:
    state = build([["red 1", "red 2", "red 3"], ["blue 1", "blue 2"], ["green 9", "green 8"]])
    refused(state, Action(0, "pick", {"cards": [card("red 1"), card("blue 1")]}),
            "pick.card_not_in_hand")
    refused(state, Action(0, "pick", {"cards": [card("red 1")]}), "pick.wrong_count")
    refused(state, Action(0, "pick", {"cards": [card("red 1"), card("red 2"), card("red 3")]}),
            "pick.wrong_count")
    refused(state, Action(0, "pick", {"cards": [card("red 1"), card("red 1")]}),
            "pick.same_card")
    refused(state, Action(0, "pick", {"cards": "red 1"}), "pick.wrong_count")
    pick(state, 0, "red 1", "red 2")
    refused(state, Action(0, "pick", {"cards": [card("red 3"), card("red 2")]}),
            "pick.already_committed")
    refused(state, Action(0, "fold"), "action.unknown")
    refused(state, Action(9, "pick", {"cards": []}), "seat.invalid")


def test_options_are_validated() -> None:
    with pytest.raises(OptionError):
        GAME.new_state({"max_hands": 0}, 3, 1)
    with pytest.raises(OptionError):
        GAME.new_state({}, 2, 1)


def test_a_determinized_copy_does_not_know_the_next_hands_deal() -> None:
    """A search deals itself hidden cards; the next hand must be as unknown (its deal
    comes from a fresh generator, not the real one)."""
    import random

    from twintable.games.twins.cards import DECK_SIZE

    state = GAME.new_state(GAME.resolve_options({"max_hands": 3}), 3, 4)
    real_next = state.rng.clone()
    copies = [GAME.determinize(state, 0, random.Random(i)) for i in range(20)]
    deck = list(range(DECK_SIZE))

    def next_deal(rng: object) -> list[int]:
        cards = list(deck)
        rng.shuffle(cards)  # type: ignore[attr-defined]
        return cards

    truth = next_deal(real_next)
    assert all(next_deal(copy.rng.clone()) != truth for copy in copies)
    assert len({tuple(next_deal(copy.rng.clone())) for copy in copies}) == 20
    assert all(copy.hands[0] == state.hands[0] for copy in copies)


def test_starting_chips_and_deal_are_options_with_the_printed_defaults() -> None:
    options = GAME.options_schema.options
    assert [(options[name].default, options[name].minimum, options[name].maximum,
             options[name].unit) for name in ("starting_chips", "deal")] == [
        (12, 1, 100, "chips"), (8, 8, 18, "cards")]
    state = GAME.new_state({"starting_chips": 5, "deal": 10}, 4, 2)
    assert state.chips == [5] * 4 and [len(hand) for hand in state.hands] == [10] * 4


@pytest.mark.parametrize("variant", [{"deal": 7}, {"deal": 19}, {"starting_chips": 0},
                                     {"starting_chips": 101}])
def test_a_variant_outside_its_range_is_refused(variant: dict[str, int]) -> None:
    with pytest.raises(OptionError, match=next(iter(variant))) as bad:
        GAME.new_state(variant, 3, 1)
    assert bad.value.code == "option.invalid"


def test_a_deal_too_big_for_the_table_is_refused() -> None:
    # Ten cards and two to buy for each of five players take all 60; eleven do not fit.
    assert GAME.player_range({"deal": 10}) == (3, 5)
    assert GAME.player_range({"deal": 11}) == (3, 4)
    with pytest.raises(OptionError, match="3 to 4 players with these options"):
        GAME.new_state({"deal": 11}, 5, 1)
