"""The Twins deck, the ink ruling and set ranking, checked exhaustively."""

from __future__ import annotations

from itertools import combinations

from twintable.games.twins.cards import (
    COLOURS_SET,
    DECK_SIZE,
    PAIRS,
    SET_RANK,
    SINGLES,
    TWINS,
    classify,
    colour_of,
    is_white,
    value_of,
)


def test_sixty_cards_with_three_white_and_three_black_per_value() -> None:
    assert DECK_SIZE == 60
    for value in range(1, 11):
        inks = [is_white(c) for c in range(60) if value_of(c) == value]
        assert len(inks) == 6 and sum(inks) == 3
    for colour in range(6):
        inks = [is_white(c) for c in range(60) if colour_of(c) == colour]
        assert len(inks) == 10 and sum(inks) == 5


def oracle(a: int, b: int) -> tuple[int, int]:
    """Written from the rulebook's words, independently of the engine's function."""
    colours, values = (a // 10, b // 10), (a % 10 + 1, b % 10 + 1)
    white = [(values[i] + colours[i]) % 2 == 0 for i in range(2)]
    if values[0] == values[1]:
        return (3, values[0]) if white[0] == white[1] else (2, values[0])
    if colours[0] == colours[1]:
        return (1, sum(values))
    return (0, sum(values))


def test_every_one_of_the_1770_sets_is_classified_like_the_oracle() -> None:
    pairs = list(combinations(range(60), 2))
    assert len(pairs) == 1770
    for a, b in pairs:
        assert classify(a, b) == oracle(a, b) == classify(b, a)
        assert SET_RANK[a][b] == SET_RANK[b][a] == oracle(a, b)[0] * 100 + oracle(a, b)[1]


def test_category_counts() -> None:
    counts = {SINGLES: 0, COLOURS_SET: 0, PAIRS: 0, TWINS: 0}
    for a, b in combinations(range(60), 2):
        counts[classify(a, b)[0]] += 1
    # Per value: 3 white + 3 black cards -> 2 * C(3,2) = 6 twins and 3 * 3 = 9 pairs.
    assert counts[TWINS] == 60 and counts[PAIRS] == 90
    assert counts[COLOURS_SET] == 6 * 45
    assert counts[SINGLES] == 1770 - 60 - 90 - 270


def test_any_set_of_a_higher_category_beats_every_set_below_it() -> None:
    best_by_category: dict[int, int] = {}
    worst_by_category: dict[int, int] = {}
    for a, b in combinations(range(60), 2):
        category = classify(a, b)[0]
        rank = SET_RANK[a][b]
        best_by_category[category] = max(best_by_category.get(category, rank), rank)
        worst_by_category[category] = min(worst_by_category.get(category, rank), rank)
    for lower, higher in ((SINGLES, COLOURS_SET), (COLOURS_SET, PAIRS), (PAIRS, TWINS)):
        assert worst_by_category[higher] > best_by_category[lower]
