"""The table shell every game shares: seats around the table, bot names, the narrated log,
results with Play again (a rematch), and the remembered mute button."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

import pytest

from tests.web.conftest import Tab
from tests.web.play import (
    Progress,
    create_table,
    finished,
    join_as,
    play_to_results,
    timo_move,
)

pytestmark = pytest.mark.browser

# A catalogue key, a move's kind or an engine field name shown as text is a bug.
RAW = re.compile(r"\b(?:event|table|bot|replay|sound|twinit|twins|timo)\.[a-z_.]+"
                 r"|\b(?:same_clue|call_timo|turn_over|stolen_from|lost_set_picture|round_over"
                 r"|game_over|drew_cards|both_hands|own_pile|undefined|NaN|null)\b|\{\w+\}|\[object")


def info(tab: Tab, table_id: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{tab.base}/api/tables/{table_id}") as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def log_lines(tab: Tab) -> list[str]:
    return [line.strip() for line in tab.page.locator("#log li").all_inner_texts()]


def test_bots_have_distinct_names_shown_with_their_level_everywhere(tab: Tab) -> None:
    table_id = create_table(tab, "timo", 4, {"target": "20"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    bots = [seat["display_name"] for seat in info(tab, table_id)["seats"][1:]]
    assert len(set(bots)) == 3 and all(bots)
    level = "heuristic"
    seats = tab.page.locator("#seats .seat").all_inner_texts()
    for name in bots:
        assert any(f"{name} · {level}" in re.sub(r"\s+", " ", text) for text in seats), seats
    assert "(you)" in tab.page.locator('#seats .seat.me').inner_text()
    deadline = time.monotonic() + 30
    while not any(re.match(rf"({'|'.join(bots)}) · {level} ", line) for line in log_lines(tab)):
        assert time.monotonic() < deadline, log_lines(tab)
        timo_move(tab)
        time.sleep(0.2)
    lines = log_lines(tab)
    assert any(re.match(rf"({'|'.join(bots)}) · {level} ", line) for line in lines), lines
    assert not any("bot:" in line for line in lines)
    play_to_results(tab, "timo")
    ranking = tab.page.locator("#results .ranking").inner_text()
    for name in bots:
        assert f"{name} · {level}" in ranking
    assert tab.page.locator("#results .ranking tr").count() == 5  # a header and 4 players
    assert "winner" in ranking
    everything = tab.page.locator("main").inner_text()
    assert not RAW.findall(everything), RAW.findall(everything)
    # The replay names the same bots the same way, and says what happened in words.
    tab.page.click("#replay-link")
    tab.page.wait_for_selector("#seek")
    tab.page.click("#next")
    tab.page.click("#next")
    caption = tab.page.locator("#replay-step").inner_text()
    assert "Move 2 of" in caption and not RAW.findall(caption), caption
    assert any(f"{name} · {level}" in tab.page.locator("main").inner_text() for name in bots)


@pytest.mark.parametrize(("code", "two", "one", "start"), [
    ("en", "pays 2 chips to the bank", "pays 1 chip to the bank", "Round 1: everyone picks"),
    ("fr", "paie 2 jetons à la banque", "paie 1 jeton à la banque", "Tour 1 : chacun choisit"),
])
def test_the_log_narrates_in_the_players_language_with_plurals(
        tab: Tab, code: str, two: str, one: str, start: str) -> None:
    tab.go("/")
    tab.page.wait_for_selector("#create")
    tab.page.select_option("#language", code)
    tab.page.wait_for_function(f"() => document.documentElement.lang === '{code}'")
    # One hand of Twins: round 1 makes the two lowest pay 2, round 3 the lowest pay 1.
    create_table(tab, "twins", 4, {"max_hands": "1"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    play_to_results(tab, "twins")
    text = "\n".join(log_lines(tab))
    assert two in text and one in text and start in text, text
    assert not re.search(r"\b1 (?:chips|jetons|cards|cartes)\b", text), text
    assert not RAW.findall(text), RAW.findall(text)
    # The latest lines are in sight without opening anything, newest first.
    assert tab.page.locator("#log").is_visible()
    assert tab.page.locator("#log li").first.evaluate("e => e.classList.contains('latest')")
    # The hand's chips, round by round, are summed up in the results.
    assert tab.page.locator("#results .chips-moved").count() == 1


def test_twin_it_narrates_takes_and_errors_without_codes(tab: Tab) -> None:
    create_table(tab, "twinit", 3, {"sets_to_win": "2"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    play_to_results(tab, "twinit")
    text = "\n".join(log_lines(tab))
    assert re.search(r"takes (?:a pair|three of a kind)!|steals a set", text), text
    assert not RAW.findall(text), RAW.findall(text)
    assert "sets" in tab.page.locator("#results .ranking").inner_text()


def test_play_again_makes_a_rematch_the_other_player_joins(tab: Tab, second_tab: Tab) -> None:
    table_id = create_table(tab, "timo", 3, {"target": "15"}, open_seats=(1,))
    join_as(second_tab, table_id, "Bea")
    tab.page.wait_for_selector("#start:not([disabled])")
    tab.page.click("#start")
    progress = Progress(tab, second_tab)
    while not (finished(tab) and finished(second_tab)):
        progress.check()
        timo_move(tab)
        timo_move(second_tab)
        time.sleep(0.1)
    old = info(tab, table_id)
    for each in (tab, second_tab):
        ranking = each.page.locator("#results .ranking").inner_text()
        assert "Ann" in ranking and "Bea" in ranking
        assert each.page.locator("#replay-link").is_visible()
    assert tab.page.locator("#play-again").inner_text() == "Play again"
    tab.page.click("#play-again")
    tab.page.wait_for_selector("#invite")
    rematch = tab.page.url.rsplit("/", 1)[1]
    assert rematch != table_id and info(tab, table_id)["rematch"] == rematch
    new = info(tab, rematch)
    assert new["options"] == old["options"] and new["seats"][1]["reserved"]
    assert (new["seats"][2]["bot"], new["seats"][2]["display_name"]) == (
        old["seats"][2]["bot"], old["seats"][2]["display_name"])
    assert tab.page.locator("#start").is_disabled()  # Bea's seat is kept for her
    # Bea's browser hears of it at once, and joins with one click.
    second_tab.page.wait_for_selector("#play-again:text('Join the rematch')")
    assert second_tab.page.locator("#rematch-ready").is_visible()
    second_tab.page.click("#play-again")
    second_tab.page.wait_for_selector("#waiting")
    assert second_tab.page.url.endswith(f"/table/{rematch}")
    tab.page.wait_for_selector("#start:not([disabled])")
    tab.page.click("#start")
    for each in (tab, second_tab):
        each.page.wait_for_selector(".hand")


# Each blip that sounds is announced as a `tt:sound` event (lib/sound.js): the test
# page collects them.
COLLECT_SOUNDS = ("document.addEventListener('tt:sound', (event) => "
                  "(window.ttSounds = window.ttSounds || []).push(event.detail));")


def test_mute_is_remembered_and_nothing_sounds_before_a_gesture(tab: Tab, second_tab: Tab
                                                                ) -> None:
    for each in (tab, second_tab):
        each.page.add_init_script(COLLECT_SOUNDS)
    table_id = create_table(tab, "timo", 3, {"target": "500"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    # A spectator who has not touched the page hears nothing (browsers forbid it, and we
    # do not try).
    second_tab.go(f"/#/table/{table_id}")
    second_tab.page.wait_for_selector("#board > *")
    deadline = time.monotonic() + 30
    while second_tab.page.locator("#log li").count() < 2:
        assert time.monotonic() < deadline
        timo_move(tab)
        time.sleep(0.2)
    assert second_tab.page.evaluate("window.ttSounds === undefined")
    mute = tab.page.locator("#mute")
    assert mute.get_attribute("aria-pressed") == "false"
    mute.click()
    assert mute.get_attribute("aria-pressed") == "true"
    sounds = tab.page.evaluate("(window.ttSounds || []).length")
    for _ in range(6):
        timo_move(tab)
        time.sleep(0.3)
    assert tab.page.evaluate("(window.ttSounds || []).length") == sounds  # muted: silence
    tab.page.reload()
    tab.page.wait_for_selector("#board > *")
    assert tab.page.locator("#mute").get_attribute("aria-pressed") == "true"
    tab.page.click("#mute")
    tab.page.reload()
    tab.page.wait_for_selector("#mute")
    assert tab.page.locator("#mute").get_attribute("aria-pressed") == "false"


def _between_seats(tab: Tab, selector: str) -> bool:
    """Whether ``selector`` lies on the felt and the felt lies between the top and bottom
    seats, on screen."""
    return bool(tab.page.evaluate("""(selector) => {
      const found = document.querySelector(`#seats .felt.holds ${selector}`);
      const top = document.querySelector('#seats .ring-top .seat');
      const me = document.querySelector('#seats .seat.me');
      if (!found || !top || !me) return false;
      const box = found.getBoundingClientRect();
      return box.height > 0 && top.getBoundingClientRect().top < box.top
        && box.bottom < me.getBoundingClientRect().bottom; }""", selector))


def test_the_game_lies_on_the_felt_between_the_seats_on_a_wide_screen(tab: Tab) -> None:
    create_table(tab, "timo", 3, {"target": "500"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#seats .felt.holds .tm-piles")
    # One table: Timo's piles and the colour to follow lie between the seats, and the
    # board below holds the hand only.
    assert _between_seats(tab, ".tm-drawpile") and _between_seats(tab, ".tm-follow")
    assert tab.page.locator("#board .tm-felt").count() == 0
    assert tab.page.locator("#board .tm-hand").count() == 1
    # The pile works from there: the first time Ann has to draw, a tap on it draws.
    drawable = tab.page.locator("#seats .felt .tm-drawpile.tm-can")
    deadline = time.monotonic() + 90
    while not drawable.count():
        assert time.monotonic() < deadline and not finished(tab)
        legal = tab.page.locator(".hand button.card.legal:not([disabled])")
        if tab.page.locator("[data-colour]").count() or legal.count():
            timo_move(tab)  # plays a card (and picks a colour)
        time.sleep(0.2)
    cards = tab.page.locator(".tm-hand .card").count()
    drawable.click()
    tab.page.wait_for_function(
        f"() => document.querySelectorAll('.tm-hand .card').length > {cards}")
    # On a phone's width the seats are a strip and the piles go back above the hand.
    tab.page.set_viewport_size({"width": 390, "height": 844})
    tab.page.wait_for_selector("#board .tm-felt .tm-piles")
    assert tab.page.locator("#seats .tm-felt").count() == 0
    assert not tab.page.locator("#seats .felt").is_visible()
    tab.page.set_viewport_size({"width": 1200, "height": 900})
    tab.page.wait_for_selector("#seats .felt.holds .tm-piles")
    assert tab.page.locator("#board .tm-felt").count() == 0


EDGES = """(want) => [...document.getElementById('seats').classList]
  .filter((c) => c.startsWith('more-')).sort().join(' ') === want"""
FADES = "() => getComputedStyle(document.getElementById('seats')).maskImage !== 'none'"


def test_on_a_phone_the_seat_strip_fades_where_more_seats_lie_beyond(second_tab: Tab) -> None:
    page = second_tab.page
    # Seats left open for people: the table waits, and no move scrolls the strip.
    create_table(second_tab, "timo", 5, {"target": "500"}, open_seats=(1, 2, 3, 4))
    scroll = "(left) => { document.getElementById('seats').scrollLeft = left; }"
    page.evaluate(scroll, 0)
    page.wait_for_function(EDGES, arg="more-right")
    assert page.evaluate(FADES)
    page.evaluate(scroll, 200)
    page.wait_for_function(EDGES, arg="more-left more-right")
    page.evaluate(scroll, 5000)
    page.wait_for_function(EDGES, arg="more-left")
    # On a wide screen the seats sit around the felt: nothing fades.
    page.set_viewport_size({"width": 1200, "height": 900})
    page.wait_for_function(EDGES, arg="")
    assert not page.evaluate(FADES)


def test_twins_bank_lies_on_the_felt_and_the_picks_beside_the_cash_card(tab: Tab) -> None:
    create_table(tab, "twins", 4, {"max_hands": "1"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#seats .felt.holds .tw2-bank")
    assert _between_seats(tab, ".tw2-bank")
    assert tab.page.locator("#board .tw2-reveals").count() == 1
    assert tab.page.locator("#board #cash-card").count() == 1
    play_to_results(tab, "twins")
    assert "Game over" in tab.page.locator("#seats .felt").inner_text()
