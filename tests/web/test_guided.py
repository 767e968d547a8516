"""The guided first game in the browser (issue #39): offered on a game's first "Play
now" or "Set up a table", its first hint points at the discard pile, following a hint
moves on, "Skip the guide" ends it for good on this browser, and a profile keeps what it
has seen, so that another browser holding it is not offered it again."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import Tab, _open_tab

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


SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.fixture(params=list(SIZES))
def sized_tab(browser: Any, server_url: str, request: pytest.FixtureRequest) -> Iterator[Tab]:
    yield from _open_tab(browser, server_url, *SIZES[request.param], request)


def _fits(tab: Tab, selector: str) -> bool:
    """The element is on screen and nothing of the page is wider than the screen."""
    return bool(tab.page.evaluate(f"""() => {{
      const box = document.querySelector('{selector}').getBoundingClientRect();
      const width = document.documentElement.clientWidth;
      return box.left >= 0 && box.right <= width && document.documentElement.scrollWidth <= width;
    }}"""))


def test_set_up_a_table_offers_the_guided_game_first(sized_tab: Tab) -> None:
    page = sized_tab.page
    sized_tab.go("/")
    page.click("[data-set-up=twinz]")
    offer = page.wait_for_selector("[data-guided-offer=twinz]")
    assert "Twinz" in offer.inner_text()
    offer.scroll_into_view_if_needed()
    assert _fits(sized_tab, "[data-guided-offer=twinz]")
    # The form is not drawn for the game until the offer is answered.
    assert page.locator("#game").input_value() != "twinz"
    page.click("#guided-skip-twinz")
    # Skipped: the form for that game, in view and focused, and no offer again.
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'game'")
    assert page.locator("#game").input_value() == "twinz"
    assert page.locator("[data-guided-offer]").count() == 0
    page.click("[data-set-up=twinz]")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'game'")
    assert page.locator("[data-guided-offer]").count() == 0
    # The guided game itself is one tap from the offer (another game's, here).
    page.click("[data-set-up=twins]")
    page.click("#guided-twins")
    page.wait_for_url("**/#/table/*")
    page.wait_for_selector("#coach:not([hidden])")


def _marks(base: str, player: str, secret: str) -> dict[str, str]:
    request = urllib.request.Request(f"{base}/api/profiles/{player}/guided",
                                     headers={"Authorization": f"Bearer {secret}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())["games"]  # type: ignore[no-any-return]


def _wait_marks(base: str, player: str, secret: str, expected: dict[str, str]) -> None:
    deadline = time.monotonic() + 15
    while _marks(base, player, secret) != expected:
        assert time.monotonic() < deadline, _marks(base, player, secret)
        time.sleep(0.1)


def test_the_profile_keeps_what_it_has_seen_on_another_browser(browser: Any, server_url: str,
                                                                request: pytest.FixtureRequest
                                                                ) -> None:
    desktop = _open_tab(browser, server_url, *SIZES["desktop"], request)
    phone = _open_tab(browser, server_url, *SIZES["phone"], request)
    first, second = next(desktop), next(phone)
    try:
        # Skipped before the browser had a profile: "Play now" makes one, and the next
        # lobby tells it what this browser skipped.
        first.go("/")
        first.page.fill("#name", "Ann")
        first.page.click("#play-twins")
        first.page.click("#guided-skip-twins")
        first.page.wait_for_url("**/#/table/*")
        first.go("/")
        player, secret = first.page.evaluate(
            "() => [localStorage.getItem('tt.player'), localStorage.getItem('tt.secret')]")
        _wait_marks(server_url, player, secret, {"twins": "skipped"})

        # The same profile on a phone: Twins goes straight to its table, Timo is offered.
        first.go("/#/profile")
        link = first.page.locator("#profile-link").input_value()
        second.page.goto(link)
        second.page.click("#use-profile")
        second.page.wait_for_selector("#profile-link")
        second.go("/")
        second.page.click("#play-twins")
        second.page.wait_for_url("**/#/table/*")
        assert second.page.locator("[data-guided-offer]").count() == 0
        second.go("/")
        second.page.click("[data-set-up=timo]")
        second.page.click("#guided-skip-timo")
        second.page.wait_for_function(
            "() => document.activeElement && document.activeElement.id === 'game'")
        _wait_marks(server_url, player, secret, {"twins": "skipped", "timo": "skipped"})

        # Back on the first browser, which never skipped Timo itself: no offer either.
        first.go("/")
        first.page.click("[data-set-up=timo]")
        first.page.wait_for_function(
            "() => document.activeElement && document.activeElement.id === 'game'")
        assert first.page.locator("[data-guided-offer]").count() == 0
        assert first.page.locator("#game").input_value() == "timo"
    finally:
        for opened in (desktop, phone):
            next(opened, None)
