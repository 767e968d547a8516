"""A designer's Twinz word list (decks.WordListFile, the ``deck`` option as a list): laid
out twelve words a card, played by the rules, and refused with a reason when the game
could not use it."""

from __future__ import annotations

import pytest

from twintable.core.errors import OptionError
from twintable.games.twinz.decks import WORDS_PER_CARD, deck_cards
from twintable.games.twinz.rules import PILE_SIZE, TwinzGame

GAME = TwinzGame()
#: Thirteen cards of made-up words, enough for four players' pile.
WORDS = [f"mot{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(13 * WORDS_PER_CARD)]


def test_a_word_list_is_laid_out_twelve_words_a_card_with_backs_in_turn() -> None:
    options = GAME.resolve_options({"deck": {"words": WORDS}})
    cards = deck_cards(options["deck"])
    assert len(cards) == 13 and [card.back for card in cards[:7]] == [1, 2, 3, 4, 5, 6, 1]
    assert cards[0].lines[0] == ("motaa", "motab") and cards[1].word(1, 0) == WORDS[12]
    # Thirteen cards make a four-player pile, not a five-player one.
    assert PILE_SIZE[4] <= 13 < PILE_SIZE[5]
    assert GAME.player_range(options) == (4, 4)
    state = GAME.new_state(options, 4, 7)
    assert state.options["deck"] == {"words": WORDS}
    assert {card.back for card in deck_cards(state.options["deck"])} == set(range(1, 7))


@pytest.mark.parametrize(("words", "said"), [
    (WORDS[:12] + WORDS[:12], "twice"),
    (WORDS[:13], "add 11 or take 1 away"),
    (["deux mots", *WORDS[:11]], "not one word"),
    (WORDS[:5], "at least 12"),
])
def test_a_word_list_the_game_cannot_use_is_refused(words: list[str], said: str) -> None:
    with pytest.raises(OptionError, match="option 'deck'") as refused:
        GAME.resolve_options({"deck": {"words": words}})
    assert said in str(refused.value)
