"""The players' rules pages of Twin Tricks: four languages in step, every option
explained, nothing for developers."""

from __future__ import annotations

import re
from importlib import resources

import pytest
from twintable.server.rules_pages import LANGUAGES, SECTIONS, render

from twintable_tricks.rules import TricksGame

DEVELOPER_WORDS = (".py", "engine", "readme", "commit", "http", "rules.md")


def page(lang: str) -> str:
    return resources.files("twintable_tricks").joinpath("rules", f"{lang}.md").read_text(
        encoding="utf-8")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_every_section_in_order(lang: str) -> None:
    text = page(lang)
    assert not re.search(r"^# ", text, flags=re.MULTILINE), "the client shows the title"
    assert [key for key, _ in render(text)[1]] == list(SECTIONS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_option_is_explained_and_nothing_is_for_developers(lang: str) -> None:
    text = page(lang)
    options_section = re.split(r"^## .*$", text, flags=re.MULTILINE)[
        SECTIONS.index("options") + 1]
    for option in TricksGame().options_schema.options:
        assert f"`{option}`" in options_section, option
    assert [word for word in DEVELOPER_WORDS if word in text.lower()] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_card_pictures_name_real_cards(lang: str) -> None:
    """A picture is drawn by the web module's ``drawCard`` from ``suit/rank``."""
    cards = re.findall(r"\]\(card:([^)]*)\)", page(lang))
    assert cards
    for spec in cards:
        assert re.fullmatch(r"tricks/(moons|stars|suns|waves)/([1-9]|10)", spec), spec
