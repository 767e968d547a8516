"""A designer's Twins scoring table (cards.ScoringFile, the design option ``cash``): it
changes what each round pays, checked like any option, and a table that never sets it
reads exactly as before."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from twintable.core.errors import OptionError
from twintable.games.twins.cards import CASH_CARDS, ScoringFile, cash_card
from twintable.games.twins.rules import TwinsGame

GAME = TwinsGame()
RICH_ROUND_TWO = {"4": {"round1": {"lowest": 2, "pay": 5}, "round2": {"highest": 1, "gain": 7},
                        "round3": {"lowest": 1, "pay": 1}}}


def test_a_table_that_sets_no_scoring_reads_as_before() -> None:
    assert "cash" not in GAME.resolve_options({})
    assert "cash" not in [option["name"] for option in GAME.options_schema.to_json()]
    assert cash_card(4, GAME.resolve_options({})) is CASH_CARDS[4]


def test_a_scoring_file_sets_the_cash_card_of_its_player_counts_only() -> None:
    options = GAME.resolve_options(ScoringFile.model_validate(
        {"starting_chips": 20, "cash": RICH_ROUND_TWO}).options())
    assert options["starting_chips"] == 20
    assert cash_card(4, options).gain == 7 and cash_card(4, options).top_r2 == 1
    assert cash_card(3, options) is CASH_CARDS[3]
    # What round 2 pays is what the card says: 7 chips, or what the bank has left.
    paid = []
    for seed in range(3):
        state = GAME.new_state(options, 4, seed)
        while not GAME.is_over(state):
            round_no, bank = state.round_no, state.bank
            seat = sorted(GAME.to_act(state))[0]
            for event in GAME.apply(state, GAME.legal_actions(state, seat)[0]):
                if event.kind == "received" and round_no == 2:
                    paid.append((event.data["amount"], bank))
    assert paid and all(amount == min(7, bank) for amount, bank in paid)
    assert any(amount == 7 for amount, _ in paid)


@pytest.mark.parametrize(("cash", "said"), [
    ({"4": {"round1": {"lowest": 4, "pay": 2}, "round2": {"highest": 1, "gain": 3},
            "round3": {"lowest": 1, "pay": 1}}}, "leaves nobody out"),
    ({"7": RICH_ROUND_TWO["4"]}, "cash.7"),
    ({"4": {"round1": {"lowest": 1, "pay": -1}, "round2": {"highest": 1, "gain": 3},
            "round3": {"lowest": 1, "pay": 1}}}, "greater than or equal to 0"),
])
def test_a_scoring_table_the_game_cannot_play_is_refused(cash: dict[str, object],
                                                         said: str) -> None:
    with pytest.raises(OptionError, match="option 'cash'") as refused:
        GAME.resolve_options({"cash": cash})
    assert said in str(refused.value)
    with pytest.raises(ValidationError):
        ScoringFile.model_validate({"cash": cash})
