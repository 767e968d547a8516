"""axe-core on every page a person meets: the lobby, each game's table (waiting, in play,
results), the rules, the replay and the leaderboard, on a desktop and on a phone. No
serious or critical violation may stand.

axe-core comes with axe-playwright-python (the [test] extra); the test pages bypass the
server's Content-Security-Policy, which would refuse the injected script."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Tab
from tests.web.play import create_table, join_as, open_replay, play_to_results, seek
from tests.web.test_table_twinz import autoplay, seat_people

pytestmark = pytest.mark.browser

try:
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
except ImportError:  # the [test] extra installs it
    Axe = None

SERIOUS = ("serious", "critical")
GAMES = [("timo", 3, {"target": "30"}), ("twins", 3, {"max_hands": "1"}),
         ("twinit", 3, {"sets_to_win": "2"}), ("twinz", 4, {"countdown_s": "1"})]


@pytest.fixture(scope="module")
def axe() -> Any:
    if Axe is None:
        if os.environ.get("TWINTABLE_REQUIRE_SERVICES") == "1":
            pytest.fail("axe-playwright-python is missing (pip install -e '.[test]')")
        pytest.skip("axe-playwright-python is not installed (pip install -e '.[test]')")
    return Axe()


def serious(axe: Any, tab: Tab, where: str) -> list[str]:
    """The serious and critical violations on the page once it is still (a card caught
    half-faded in an animation is not a contrast problem), one line each.

    A live table does not stay still while axe reads it: a bot's move may land during
    the check and pop a new element in, fading from transparent (a Twinz guess's "…" failed
    colour contrast so, beside stress-ng). So the check reads the page as a person who asks
    for reduced motion sees it, where every move lands at once (each game's CSS honours
    the setting), after the animations already running have ended."""
    tab.page.emulate_media(reduced_motion="reduce")
    tab.page.evaluate("""() => Promise.all(document.getAnimations()
        .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => null)))""")
    try:
        found = axe.run(tab.page).response["violations"]
    finally:
        tab.page.emulate_media(reduced_motion="no-preference")
    return [f"{where}: {v['id']} ({v['impact']}) {v['help']}: "
            f"{[node['target'] for node in v['nodes'][:4]]}"
            for v in found if v["impact"] in SERIOUS]


def test_the_lobby_rules_and_leaderboard(axe: Any, tab: Tab, second_tab: Tab) -> None:
    problems = []
    for each in (tab, second_tab):
        for path, ready in (("/", "#create"), ("/#/rules", "main li"),
                            ("/#/rules/timo", ".rules .card"), ("/#/rules/twins", ".rules .card"),
                            ("/#/rules/twinit", ".rules h2"), ("/#/rules/twinz", ".rules h2"),
                            ("/#/leaderboard", "#leaderboard-explain"),
                            ("/#/leaderboard/twinz", "#leaderboard-explain"),
                            ("/#/profile", "#profile-link")):
            each.go(path)
            each.page.wait_for_selector(ready)
            problems += serious(axe, each, f"{each.page.viewport_size['width']} px {path}")
    assert problems == []


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_each_games_table(axe: Any, tab: Tab, second_tab: Tab, game: str, players: int,
                          options: dict[str, str]) -> None:
    table_id = create_table(tab, game, players, options)
    problems = serious(axe, tab, "waiting")
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    tab.page.wait_for_timeout(1500)  # a few moves in
    problems += serious(axe, tab, "playing")
    second_tab.go(f"/#/table/{table_id}")  # a spectator on a phone
    second_tab.page.wait_for_selector("#board > *")
    problems += serious(axe, second_tab, "watching on a phone")
    assert problems == []


def test_a_twinz_card_with_no_clue_on_it(axe: Any, tab: Tab, second_tab: Tab) -> None:
    """A duo member who gave no clue: their card turns over showing so, on the felt and on
    a phone (the table test above sees one only when a bot happens to be silent)."""
    table_id, remotes = seat_people(tab, 2, {"countdown_s": 1, "grace_ms": 200,
                                             "guess_timeout_s": 60},
                                    {0: autoplay("dee", clue=False), 1: autoplay("eve"),
                                     3: autoplay("fay")})
    try:
        tab.page.locator(".tz-card .tz-none").wait_for(timeout=20_000)
        problems = serious(axe, tab, "the felt")
        second_tab.go(f"/#/table/{table_id}")
        second_tab.page.locator(".tz-card .tz-none").wait_for()
        problems += serious(axe, second_tab, "watching on a phone")
    finally:
        for remote in remotes.values():
            remote.close()
    assert problems == []

@pytest.mark.parametrize(("game", "players", "options"),
                         [("timo", 2, {"target": "1"}), ("twins", 3, {"max_hands": "1"}),
                          ("twinit", 2, {"sets_to_win": "1"})],
                         ids=["timo", "twins", "twinit"])
def test_the_results_and_the_replay(axe: Any, tab: Tab, second_tab: Tab, game: str,
                                    players: int, options: dict[str, str]) -> None:
    table_id = create_table(tab, game, players, options)
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    play_to_results(tab, game)
    problems = serious(axe, tab, "results")
    open_replay(tab)
    last = int(tab.page.locator("#seek").get_attribute("max") or 0)
    for step in (0, last // 2, last):
        seek(tab, step)
        problems += serious(axe, tab, f"replay, move {step}")
    second_tab.go(f"/#/replay/{table_id}/{last // 2}")
    second_tab.page.wait_for_selector("#seek")
    problems += serious(axe, second_tab, "replay on a phone")
    assert problems == []


FACES = (Path(__file__).parent / "card_faces.js").read_text(encoding="utf-8")
NUMBERS = """() => [...document.querySelectorAll('.card .val')].filter((e) => e.clientWidth)
  .map((e) => { const s = getComputedStyle(e);
    return [e.closest('.card').getAttribute('aria-label') || e.textContent, s.color,
            getComputedStyle(e.closest('.card')).backgroundColor, parseFloat(s.fontSize),
            parseInt(s.fontWeight, 10)]; })"""


def luminance(rgb: str) -> float:
    channels = [int(part) / 255 for part in rgb[rgb.index("(") + 1:-1].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_card_number_is_legible_on_its_colour(tab: Tab, second_tab: Tab) -> None:
    """Every Timo and Twins face, large in a hand and small in a played round, on a
    desktop and a phone: each number meets WCAG's contrast on its card's colour without
    counting its shadow (a game shows only some faces, so the table tests depend on the
    deal; axe there once caught Twins' white ink on yellow)."""
    problems = []
    for each, phone in ((tab, False), (second_tab, True)):
        each.go("/")
        each.page.wait_for_selector("#create")
        found = each.page.evaluate(FACES, [phone])
        assert found["faces"] >= 54 + 60, found
        numbers = each.page.evaluate(NUMBERS)
        assert len(numbers) >= 60
        for label, ink, colour, size, weight in numbers:
            large = size >= 24 or (size >= 18.66 and weight >= 700)
            ratio = contrast(ink, colour)
            if ratio < (3 if large else 4.5):
                problems.append(f"{label} at {size:.1f}px: {ratio:.2f}")
    assert problems == []


def test_a_seat_whose_person_is_away(axe: Any, tab: Tab, second_tab: Tab) -> None:
    """Bea joins, then closes her page: her seat reads "away" on Ann's screen, at full
    contrast (the whole seat at 72% opacity put that badge at 3.4:1; seen only when a
    loaded machine caught Ann's own seat before her socket was up)."""
    table_id = create_table(tab, "timo", 2, {}, open_seats=(1,))
    join_as(second_tab, table_id, "Bea")
    tab.page.locator('.seat[data-seat="1"]', has_text="Bea").wait_for()
    second_tab.go("/#/leaderboard")
    tab.page.locator('.seat.is-away[data-seat="1"] .badge.away').wait_for()
    assert serious(axe, tab, "a seat away") == []
