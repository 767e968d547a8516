"""The generated deck and its art."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

from twintable.games.twinit.art import COLOURS, deck_sheet_html, picture_svg
from twintable.games.twinit.deck import (
    CARDS,
    DECK,
    FAMILIES,
    PICTURES,
    VARIANTS,
    build_deck,
    family_of,
)


def test_135_cards_90_pictures_each_on_exactly_three_faces() -> None:
    assert len(DECK) == CARDS == 135
    assert PICTURES == 90 == len(FAMILIES) * VARIANTS
    faces = Counter(picture for card in DECK for picture in card)
    assert set(faces) == set(range(PICTURES))
    assert set(faces.values()) == {3}


def test_no_card_shows_one_picture_or_one_family_twice() -> None:
    for front, back in DECK:
        assert front != back
        assert family_of(front) != family_of(back)


def test_the_deck_is_the_same_everywhere() -> None:
    assert build_deck() == DECK
    assert build_deck(1) != DECK  # the seed really decides it


def test_every_picture_draws_as_distinct_valid_svg() -> None:
    drawings = [picture_svg(picture) for picture in range(PICTURES)]
    assert len(set(drawings)) == PICTURES
    for drawing in drawings:
        root = ET.fromstring(drawing)
        assert root.tag.endswith("svg") and root.get("aria-label")


def test_variants_differ_by_more_than_hue() -> None:
    """With every colour blanked out, each family's five drawings still differ."""
    colours = {colour for pair in COLOURS for colour in pair}

    def shape_only(svg: str) -> str:
        for colour in colours:
            svg = svg.replace(colour, "#000")
        svg = re.sub(r"<title>.*?</title>", "", svg)
        svg = re.sub(r'aria-label="[^"]*"', "", svg)
        return re.sub(r"twinit-stripes-\d+", "stripes", svg)

    for family in range(len(FAMILIES)):
        shapes = {shape_only(picture_svg(family * VARIANTS + v)) for v in range(VARIANTS)}
        assert len(shapes) == VARIANTS, FAMILIES[family]


def test_the_sheet_shows_every_picture_and_card() -> None:
    html = deck_sheet_html()
    assert html.count("<svg") == PICTURES + 2 * CARDS
    assert "card 134" in html
