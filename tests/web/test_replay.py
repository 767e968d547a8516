"""After a game: the replay (every hand, the table's own narration, autoplay, a link to a
move), Twin It's cards drawn plainly there, the leaderboard with the person's own row, and
a finished table's page after a server restart."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.server.client import free_port
from tests.web.conftest import Tab, serve_on
from tests.web.play import create_table, open_replay, play_to_results, seek

pytestmark = pytest.mark.browser


def texts(tab: Tab, selector: str) -> list[str]:
    return [re.sub(r"\s+", " ", text).strip()
            for text in tab.page.locator(selector).all_inner_texts()]


def move(tab: Tab) -> int:
    return int(tab.page.locator("#seek").input_value())


def test_the_replay_shows_every_hand_tells_the_tables_story_plays_and_shares(
        tab: Tab, second_tab: Tab) -> None:
    table_id = create_table(tab, "twins", 3, {"max_hands": "1"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    play_to_results(tab, "twins")
    told_at_the_table = texts(tab, "#log li")
    assert told_at_the_table
    open_replay(tab)
    assert tab.page.url.endswith(f"#/replay/{table_id}/0")

    # The deal: every seat's eight cards, though spectators saw none of them.
    hands = tab.page.locator("#replay-hands .replay-hand")
    assert hands.count() == 3
    for seat in range(3):
        assert hands.nth(seat).locator(".card").count() == 8
    assert "Ann" in hands.nth(0).inner_text()
    assert tab.page.locator("#board .hand").count() == 0

    # The last move: the log tells what the table told, in the same words, newest first.
    tab.page.click("#last")
    last = int(tab.page.locator("#seek").get_attribute("max") or 0)
    tab.page.wait_for_selector(f"#board[data-move='{last}']:not([aria-busy])")
    assert tab.page.url.endswith(f"/{last}")
    assert f"Move {last} of {last}" in tab.page.locator("#replay-step").inner_text()
    told_in_the_replay = texts(tab, "#replay-log li > span")
    assert told_in_the_replay[:len(told_at_the_table)] == told_at_the_table
    latest = texts(tab, "#replay-log li.latest > span")  # the last move's lines, on top
    assert latest and told_in_the_replay[:len(latest)] == latest

    # Step by event from the log, then play by itself at 4×, and pause.
    tab.page.locator("#replay-log li .replay-jump").last.click()
    assert move(tab) == 1 and tab.page.url.endswith(f"/{table_id}/1")
    tab.page.select_option("#speed", "4")
    tab.page.click("#play")
    assert tab.page.locator("#play").get_attribute("aria-pressed") == "true"
    tab.page.wait_for_function("Number(document.getElementById('seek').value) >= 4",
                               timeout=5000)
    tab.page.click("#play")
    assert tab.page.locator("#play").get_attribute("aria-pressed") == "false"
    paused = move(tab)
    tab.page.wait_for_timeout(800)
    assert move(tab) == paused
    assert tab.page.url.endswith(f"/{table_id}/{paused}")
    assert tab.page.locator("#replay-share").input_value().endswith(f"#/replay/{table_id}/{paused}")

    # The link opens the replay at that move for someone else (on a phone).
    second_tab.go(f"/#/replay/{table_id}/{paused}")
    second_tab.page.wait_for_selector("#seek")
    assert move(second_tab) == paused
    assert f"Move {paused} of {last}" in second_tab.page.locator("#replay-step").inner_text()
    assert second_tab.page.locator("#replay-hands .replay-hand").count() == 3
    width = second_tab.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390

    # The leaderboard: this game, explained, with Ann's own row marked.
    tab.go("/#/leaderboard/twins")
    tab.page.wait_for_selector("#leaderboard-explain")
    assert "μ − 3σ" in tab.page.locator("#leaderboard-explain").inner_text()
    assert tab.page.locator(".lb-games a[aria-current='page']").inner_text() == "Twins"
    mine = tab.page.locator("#leaderboard tr.lb-me")
    rated = tab.page.evaluate("""async (id) => {
      const answer = await fetch(`/api/tables/${id}`);
      const { result } = await answer.json();
      return result.winners.length < result.scores.length; }""", table_id)
    if not rated:  # everyone tied: nobody is rated (server/ratings.py), so no row
        assert mine.count() == 0
        return
    # The row names Ann and that it is hers; her short id only when another Ann is rated
    # (namesakes are told apart): earlier tests on this server may have made some.
    names = tab.page.evaluate("""() => [...document.querySelectorAll(
      '#leaderboard tbody tr:not(.lb-gap) td:nth-child(2)')].map((cell) => [...cell.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent)
      .join("").replace(/\\s*\\(.*\\)$/, "").trim())""")
    namesakes = names.count("Ann") > 1
    assert mine.count() == 1 and re.search(
        r"Ann #\w+ \(you\)" if namesakes else r"Ann \(you\)", mine.inner_text()), names
    # One rated game: a provisional rating, unranked, and the sentence says what it needs.
    assert mine.locator("td").first.inner_text() == "–"
    you = tab.page.locator("#leaderboard-you").inner_text()
    assert "still new after 1 game" in you and re.search(r"you would be number \d+\.", you), you


def test_twin_it_cards_are_drawn_plainly_in_the_replay(tab: Tab) -> None:
    create_table(tab, "twinit", 2, {"sets_to_win": "1"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    play_to_results(tab, "twinit")
    open_replay(tab)
    last = int(tab.page.locator("#seek").get_attribute("max") or 0)
    seek(tab, last // 2)
    board = tab.page.locator("#board")
    assert board.locator(".tw-card").count() > 0
    assert board.locator("button.tw-card, .tw-card[disabled]").count() == 0
    assert board.locator(".tw-card[role='img'][aria-label]").count() == \
        board.locator(".tw-card").count()
    # Not greyed out (once the cards that just moved have landed).
    tab.page.wait_for_timeout(1500)
    faded = tab.page.evaluate("""() => [...document.querySelectorAll('#board .tw-card')]
        .filter((card) => getComputedStyle(card).opacity !== '1'
          || getComputedStyle(card.closest('.ti-centre') || card).opacity !== '1')
        .map((card) => card.outerHTML.slice(0, 120))""")
    assert faded == []
    assert "Nothing was hidden" in tab.page.locator("#replay-hands").inner_text()


def test_a_finished_tables_page_still_shows_its_results_after_a_server_restart(
        browser: Any, tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "restart.sqlite3"

    def serve() -> subprocess.Popen[bytes]:
        return serve_on(port, db)

    server = serve()
    context = browser.new_context(bypass_csp=True)
    tab = Tab(context.new_page(), f"http://127.0.0.1:{port}")
    sockets: list[Any] = []
    try:
        table_id = create_table(tab, "twins", 3, {"max_hands": "1"})
        tab.page.click("#start")
        tab.page.wait_for_selector("#board > *")
        play_to_results(tab, "twins")
        results = tab.page.locator("#results .ranking").inner_text()
        server.terminate()
        server.wait(timeout=20)
        server = serve()
        tab.page.on("websocket", lambda socket: sockets.append(socket))
        tab.page.reload()
        tab.page.wait_for_selector("#results:not([hidden]) .ranking")
        assert tab.page.locator("#results .ranking").inner_text() == results
        # The server greets the finished table once and closes; the page stays as it is.
        tab.page.wait_for_timeout(3000)
        assert len(sockets) == 1, [s.url for s in sockets]
        assert sockets[0].url.endswith(f"/ws/tables/{table_id}") and sockets[0].is_closed()
        assert tab.page.locator("#status").inner_text() == ""
        assert tab.page.locator("#replay-link").is_visible()
    finally:
        context.close()
        server.terminate()
        server.wait(timeout=20)
    assert tab.errors == []


def test_a_private_tables_replay_is_shared_with_its_key_and_refused_without(
        tab: Tab, second_tab: Tab) -> None:
    table_id = create_table(tab, "twins", 3, {"max_hands": "1"}, private=True)
    key = tab.page.input_value("#invite").rsplit(".", 1)[1]
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    play_to_results(tab, "twins")
    open_replay(tab)
    tab.page.click("#last")
    shared = tab.page.locator("#replay-share").input_value()
    assert f"#/replay/{table_id}.{key}/" in shared
    # Someone without the key gets a sentence, not the game.
    second_tab.go(f"/#/replay/{table_id}/0")
    second_tab.page.wait_for_selector("main .error")
    assert "invite link" in second_tab.page.locator("main").inner_text()
    assert second_tab.page.locator("#seek").count() == 0
    refused = [e for e in second_tab.errors if "status of 403" in e]
    assert refused, "the refused request"
    second_tab.errors[:] = [e for e in second_tab.errors if e not in refused]
    # The shared link opens it, every hand included.
    second_tab.page.goto(shared)
    second_tab.page.wait_for_selector("#seek")
    assert second_tab.page.locator("#replay-hands .replay-hand").count() == 3
