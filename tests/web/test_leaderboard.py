"""The leaderboard in plain words: a provisional mark instead of an early negative number,
and people of the same name told apart (issue 24). The rows are the server's shape,
answered by the page's route so that the test needs no rated games."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.conftest import Tab
from twintable.server.app import WEB
from twintable.server.ratings import RANKED_AFTER_GAMES, RANKED_AFTER_OPPONENTS

pytestmark = pytest.mark.browser


def row(player_id: str, name: str, rating: float, games: int, rank: int,
        opponents: int = 3) -> dict[str, Any]:
    return {"player_id": player_id, "display_name": name, "rating": rating, "mu": 25.0,
            "sigma": 8.0, "games": games, "rank": rank, "opponents": opponents,
            "ranked": games >= RANKED_AFTER_GAMES and opponents >= RANKED_AFTER_OPPONENTS}


ROWS = [row("p-7a1c", "Pia", 11.5, 12, 1), row("p-93be", "Pia", 4.2, 6, 2),
        row("p-0d44", "Ravi", 1.0, 5, 3), row("p-51f0", "Pia", -2.8, 1, 4, opponents=1)]


def test_new_ratings_are_marked_and_namesakes_told_apart(tab: Tab) -> None:
    tab.page.route("**/api/leaderboard/**", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(ROWS)))
    tab.go("/#/leaderboard/twins")
    tab.page.wait_for_selector("#leaderboard tbody tr")
    cells = tab.page.locator("#leaderboard tbody tr").evaluate_all(
        "(rows) => rows.map((r) => [...r.cells].map((c) => c.innerText.trim()))")
    ratings = [cell[2] for cell in cells]
    # Ranked: the number; provisional (the server says so): "new", never a negative
    # number.
    assert ratings == ["11.5", "4.2", "1.0", "new"], ratings
    names = [cell[1] for cell in cells]
    pias = [name for name in names if "Pia" in name]
    assert len(set(pias)) == 3, names  # each Pia with her own short id
    assert "#" not in names[2], names  # Ravi's name is his alone
    colours = tab.page.locator("#leaderboard .lb-avatar").evaluate_all(
        "(spans) => spans.map((s) => getComputedStyle(s).backgroundColor)")
    assert len(set(colours[:2] + colours[3:])) >= 2, colours
    explain = tab.page.locator("#leaderboard-explain").inner_text()
    assert "new" in explain and "μ − 3σ" in explain
    assert "different opponents" in explain and "most of your own moves" in explain


def test_my_provisional_rating_says_what_it_still_needs(tab: Tab) -> None:
    """Twenty games against the same friend: the rating stays provisional, and its owner
    reads why (the farming case of issue 38)."""
    mine = row("p-5eed", "Sam", 18.0, 20, 1, opponents=1)
    tab.page.route("**/api/leaderboard/**", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps([*ROWS[:2], mine])))
    tab.page.add_init_script("localStorage.setItem('tt.player', 'p-5eed')")
    tab.go("/#/leaderboard/timo")
    tab.page.wait_for_selector("#leaderboard tbody tr.lb-me")
    you = tab.page.locator("#leaderboard-you").inner_text()
    assert "still new after 20 games" in you and "different opponents met: 1" in you, you
    assert f"after {RANKED_AFTER_GAMES} games against {RANKED_AFTER_OPPONENTS}" in you, you
    assert tab.page.locator("#leaderboard tr.lb-me td").nth(2).inner_text() == "new"
    assert tab.page.locator("#leaderboard tr.lb-me td").nth(0).inner_text() == "–"
    assert not tab.errors, tab.errors


def test_the_page_and_the_server_ask_the_same_of_a_ranked_rating() -> None:
    page = (WEB / "pages" / "leaderboard.js").read_text()
    assert f"PROVISIONAL_GAMES = {RANKED_AFTER_GAMES};" in page
    assert f"PROVISIONAL_OPPONENTS = {RANKED_AFTER_OPPONENTS};" in page


def rating(bot: str, level: str, ordinal: float, share: float) -> dict[str, Any]:
    return {"bot": bot, "level": level, "mu": ordinal + 5, "sigma": 1.7, "ordinal": ordinal,
            "games": 40, "win_share": share, "win_share_interval": [share - 0.1, share + 0.1]}


LADDER = {"note": "a test ladder",
          "timo-2p": {"game": "timo", "players": 2, "options": {}, "games_per_pairing": 20,
                      "seed": 1, "ratings": [rating("search", "hard", 30.5, 0.75),
                                             rating("greedy", "easy", 12.0, 0.4),
                                             rating("random", "beginner", -7.2, 0.02)]},
          "twins-4p": {"game": "twins", "players": 4, "options": {}, "games_per_pairing": 20,
                       "seed": 1, "ratings": [rating("strong", "hard", 50.0, 0.9),
                                              rating("random", "beginner", -3.0, 0.1)]}}


def game_ladder(route: Any) -> None:
    """Each game's own ladder file (``/api/games`` names it), from :data:`LADDER`; Twin
    It's holds none."""
    game = route.request.url.rstrip("/").split("/")[-2]
    ladders = {name: ladder for name, ladder in LADDER.items()
               if isinstance(ladder, dict) and ladder["game"] == game}
    route.fulfill(status=200, content_type="application/json",
                  body=json.dumps({"note": LADDER["note"], **ladders}))


