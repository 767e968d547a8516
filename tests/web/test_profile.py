"""A player's profile in the browser: made by the server with a secret key the browser
keeps, used to be rated, and moved to another device by its link."""

from __future__ import annotations

from typing import Any

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


def test_another_persons_profile_link_asks_first_and_keeps_yours(tab: Tab,
                                                                  second_tab: Tab) -> None:
    def profile_of(some: Tab) -> tuple[str, str]:
        some.go("/#/profile")
        link = some.page.locator("#profile-link").input_value()
        stored = some.page.evaluate("() => localStorage.getItem('tt.player')")
        return stored, link

    mine, _ = profile_of(tab)
    theirs, their_link = profile_of(second_tab)
    assert mine != theirs

    answers: list[bool] = []
    asked: list[str] = []

    def on_dialog(dialog: Any) -> None:
        asked.append(dialog.message)
        if answers.pop(0):
            dialog.accept()
        else:
            dialog.dismiss()

    tab.page.on("dialog", on_dialog)

    def open_link(link: str, answer: bool) -> str:
        answers.append(answer)
        tab.page.evaluate("(hash) => { location.hash = hash; }", link[link.index("#"):])
        tab.page.wait_for_function("() => location.hash === '#/profile'")
        tab.page.wait_for_selector("#profile-link")
        return tab.page.evaluate("() => localStorage.getItem('tt.player')")  # type: ignore[no-any-return]

    assert open_link(their_link, answer=False) == mine  # asked, and refused: unchanged
    assert len(asked) == 1 and theirs in asked[0]
    assert open_link(their_link, answer=True) == theirs
    back = tab.page.locator("#previous-profile")
    assert mine in back.inner_text()
    answers.append(True)
    back.click()
    tab.page.wait_for_function(f"() => localStorage.getItem('tt.player') === '{mine}'")
