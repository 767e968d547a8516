"""The guided first game in the browser (issue #39): offered on a game's first "Play
now", its first hint points at the discard pile, following a hint moves on, and "Skip the
guide" ends it for good on this browser."""

from __future__ import annotations

import pytest

from tests.web.conftest import Tab

pytestmark = pytest.mark.browser

# The bubble's and its target's boxes, and whether they overlap.
APART = """() => {
  const bubble = document.querySelector('#coach').getBoundingClientRect();
  const target = document.querySelector('.coach-target').getBoundingClientRect();
  const overlap = bubble.left < target.right && target.left < bubble.right
    && bubble.top < target.bottom && target.top < bubble.bottom;
  return !overlap && bubble.left >= 0 && bubble.right <= document.documentElement.clientWidth;
}"""


def test_a_newcomer_is_offered_a_guided_game_follows_a_hint_and_skips(tab: Tab) -> None:
    page = tab.page
    tab.go("/")
    page.fill("#name", "Ann")
    page.click("#play-timo")
    offer = page.wait_for_selector("[data-guided-offer=timo]")
    assert "New to Timo's Twist?" in offer.inner_text()
    page.click("#guided-timo")

    # The first hint explains the discard pile, beside it, and waits for "Next".
    page.wait_for_selector("#coach:not([hidden])")
    assert "discard pile" in page.locator("#coach-text").inner_text()
    assert "1 of 6" in page.locator("#coach").inner_text()
    page.wait_for_selector("#top-card.coach-target")
    assert page.evaluate(APART)
    page.click("#coach-next")

    # Following the hint: play a raised card when the turn comes (a black one asks for
    # a colour); the hint moves on to the next step by itself.
    assert "raised cards" in page.locator("#coach-text").inner_text()
    page.click(".tm-hand button.legal", timeout=30_000)
    if page.locator(".tm-sheet [data-colour]").count():
        page.locator(".tm-sheet [data-colour]").first.click()
    page.wait_for_function("() => document.querySelector('#coach .coach-count')"
                           ".textContent.includes('3 of 6')")
    # "Draw a card" shows only on a turn where nothing can be played; until then the
    # bubble stays out of the way.
    page.wait_for_function(f"""() => {{
      const drawing = Boolean(document.querySelector('#draw'));
      const hidden = document.querySelector('#coach').hidden;
      return drawing ? !hidden && ({APART})() : hidden; }}""")

    # Skipped (from the table's tools: the bubble may be waiting for a draw): the bubble
    # goes, and this browser is not offered the guided game again.
    page.click("#coach-skip-all")
    assert page.locator("#coach-skip-all").count() == 0
    page.wait_for_selector("#coach", state="hidden")
    assert page.locator(".coach-target").count() == 0
    tab.go("/")
    page.click("#play-timo")
    page.wait_for_url("**/#/table/*")
    assert page.locator("[data-guided-offer]").count() == 0
    assert page.locator("#coach:not([hidden])").count() == 0