def test_the_bots_tab_shows_the_ladder_by_level_and_what_each_bot_is(tab: Tab) -> None:
    tab.page.route("**/games/*/ladder.json", game_ladder)
    tab.page.route("**/api/leaderboard/**", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(ROWS)))
    tab.go("/#/leaderboard/timo")
    tab.page.wait_for_selector("#leaderboard tbody tr")
    tab.page.click("#leaderboard-tab-bots")
    tab.page.wait_for_selector("#ladder-timo-2 tbody tr")
    assert tab.page.get_attribute("#leaderboard-tab-bots", "aria-current") == "page"
    assert tab.page.locator("#ladder-timo-2 caption").inner_text() == "Timo's Twist, 2 players"
    cells = tab.page.locator("#ladder-timo-2 tbody tr").evaluate_all(
        "(rows) => rows.map((r) => [...r.cells].map((c) => c.innerText.trim()))")
    assert [row[0] for row in cells] == ["1", "2", "3"]
    # Levels on the shared scale, then what the bot is; never a class name.
    assert cells[0][1].startswith("Hard ") and "round" in cells[0][1], cells
    assert cells[1][1].startswith("Easy ") and "first card" in cells[1][1], cells
    assert cells[2][1].startswith("Beginner ") and "random" in cells[2][1], cells
    assert [row[2] for row in cells] == ["30.5", "12.0", "-7.2"]
    assert cells[0][4] == "75.0% (65.0%–85.0%)", cells
    assert "20 games per pair of bots" in tab.page.locator("main").inner_text()
    # Another game's ladder, in French: the strings are translated too.
    tab.page.click("a[href='#/leaderboard/twins/bots']")
    tab.page.wait_for_selector("#ladder-twins-4 tbody tr")
    tab.page.select_option("#language", "fr")
    tab.page.wait_for_selector("#ladder-twins-4 caption:has-text('4 joueurs')")
    text = tab.page.locator("#ladder-twins-4").inner_text()
    assert "Difficile" in text or "difficile" in text.lower(), text
    # A game without a ladder says so.
    tab.go("/#/leaderboard/twinit/bots")
    tab.page.wait_for_selector("#ladder-none")


def test_each_games_ladder_is_served_where_api_games_says(tab: Tab) -> None:
    tab.go("/")
    games = tab.page.request.get(tab.base + "/api/games").json()
    ladders: dict[str, Any] = {}
    for game in games:
        if game["web"] and game["web"]["ladder"]:
            answer = tab.page.request.get(tab.base + game["web"]["ladder"])
            assert answer.ok, game["id"]
            ladders.update({name: ladder for name, ladder in answer.json().items()
                            if name != "note"})
    assert {"timo-2p", "timo-4p", "twins-4p", "twinit-2p"} <= set(ladders)
    for ladder in ladders.values():
        assert all(row["level"] for row in ladder["ratings"])
