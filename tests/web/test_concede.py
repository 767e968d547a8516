"""Conceding in the browser (issue #39): asked once more in words, then a bot plays the
seat to the end; everyone at the table sees who conceded, and the game ends by itself."""

from __future__ import annotations

import pytest

from tests.web.conftest import Tab
from tests.web.play import create_table

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_person_concedes_and_watches_the_game_end(tab: Tab, second_tab: Tab,
                                                     phone: bool) -> None:
    page = (second_tab if phone else tab).page
    create_table(second_tab if phone else tab, "timo", 2, {"target": "60"})
    page.click("#start")
    page.wait_for_selector("#concede-ask")
    page.click("#concede-ask")
    asked = page.wait_for_selector("#concede-panel:not([hidden])")
    assert "counts as a loss" in asked.inner_text()
    page.click("#concede-no")  # changed their mind: nothing happens
    page.wait_for_selector("#concede-panel", state="hidden")
    page.click("#concede-ask")
    page.click("#concede-yes")
    page.wait_for_selector(".seat.me .badge.conceded")
    assert "You conceded" in page.locator("#conceded-note").inner_text()
    # Watching now: no hand to play, no "your turn".
    page.wait_for_function("() => ![...document.querySelectorAll('.badge')].some((badge) =>"
                           " badge.textContent === 'your move')")
    assert page.locator(".seat.me .badge.away").count() == 0
    page.wait_for_selector("#log li:has-text('Ann concedes.')")
    assert page.locator("#concede-ask").count() == 0  # offered once
    # The stand-in plays Ann's seat to the end: the results come by themselves.
    page.wait_for_selector("#results:not([hidden])", timeout=60_000)
