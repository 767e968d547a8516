"""The browser client in Debian's Chromium against a real `twintable serve`."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.server.client import free_port
from tests.web.conftest import Tab, serve_on
from tests.web.play import (
    Progress,
    create_table,
    finished,
    join_as,
    open_replay,
    play_to_results,
    seek,
    timo_move,
)
from twintable.core.registry import game_ids

pytestmark = pytest.mark.browser

GAMES = [("timo", 2, {"target": "30"}), ("twins", 3, {"max_hands": "1"}),
         ("twinit", 3, {"sets_to_win": "2"}),
         ("twinz", 4, {"countdown_s": "1", "grace_ms": "0.3", "guess_timeout_s": "5",
                       "result_pause_ms": "0.3", "read_ms": "0"})]


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_person_plays_a_whole_game_against_bots(tab: Tab, game: str, players: int,
                                                   options: dict[str, str]) -> None:
    create_table(tab, game, players, options)
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    play_to_results(tab, game)
    results = tab.page.locator("#results").inner_text()
    assert "Ann" in results and "winner" in results
    open_replay(tab)
    tab.page.click("#next")
    assert "Move 1 of" in tab.page.locator("#replay-step").inner_text()
    last = tab.page.locator("#seek").get_attribute("max")
    seek(tab, int(last or 0))
    assert f"Move {last} of {last}" in tab.page.locator("#replay-step").inner_text()


def test_twin_it_plays_by_keyboard(tab: Tab) -> None:
    create_table(tab, "twinit", 2, {"sets_to_win": "1"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    play_to_results(tab, "twinit", use_keyboard=True)


def test_two_browsers_play_one_table(tab: Tab, second_tab: Tab) -> None:
    table_id = create_table(tab, "timo", 2, {"target": "1"}, open_seats=(1,))
    join_as(second_tab, table_id, "Bea")
    tab.page.wait_for_selector("#start:not([disabled])")
    tab.page.click("#start")
    for each in (tab, second_tab):
        each.page.wait_for_selector(".hand")

    progress = Progress(tab, second_tab)
    while not (finished(tab) and finished(second_tab)):
        progress.check()
        timo_move(tab)
        timo_move(second_tab)
        time.sleep(0.1)
    for each in (tab, second_tab):
        text = each.page.locator("#results").inner_text()
        assert "Ann" in text and "Bea" in text


def test_a_reload_in_the_middle_of_a_game_resumes_it(tab: Tab) -> None:
    create_table(tab, "twins", 3, {"max_hands": "1"})
    tab.page.click("#start")
    tab.page.wait_for_selector("[data-buy]")
    tab.page.locator("[data-buy]").first.click()
    tab.page.wait_for_selector("#commit")
    hand = tab.page.locator(".hand").inner_text()
    assert "Round 1: the lowest pays 2" in tab.page.locator("#cash-card").inner_text()
    tab.page.reload()
    tab.page.wait_for_selector("#commit")
    assert tab.page.locator(".hand").inner_text() == hand
    tab.page.locator(".hand button.card").nth(0).click()
    tab.page.locator(".hand button.card").nth(1).click()
    tab.page.click("#commit")
    tab.page.wait_for_selector("#reveals")  # everyone's two cards, ranked
    assert "#1" in tab.page.locator("#reveals").inner_text()
    play_to_results(tab, "twins")


def test_switching_the_language_changes_the_visible_strings(tab: Tab) -> None:
    tab.go("/")
    tab.page.wait_for_selector("#create")
    assert tab.page.locator("nav").inner_text().split()[0] == "Lobby"
    for code, lobby, create in (("fr", "Salon", "Créer la table"), ("ko", "로비", "테이블 만들기"),
                                ("nl", "Lobby", "Tafel maken")):
        tab.page.select_option("#language", code)
        tab.page.wait_for_function(f"document.documentElement.lang === '{code}'")
        tab.page.wait_for_selector(f"#create:text('{create}')")
        assert tab.page.locator("nav a").first.inner_text() == lobby
    tab.page.reload()
    tab.page.wait_for_selector("#create:text('Tafel maken')")  # the choice is remembered


def test_pages_load_without_console_errors(tab: Tab) -> None:
    for path, selector in (("/", "#create"), ("/#/rules", "main li"),
                           ("/#/rules/twinit", ".rules table"), ("/#/leaderboard", "main h1"),
                           ("/#/leaderboard/twins", "main h1")):
        tab.go(path)
        tab.page.wait_for_selector(selector)


def test_an_unknown_table_gets_a_clear_message(tab: Tab) -> None:
    tab.go("/#/table/nope")
    tab.page.wait_for_selector(".error")
    # The browser logs the API's 404 itself; nothing else may have gone wrong.
    tab.errors = [e for e in tab.errors if "404" not in e]


def test_the_phone_layout_shows_the_whole_hand(second_tab: Tab) -> None:
    create_table(second_tab, "timo", 2, {"target": "30"})
    second_tab.page.click("#start")
    second_tab.page.wait_for_selector(".hand button.card")
    width = second_tab.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390


def test_catalogues_have_the_same_keys_in_every_language() -> None:
    """The shell's catalogues (each installed game's own are the kit's ``translations``
    check, tests/kit)."""
    package = Path(__file__).parents[2] / "src" / "twintable"
    for folder in [package / "web" / "i18n"]:
        catalogues = {path.stem: json.loads(path.read_text()) for path in folder.glob("*.json")}
        assert set(catalogues) == {"en", "fr", "ko", "nl"}, folder
        keys = set(catalogues["en"])
        for code, catalogue in catalogues.items():
            assert set(catalogue) == keys, (folder, code)
            assert all(isinstance(value, str) and value for value in catalogue.values())


def test_cooperative_time_attack_spreads_every_card_and_ends_with_a_level(tab: Tab) -> None:
    create_table(tab, "twinit", 1, {"mode": "coop", "duration_s": "10"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#start-round")
    tab.page.click("#start-round")
    tab.page.wait_for_selector("#timer")
    assert tab.page.locator(".tw-centre .tw-card").count() == 135
    play_to_results(tab, "twinit")
    assert tab.page.locator("#level").count() == 1


def test_the_client_reconnects_by_itself_when_the_server_comes_back(
        browser: Any, tmp_path: Path) -> None:
    """A crashed server is a network drop for everyone: the page says it is reconnecting,
    then resumes the same table with the same hand, and the game goes on to the end."""
    port = free_port()
    db = tmp_path / "drop.sqlite3"

    def serve() -> subprocess.Popen[bytes]:
        return serve_on(port, db)

    server = serve()
    context = browser.new_context(bypass_csp=True)  # tests poll with eval (conftest)
    tab = Tab(context.new_page(), f"http://127.0.0.1:{port}")
    try:
        create_table(tab, "twins", 3, {"max_hands": "1"})
        tab.page.click("#start")
        tab.page.wait_for_selector("[data-buy]")
        hand = tab.page.locator(".hand").inner_text()
        server.kill()
        server.wait()
        tab.page.wait_for_selector("#status:text('reconnecting')")
        server = serve()
        tab.page.wait_for_function("document.getElementById('status').textContent === ''")
        tab.page.wait_for_selector("[data-buy]")
        assert tab.page.locator(".hand").inner_text() == hand
        play_to_results(tab, "twins")
    finally:
        context.close()
        server.kill()
        server.wait()
    # The page logged the refused connections while the server was down, nothing else.
    assert [e for e in tab.errors if "WebSocket" not in e and "ERR_CONNECTION" not in e] == []


KEY_LIKE = (r"\b(?:lobby|table|option|choice|bot|game|twinit|twinz|twins|timo|event|error|nav"
            r"|replay)\.[a-z_.]+")


@pytest.mark.parametrize("code", ["en", "fr", "ko", "nl"])
def test_no_catalogue_key_shows_untranslated(tab: Tab, code: str) -> None:
    import re

    tab.go("/")
    tab.page.wait_for_selector("#create")
    tab.page.select_option("#language", code)
    tab.page.wait_for_function(f"document.documentElement.lang === '{code}'")
    for game in game_ids():
        tab.page.select_option("#game", game)
        tab.page.wait_for_selector("#create")
        text = tab.page.locator("main").inner_text()
        assert not re.findall(KEY_LIKE, text), (code, game, re.findall(KEY_LIKE, text))


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_every_table_string_is_translated(tab: Tab, game: str, players: int,
                                          options: dict[str, str]) -> None:
    import re

    tab.go("/")
    tab.page.wait_for_selector("#create")
    tab.page.select_option("#language", "fr")
    tab.page.wait_for_function("document.documentElement.lang === 'fr'")
    create_table(tab, game, players, options)
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    tab.page.wait_for_timeout(800)
    text = tab.page.locator("main").inner_text()
    assert not re.findall(KEY_LIKE, text), re.findall(KEY_LIKE, text)


def test_twinz_shows_each_penalty_as_it_happens(tab: Tab) -> None:
    create_table(tab, "twinz", 4, {"countdown_s": "1", "grace_ms": "0.1",
                                   "guess_timeout_s": "5"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    # The bot partner draws the card at once and gives its clue; we stay silent past the
    # countdown, so our clue is missing.
    tab.page.wait_for_function(
        "document.querySelector('.log') && document.querySelector('.log').textContent"
        ".includes('Ann loses points: no clue')", timeout=15_000)


def test_the_client_runs_under_the_content_security_policy(strict_tab: Tab) -> None:
    """Scripts from the server only, no inline script: the lobby and a table work, and no
    violation is reported (the fixture fails on any console error)."""
    create_table(strict_tab, "twinit", 2, {"sets_to_win": "1"})
    strict_tab.page.click("#start")
    strict_tab.page.wait_for_selector(".tw-card")
    assert strict_tab.page.locator(".tw-card").count() > 0
