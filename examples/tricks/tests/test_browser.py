"""Twin Tricks in a real Twin Table: a `twintable serve` on loopback finds the installed
package through its entry point, lists it in the lobby and serves its client, and a
person plays a whole game in Chromium against its bot, then watches the replay; axe-core
finds no serious or critical accessibility problem on the way.

Without Chromium (or Playwright) the browser test skips, except when
TWINTABLE_REQUIRE_SERVICES=1, where it fails, as Twin Table's own browser tests do.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
#: One decision's read of the page: the legal cards in the hand, or none (read once, so
#: the hand cannot change between two reads while the bot plays).
LEGAL_CARDS = """() => [...document.querySelectorAll('.hand button.card.legal:not([disabled])')]
  .map((b) => Number(b.dataset.card))"""
LOG_TEXT = "() => document.getElementById('log')?.textContent ?? ''"
SERIOUS = ("serious", "critical")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.load(answer)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    db = tmp_path_factory.mktemp("tricks") / "twintable.sqlite3"
    log = db.with_suffix(".log")  # a file: an undrained pipe blocks the server when full
    process = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db",
         f"sqlite:///{db}", "--bot-delay-ms", "40", "--log-level", "warning"],
        stdout=subprocess.DEVNULL, stderr=log.open("ab"))
    url = f"http://127.0.0.1:{port}"
    # Until it answers, however long a loaded machine takes (a fixed number of tries
    # handed the tests a server not yet listening), failing as soon as it exits.
    deadline = time.monotonic() + 90
    while True:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1):
                break
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(log.read_text(errors="replace")[-2000:]) from None
            if time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("the server did not answer in 90 s") from None
            time.sleep(0.1)
    yield url
    process.terminate()
    process.wait(timeout=15)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    required = os.environ.get("TWINTABLE_REQUIRE_SERVICES") == "1"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if required:
            raise
        pytest.skip("Playwright is not installed")
    if not Path(CHROMIUM).exists():
        if required:
            pytest.fail("Chromium is missing: apt-get install -y chromium")
        pytest.skip("Debian's Chromium is not installed")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def axe() -> Any:
    try:
        from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
    except ImportError:
        if os.environ.get("TWINTABLE_REQUIRE_SERVICES") == "1":
            raise
        pytest.skip("axe-playwright-python is not installed")
    return Axe()


def serious(axe: Any, page: Any, where: str) -> list[str]:
    """axe-core's serious and critical violations on the page, once its animations end,
    read with reduced motion asked for: a move landing during the check then lands at
    once, never caught half-faded in."""
    page.emulate_media(reduced_motion="reduce")
    page.evaluate("""() => Promise.all(document.getAnimations()
        .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => null)))""")
    try:
        found = axe.run(page).response["violations"]
    finally:
        page.emulate_media(reduced_motion="no-preference")
    return [f"{where}: {v['id']} ({v['impact']}) {v['help']}: "
            f"{[node['target'] for node in v['nodes'][:4]]}"
            for v in found if v["impact"] in SERIOUS]


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """A page that must end without console errors or uncaught exceptions. Tests poll
    with string predicates, which the server's Content-Security-Policy forbids: bypassed."""
    context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    opened.on("pageerror", lambda e: errors.append(str(e)))
    opened.set_default_timeout(15_000)
    yield opened
    context.close()
    assert errors == []


def test_the_server_lists_the_game_and_serves_its_client_and_rules(server: str) -> None:
    listed = {game["id"]: game for game in get_json(f"{server}/api/games")}
    tricks = listed["tricks"]
    assert (tricks["min_players"], tricks["max_players"]) == (2, 4)
    assert tricks["default_bot"] == "heuristic"
    assert {"bot": "heuristic", "level": "medium"} in tricks["levels"]
    # Under the install's version (server/assets.py), where the browser keeps it a year.
    assert re.fullmatch(r"/static/v[0-9a-f]{12}/games/tricks/index\.js", tricks["web"]["module"])
    assert sorted(tricks["rules_languages"]) == ["en", "fr", "ko", "nl"]
    with urllib.request.urlopen(f"{server}{tricks['web']['module']}", timeout=10) as module:
        assert b"export default" in module.read()
    french = get_json(f"{server}/api/games/tricks/rules?lang=fr")
    assert french["lang"] == "fr" and french["sections"][0]["title"] == "En bref"


@pytest.mark.browser
def test_a_person_plays_a_whole_game_against_the_bot_and_replays_it(page: Any, server: str,
                                                                     axe: Any) -> None:
    problems: list[str] = []
    page.goto(f"{server}/")
    card = page.locator('.lb-game[data-game="tricks"]')
    card.wait_for()
    assert "Twin Tricks" in card.inner_text()

    page.fill("#name", "Ann")
    page.select_option("#game", "tricks")
    page.fill("#players", "2")
    page.fill("#opt-target", "4")
    page.click("#create")
    page.wait_for_selector("#start:not([disabled])")
    page.click("#start")
    page.wait_for_selector("#board > *")
    table_id = page.url.rsplit("/", 1)[1]

    page.wait_for_selector(".hand button.card")
    problems += serious(axe, page, "the table in play")
    played = 0
    log, moved, started = "", time.monotonic(), time.monotonic()
    while not page.locator("#results:not([hidden])").count():
        now = time.monotonic()
        if (seen := str(page.evaluate(LOG_TEXT))) != log:
            log, moved = seen, now
        assert now - moved < 45, f"the table stood still: {log[:300]!r}"
        assert now - started < 300, "the game did not reach its results"
        legal = page.evaluate(LEGAL_CARDS)
        if legal:
            # The bot may move the table on first: then look again.
            with contextlib.suppress(Exception):
                page.click(f'.hand button.card[data-card="{legal[0]}"]', timeout=1000)
        page.wait_for_timeout(120)
    # The person's moves as the server recorded them (a click that timed out on a loaded
    # machine may still have landed: counting clicks here missed one).
    moves = get_json(f"{server}/api/tables/{table_id}/replay")["actions"]
    played = sum(1 for move in moves if move["seat"] == 0)
    assert played >= 5  # at least a whole hand of the person's own cards

    result = get_json(f"{server}/api/tables/{table_id}")["result"]
    assert max(result["scores"]) >= 4
    assert page.locator("#results .ranking tr").count() == 3  # the head and two players
    # The board, and its centre, which a wide screen lays on the felt between the seats.
    assert "Game over" in "\n".join(page.locator("#board, .felt.holds").all_inner_texts())
    assert page.locator(".hand button.card").count() == 0
    assert "takes the trick" in page.locator("#log").inner_text()
    problems += serious(axe, page, "the results")

    page.click("#replay-link")
    page.wait_for_selector("#seek")
    hands = page.locator("#replay-hands .replay-hand")
    assert hands.count() == 2
    assert [hands.nth(seat).locator(".card").count() for seat in range(2)] == [5, 5]
    page.click("#last")
    assert "takes the trick" in page.locator("#replay-log").inner_text()
    problems += serious(axe, page, "the replay")
    page.goto(f"{server}/#/rules/tricks")
    page.wait_for_selector(".rules-card .card")
    problems += serious(axe, page, "the rules")
    assert problems == []
