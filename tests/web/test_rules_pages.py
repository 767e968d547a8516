"""The rules pages in the browser: the player's language, cards drawn by the games' own
code, and the lobby's "How to play" link."""

from __future__ import annotations

import pytest

from tests.web.conftest import Tab

pytestmark = pytest.mark.browser


def test_the_rules_show_in_french_with_real_cards(tab: Tab) -> None:
    tab.go("/")
    tab.page.wait_for_selector("#create")
    tab.page.select_option("#language", "fr")
    tab.page.wait_for_function("document.documentElement.lang === 'fr'")
    tab.go("/#/rules/timo")
    tab.page.wait_for_selector(".rules .rules-card .tm-card")
    rules = tab.page.locator(".rules")
    assert rules.get_attribute("lang") == "fr"
    text = rules.inner_text()
    assert "En bref" in text and "Nos arbitrages" in text and "À votre tour" in text
    # Every placeholder holds a card face drawn by games/timo.js, labelled in French.
    spots = tab.page.locator(".rules .rules-card")
    assert spots.count() > 5
    assert tab.page.locator(".rules .rules-card > .tm-card").count() == spots.count()
    assert tab.page.locator(".rules .tm-card.c-black.r-plus4").count() >= 1
    assert "rose" in (tab.page.locator(".rules .tm-card.c-pink").first.get_attribute(
        "aria-label") or "")
    assert tab.page.locator(".rules .rules-rulings h2").inner_text() == "Nos arbitrages"
    assert tab.page.locator(".rules table").count() == 1
    assert tab.page.locator(".rules-toc li").count() == 8

    # From the lobby, "How to play" opens the chosen game's page.
    tab.go("/#/")
    tab.page.wait_for_selector("#create")
    tab.page.select_option("#game", "twins")
    tab.page.click("#how-to-play")
    tab.page.wait_for_selector(".rules .rules-card > .tw2-card")
    assert "Jumeaux" in tab.page.locator(".rules").inner_text()
    assert tab.page.locator(".rules .tw2-card.ink-white").count() >= 1
