"""A player's profile in the browser: made by the server with a secret key the browser
keeps, used to be rated, and moved to another device by its link."""

from __future__ import annotations

import pytest

from tests.web.conftest import Tab
from tests.web.play import create_table

pytestmark = pytest.mark.browser


def test_a_profile_is_made_once_and_moves_to_another_device(tab: Tab,
                                                             second_tab: Tab) -> None:
    create_table(tab, "timo", 2, {"target": "30"})
    stored = tab.page.evaluate(
        "() => [localStorage.getItem('tt.player'), localStorage.getItem('tt.secret')]")
    assert stored[0].startswith("p-") and len(stored[1]) >= 22
    tab.go("/#/profile")
    link = tab.page.locator("#profile-link").input_value()
    assert stored[0] in tab.page.locator("main").inner_text()
    second_tab.page.goto(link)
    second_tab.page.wait_for_selector("#profile-link")
    moved = second_tab.page.evaluate(
        "() => [localStorage.getItem('tt.player'), localStorage.getItem('tt.secret')]")
    assert moved == stored
    assert "#/profile/" not in second_tab.page.url  # the secret leaves the address bar
