"""The table shell every game shares: seats around the table, bot names, the narrated log,
results with Play again (a rematch), and the remembered mute button."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from itertools import pairwise
from typing import Any

import pytest

from tests.web.conftest import Tab
from tests.web.play import (
    MOVES,
    Progress,
    create_table,
    finished,
    in_view,
    join_as,
    open_replay,
    play_to_results,
    skip_guided_offer,
    timo_move,
    wait_in_view,
)
from twintable.core.registry import game_ids

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


def test_bots_have_distinct_names_shown_with_their_level_as_a_badge(tab: Tab) -> None:
    table_id = create_table(tab, "timo", 4, {"target": "20"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    bots = [seat["display_name"] for seat in info(tab, table_id)["seats"][1:]]
    assert len(set(bots)) == 3 and all(bots)
    level = "Medium"  # Timo's default bot, "heuristic", on the level scale /api/games declares

    def badge_beside_name(root: str) -> None:
        for name in bots:
            holder = tab.page.locator(f"{root} :is(.seat-name, .who, .replay-seat)",
                                      has_text=name).first
            assert holder.locator(".level-badge").inner_text().strip() == level

    badge_beside_name("#seats")
    assert "(you)" in tab.page.locator('#seats .seat.me').inner_text()
    deadline = time.monotonic() + 30
    while not any(re.match(rf"({'|'.join(bots)}) ", line) for line in log_lines(tab)):
        assert time.monotonic() < deadline, log_lines(tab)
        timo_move(tab)
        time.sleep(0.2)
    lines = log_lines(tab)
    # A level is never part of a sentence: the log names the bot only.
    assert any(re.match(rf"({'|'.join(bots)}) ", line) for line in lines), lines
    assert not any("bot:" in line or level in line or " · " in line for line in lines), lines
    play_to_results(tab, "timo")
    ranking = tab.page.locator("#results .ranking").inner_text()
    badge_beside_name("#results .ranking")
    assert not any(f"{name} · " in ranking for name in bots)
    assert tab.page.locator("#results .ranking tr").count() == 5  # a header and 4 players
    assert "winner" in ranking
    everything = tab.page.locator("main").inner_text()
    assert not RAW.findall(everything), RAW.findall(everything)
    # The replay names the same bots the same way, and says what happened in words.
    open_replay(tab)
    tab.page.click("#next")
    tab.page.click("#next")
    caption = tab.page.locator("#replay-step").inner_text()
    assert "Move 2 of" in caption and not RAW.findall(caption), caption
    assert level not in caption
    badge_beside_name(".replay-seats")


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
    # Seats left open for people: the table waits, and no move scrolls the strip. Eight
    # seats: more than a phone shows at once (up to six sit in rows, all in sight).
    create_table(second_tab, "twinz", 8, {}, open_seats=tuple(range(1, 8)))
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


SEAT_BOXES = """() => { const box = (e) => { const r = e.getBoundingClientRect();
    return [r.left, r.right, r.top, r.bottom]; };
  const seats = document.getElementById('seats');
  return { page: document.documentElement.scrollWidth,
    strip: [seats.scrollWidth, seats.clientWidth],
    fades: getComputedStyle(seats).maskImage !== 'none',
    seats: [...seats.querySelectorAll('.seat')].map(box),
    // Rows by layout (offsetTop): a seat's box moves for a moment while motion slides it
    // into place (a transform), which is not another row.
    rows: [...new Set([...seats.querySelectorAll('.seat')].map((e) => e.offsetTop))],
    names: [...seats.querySelectorAll('.seat-name strong')].map((e) => [e.textContent,
      e.scrollWidth <= e.clientWidth + 1]),
    hand: box(document.querySelector('#board .hand')) }; }"""


SEATS_AT_REST = """() => !document.getAnimations().some((a) => a.playState === 'running'
  && a.effect?.getTiming().iterations !== Infinity && a.effect?.target?.closest?.('.seat'))"""


def test_on_a_phone_every_seat_of_up_to_six_is_in_sight_without_scrolling(
        second_tab: Tab) -> None:
    """Issue 24, item 10: at 390 x 844 a table of 2 to 6 shows every seat whole, names
    uncut, in at most two rows above the hand; nothing scrolls sideways."""
    page = second_tab.page
    for players in range(2, 7):
        create_table(second_tab, "timo", players, {"target": "500"})
        page.click("#start")
        page.wait_for_selector("#board .hand")
        # Measured at rest: a seat that has just acted pulses (scale 1.08 for 420 ms),
        # which for that moment widens the strip's overflow by a few pixels. The check
        # and the measure are one look: between two, a bot's move could start a pulse.
        boxes = page.wait_for_function(
            f"() => ({SEATS_AT_REST})() ? ({SEAT_BOXES})() : null",
            timeout=10_000).json_value()
        assert len(boxes["seats"]) == players, boxes
        assert boxes["page"] <= 390 and boxes["strip"][0] <= boxes["strip"][1], boxes
        assert not boxes["fades"], boxes
        for left, right, top, bottom in boxes["seats"]:
            assert left >= 0 and right <= 390 and top >= 0 and bottom <= 844, (players, boxes)
        assert all(whole for _, whole in boxes["names"]), (players, boxes["names"])
        assert len(boxes["rows"]) <= 2, (players, boxes)
        # The seats leave the screen to the game: the hand lies below them, whole on the
        # first screen (how far down depends on how many log lines the strip above the
        # felt holds at that moment, one to three).
        assert max(bottom for *_, bottom in boxes["seats"]) < boxes["hand"][2] \
            and boxes["hand"][3] <= 844, (players, boxes)


def test_twins_bank_lies_on_the_felt_and_the_picks_beside_the_cash_card(tab: Tab) -> None:
    create_table(tab, "twins", 4, {"max_hands": "1"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#seats .felt.holds .tw2-bank")
    assert _between_seats(tab, ".tw2-bank")
    assert tab.page.locator("#board .tw2-reveals").count() == 1
    assert tab.page.locator("#board #cash-card").count() == 1
    play_to_results(tab, "twins")
    assert "Game over" in tab.page.locator("#seats .felt").inner_text()


def test_results_come_into_view_and_play_again_against_bots_starts_at_once(tab: Tab) -> None:
    create_table(tab, "timo", 3, {"target": "20"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    tab.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    play_to_results(tab, "timo")
    wait_in_view(tab, "#results")
    assert in_view(tab, "#results")
    before = tab.page.url
    finished_board = tab.page.query_selector("#board")
    tab.page.click("#play-again")
    tab.page.wait_for_function(f"() => location.href !== {json.dumps(before)}")
    rematch = tab.page.url.rsplit("/", 1)[1]
    # The finished table's page stays up while the rematch's loads, its board drawn: what
    # follows must be read off the rematch's page, once the old one is gone.
    tab.page.wait_for_function("board => !board.isConnected", arg=finished_board)
    tab.page.wait_for_selector("#board > *")
    assert info(tab, rematch)["status"] == "running"
    assert tab.page.locator("#start").count() == 0


def test_the_log_tells_each_line_once_keeps_no_old_banner_and_survives_a_reload(
        tab: Tab) -> None:
    create_table(tab, "timo", 3, {"target": "500"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    deadline = time.monotonic() + 60
    while len(log_lines(tab)) < 25 and not finished(tab):
        assert time.monotonic() < deadline, log_lines(tab)
        timo_move(tab)
        time.sleep(0.15)
        banner = tab.page.locator("#flash").inner_text().strip()
        if banner:
            # A banner is one of the last moves' lines, never one from long ago.
            recent = [re.sub(r"\s+", " ", line) for line in log_lines(tab)[:12]]
            assert any(re.sub(r"\s+", " ", banner) in line for line in recent), (banner, recent)
    texts = tab.page.locator("#log li").evaluate_all("(items) => items.map((i) => i.dataset.text)")
    assert all(a != b for a, b in pairwise(texts)), texts
    before = log_lines(tab)
    tab.page.reload()
    tab.page.wait_for_selector("#board > *")
    after = log_lines(tab)
    # The lines told before the reload are all still there, in order, none twice.
    assert len(after) >= len(before), (before, after)
    assert after[len(after) - len(before):][-10:] == before[-10:], (before, after)


@pytest.mark.parametrize("game", game_ids())
def test_every_table_fits_one_wide_screen_at_the_start(tab: Tab, game: str) -> None:
    """Seats, the board and its actions in one 1280 x 800 screen, without scrolling."""
    tab.page.set_viewport_size({"width": 1280, "height": 800})
    tab.go("/")
    tab.page.click(f"#play-{game}")
    skip_guided_offer(tab, game)  # the guided game offered on a first table
    tab.page.wait_for_selector("#board > *", timeout=30_000)
    tab.page.wait_for_timeout(800)
    boxes = tab.page.evaluate("""() => {
      const box = (e) => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; };
      const parts = [document.getElementById('seats'), ...document.querySelectorAll(
        '#board button:not([disabled]), #board input, #board .hand, .felt')];
      return { page: document.documentElement.scrollHeight,
        parts: parts.filter((e) => e && e.getClientRects().length).map(box) }; }""")
    assert boxes["page"] <= 800, boxes
    assert all(top >= 0 and bottom <= 800 for top, bottom in boxes["parts"]), boxes


# -- issue 24: each table fits one 1280 x 800 screen at every phase ------------------------
PHASE_BOXES = """async () => {
  // Measured once the page has settled after the last frame: Twin It fits its centre to
  // the room left after a frame is laid out (one frame later), as a person sees it.
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const shown = (e) => e && e.getClientRects().length
    && getComputedStyle(e).visibility !== 'hidden';
  const box = (e) => { const r = e.getBoundingClientRect();
    return [e.id || e.className || e.tagName, Math.round(r.top), Math.round(r.bottom),
      Math.round(r.left), Math.round(r.right)]; };
  const parts = [document.getElementById('seats'), document.querySelector('.felt'),
    ...document.querySelectorAll('#board .hand, #board button:not([disabled]), #board input,'
      + ' .round-summary')].filter(shown);
  // What makes the page as tall as it is, for a failure's message: the status line, the
  // flash, and each block of the page with its height.
  const blocks = [...document.querySelectorAll(
    'header, #status, .table-main > *, .table-side, main > *')].filter(shown)
    .map((e) => [e.id || e.className || e.tagName, Math.round(e.getBoundingClientRect().height)]);
  const text = (id) => document.getElementById(id)?.textContent;
  return { page: document.documentElement.scrollHeight, parts: parts.map(box), blocks,
    status: text('status'), flash: text('flash'),
    summary: shown(document.querySelector('.round-summary')),
    results: shown(document.getElementById('results')),
    round: Number((document.querySelector('.tm-round')?.textContent.match(/\\d+/) || [0])[0]) };
  }"""


@pytest.mark.parametrize(("game", "players", "options"), [
    ("timo", 5, {"target": "120"}), ("twinit", 5, {"sets_to_win": "4"})])
def test_each_table_fits_one_wide_screen_at_every_phase_and_shows_its_results(
        tab: Tab, game: str, players: int, options: dict[str, str]) -> None:
    """Seats, the felt, the hand, every action and a round's summary inside one
    1280 x 800 screen from the first move to the last, measured at each look; then the
    results come into view by themselves. (Twins has its own test, by phase.)"""
    tab.page.set_viewport_size({"width": 1280, "height": 800})
    create_table(tab, game, players, options)
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    progress = Progress(tab)
    looks = summaries = rounds = 0
    while not finished(tab):
        progress.check()
        boxes = tab.page.evaluate(PHASE_BOXES)
        if not boxes["results"]:
            looks += 1
            summaries += boxes["summary"]
            rounds = max(rounds, boxes["round"])
            tall = (f"page {boxes['page']}: {boxes['blocks']}, flash {boxes['flash']!r}, "
                    f"summary {boxes['summary']}, parts {boxes['parts']}")
            assert boxes["page"] <= 800, tall
            for name, top, bottom, left, right in boxes["parts"]:
                assert top >= 0 and bottom <= 800 and left >= 0 and right <= 1280, \
                    (name, boxes)
        MOVES[game](tab)
        time.sleep(0.12)
    assert looks >= 10, looks
    # A round that ended before the last one was summed up on screen, and measured.
    assert summaries or rounds <= 1, (rounds, summaries)
    wait_in_view(tab, "#results")
