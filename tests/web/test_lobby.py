"""The lobby as a new player meets it: a game in one click, a form bounded by the game and
its mode, options in seconds and seats from 1, refusals as sentences in the reader's
language, table names translated, private tables behind their invite link."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import twintable
from tests.web.conftest import Tab
from tests.web.play import skip_guided_offer
from twintable.core.registry import game_ids

pytestmark = pytest.mark.browser

WEB = Path(twintable.__file__).resolve().parent / "web"


def lobby(tab: Tab, lang: str = "en") -> None:
    tab.go("/")
    tab.page.wait_for_selector("#create")
    if lang != "en":
        tab.page.select_option("#language", lang)
        tab.page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        tab.page.wait_for_selector("#create")


def table_info(tab: Tab, table_id: str) -> dict[str, Any]:
    text = tab.page.evaluate(f"fetch('/api/tables/{table_id}').then((r) => r.text())")
    return json.loads(text)  # type: ignore[no-any-return]


@pytest.mark.parametrize("game", game_ids())
def test_play_now_starts_a_game_against_bots_in_one_click(tab: Tab, game: str) -> None:
    lobby(tab)
    tile = tab.page.locator(f'.lb-game[data-game="{game}"]')
    # The tile shows the game: a picture drawn from its cards, a line, players and a length.
    tile.locator(".lb-pic > *").first.wait_for()
    assert tile.locator(".lb-about").inner_text().strip()
    assert "players" in tile.locator(".lb-facts").inner_text()
    tab.page.click(f"#play-{game}")
    # This browser's first table of the game: a guided game is offered first; skipped.
    skip_guided_offer(tab, game)
    tab.page.wait_for_selector("#board > *", timeout=30_000)
    table_id = tab.page.url.rsplit("/", 1)[1]
    info = table_info(tab, table_id)
    assert info["status"] in ("running", "finished")
    assert info["seats"][0]["kind"] == "human"
    assert all(seat["kind"] == "bot" for seat in info["seats"][1:])
    assert tab.page.locator("#start").count() == 0


def test_play_now_offers_the_bots_level_and_remembers_the_choice(tab: Tab) -> None:
    lobby(tab)
    games = json.loads(tab.page.evaluate("fetch('/api/games').then((r) => r.text())"))
    twinit = next(game for game in games if game["id"] == "twinit")
    level = tab.page.locator("#level-twinit")
    # The game's default level is chosen until a person picks another.
    assert level.input_value() == twinit["default_bot"]
    options = level.locator("option").all_inner_texts()
    assert len(options) >= 2 and not any("." in text for text in options), options
    other = next(bot for bot in level.locator("option").evaluate_all(
        "(os) => os.map((o) => o.value)") if bot != twinit["default_bot"])
    level.select_option(other)
    lobby(tab)  # a fresh lobby: the browser remembers the level chosen
    assert tab.page.locator("#level-twinit").input_value() == other
    tab.page.click("#play-twinit")
    tab.page.click("#guided-skip-twinit")  # this browser's first table of the game
    tab.page.wait_for_selector("#board > *", timeout=30_000)
    info = table_info(tab, tab.page.url.rsplit("/", 1)[1])
    assert [seat["bot"] for seat in info["seats"][1:]] == [other] * (len(info["seats"]) - 1)
    tab.page.evaluate("localStorage.removeItem('tt.bot.twinit')")


def test_the_player_count_stays_within_the_game_and_mode(tab: Tab) -> None:
    lobby(tab)
    page = tab.page
    page.select_option("#game", "timo")
    page.fill("#players", "99")
    assert page.input_value("#players") == "6"
    assert page.locator("[data-seat]").count() == 5  # seats 2 to 6, never 98 menus
    page.select_option("#game", "twinit")
    page.select_option("#opt-mode", "team")
    assert page.get_attribute("#players", "min") == "4"
    assert page.get_attribute("#players", "max") == "6"
    assert int(page.input_value("#players")) >= 4
    page.fill("#players", "99")
    assert page.input_value("#players") == "6" and page.locator("[data-seat]").count() == 5
    page.fill("#players", "2")
    assert page.locator("[data-seat]").count() == 3  # drawn for the fewest the mode takes
    page.click("#create")
    assert "4 to 6 players" in page.locator("#create-error").inner_text()
    assert "#/table/" not in page.url
    page.select_option("#opt-mode", "coop")
    page.fill("#players", "1")
    assert page.locator("[data-seat]").count() == 0


def test_twinit_shows_only_the_options_of_the_chosen_mode_in_seconds(tab: Tab) -> None:
    lobby(tab)
    page = tab.page
    page.select_option("#game", "twinit")

    def visible() -> set[str]:
        return set(page.eval_on_selector_all(
            "[data-option-field]", "els => els.filter((e) => !e.hidden)"
            ".map((e) => e.dataset.optionField)"))

    competitive = visible()
    assert {"mode", "sets_to_win", "taboo", "hold_ms"} <= competitive
    assert not {"duration_s", "teams", "rounds"} & competitive
    assert "Competitive" in page.locator("#create-options legend").first.inner_text()
    page.select_option("#opt-mode", "coop")
    coop = visible()
    assert "duration_s" in coop and not {"sets_to_win", "taboo", "teams", "rounds"} & coop
    page.select_option("#opt-mode", "timeattack")
    assert {"duration_s", "rounds"} <= visible()
    page.select_option("#opt-mode", "team")
    assert {"teams", "sets_to_win"} <= visible() and "duration_s" not in visible()
    # Milliseconds on the server, seconds in the form.
    assert page.input_value("#opt-hold_ms") == "1.5"
    assert "(s)" in page.locator('[data-option-field="hold_ms"]').inner_text()


def test_taboo_seats_are_numbered_from_1_like_every_seat(tab: Tab) -> None:
    lobby(tab)
    page = tab.page
    page.fill("#name", "Ann")
    page.select_option("#game", "twinit")
    page.fill("#players", "3")
    assert "seat 1 is you" in page.locator('[data-option-field="taboo"]').inner_text()
    page.fill("#opt-taboo", "0")
    page.click("#create")
    assert "from 1 to 3" in page.locator("#create-error").inner_text()
    page.fill("#opt-taboo", "1, 3")
    page.fill("#opt-hold_ms", "2")
    page.click("#create")
    page.wait_for_selector("#invite")
    info = table_info(tab, page.url.rsplit("/", 1)[1])
    assert info["options"]["taboo"] == [0, 2]
    assert info["options"]["hold_ms"] == 2000


def test_a_refusal_reads_as_a_sentence_in_french(tab: Tab) -> None:
    lobby(tab, "fr")
    page = tab.page
    page.fill("#name", "<Ann>")  # the server refuses angle brackets in a name
    page.select_option("#game", "timo")
    page.click("#create")
    page.wait_for_function("document.querySelector('#create-error').textContent.length > 0")
    text = page.locator("#create-error").inner_text()
    assert text == ("Le champ « Votre nom » n'est pas valide : vérifiez ce que vous y avez "
                    "saisi."), text
    page.fill("#name", "Ann")
    page.fill("#opt-target", "0")
    page.click("#create")
    assert page.locator("#create-error").inner_text() == (
        "Score visé : choisissez un nombre entre 1 et 100000.")
    # The browser logs the server's refusal (422) itself; that one is expected.
    tab.errors[:] = [error for error in tab.errors if "422" not in error]


def test_table_names_show_in_the_readers_language(tab: Tab, second_tab: Tab) -> None:
    lobby(tab)
    tab.page.fill("#name", "Minji")
    tab.page.select_option("#game", "timo")
    tab.page.fill("#players", "2")
    tab.page.select_option('[data-seat="1"]', "")
    tab.page.click("#create")
    tab.page.wait_for_selector("#invite")
    table_id = tab.page.url.rsplit("/", 1)[1]
    assert "Minji's table" in tab.page.title()
    lobby(second_tab, "ko")
    row = second_tab.page.locator(f'#open-tables [data-table="{table_id}"]')
    row.wait_for()
    assert "Minji의 테이블" in row.inner_text()
    assert "'s table" not in row.inner_text()
    row.locator("button").click()
    second_tab.page.wait_for_selector("#join")
    assert "Minji의 테이블" in second_tab.page.locator("main").inner_text()


def test_the_page_says_its_new_language_only_once_it_is_drawn_in_it(tab: Tab) -> None:
    """The page's lang was set as soon as a language was picked, and the page drawn in it
    only after the language's font pieces came (up to a second): meanwhile the English
    lobby said it was Korean (a screen reader read it so; a test read an English table
    name there). Each moment the lang changes, the heading is already in that language."""
    catalogue = json.loads((WEB / "i18n" / "ko.json").read_text())
    lobby(tab)
    tab.page.evaluate("""() => {
      window.langSeen = [];
      new MutationObserver(() => window.langSeen.push([document.documentElement.lang,
        document.querySelector('main h1')?.textContent])).observe(document.documentElement,
        { attributes: true, attributeFilter: ['lang'] });
    }""")
    tab.page.select_option("#language", "ko")
    tab.page.wait_for_function("() => window.langSeen.length > 0")
    assert tab.page.evaluate("window.langSeen") == [["ko", catalogue["nav.lobby"]]]


def test_a_private_table_is_reached_only_through_its_invite_link(
        tab: Tab, second_tab: Tab) -> None:
    lobby(tab)
    tab.page.fill("#name", "Ann")
    tab.page.select_option("#game", "timo")
    tab.page.fill("#players", "2")
    tab.page.select_option('[data-seat="1"]', "")
    tab.page.check("#private")
    tab.page.click("#create")
    tab.page.wait_for_selector("#invite")
    table_id = tab.page.url.rsplit("/", 1)[1]
    invite = tab.page.input_value("#invite")
    key = invite.rsplit(".", 1)[1]
    assert invite.endswith(f"#/join/{table_id}.{key}") and len(key) >= 22
    # Not listed, and the bare table address does not let anyone in.
    lobby(second_tab)
    second_tab.page.wait_for_selector("#open-tables, .lb-none")
    assert second_tab.page.locator(f'[data-table="{table_id}"]').count() == 0
    second_tab.go(f"/#/join/{table_id}")
    second_tab.page.wait_for_selector(".lb-join .error")
    assert "invite link" in second_tab.page.locator("main").inner_text()
    assert second_tab.page.locator("#join").count() == 0
    # Nor does the table's page, its seats or its replay, for someone without the key.
    assert table_info(second_tab, table_id)["code"] == "table.private"
    # The browser reports each refused request on its console: these two were expected.
    refused = [e for e in second_tab.errors if "status of 403" in e]
    assert len(refused) == 2
    second_tab.errors[:] = [e for e in second_tab.errors if e not in refused]
    # The invite link does.
    second_tab.go("/")
    second_tab.page.evaluate("localStorage.removeItem('tt.keys')")
    second_tab.page.goto(invite)
    second_tab.page.wait_for_selector("#join:not([disabled])")
    second_tab.page.fill("#join-name", "Bob")
    second_tab.page.click("#join")
    second_tab.page.wait_for_selector(".seat.me")
    assert table_info(tab, f"{table_id}?key={key}")["seats"][1]["display_name"] == "Bob"


def test_the_lobby_loads_each_games_pictures_never_a_board(tab: Tab) -> None:
    """Issue #39: the lobby loaded every game's board module (59 requests on a phone);
    each built-in game's tile now comes from its small pictures module."""
    loaded: list[str] = []
    tab.page.on("request", lambda request: loaded.append(request.url))
    tab.go("/")
    tab.page.wait_for_selector('.lb-game[data-game="timo"] .lb-pic > *')
    tab.page.wait_for_load_state("networkidle")
    modules = [url.split("/games/", 1)[1] for url in loaded
               if "/games/" in url and url.endswith(".js")]
    for game in ("timo", "twins", "twinit", "twinz"):
        assert f"{game}/pictures.js" in modules, modules
    assert not [module for module in modules if module.endswith("board.js")
                or (module.split("/")[0] in ("timo", "twins", "twinit", "twinz")
                and module.endswith("index.js"))], modules
    assert not tab.errors
