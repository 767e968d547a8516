"""The leaderboard in plain words: a provisional mark instead of an early negative number,
and people of the same name told apart (issue 24). The rows are the server's shape,
answered by the page's route so that the test needs no rated games."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.conftest import Tab

pytestmark = pytest.mark.browser


def row(player_id: str, name: str, rating: float, games: int, rank: int) -> dict[str, Any]:
    return {"player_id": player_id, "display_name": name, "rating": rating, "mu": 25.0,
            "sigma": 8.0, "games": games, "rank": rank}


ROWS = [row("p-7a1c", "Pia", 11.5, 12, 1), row("p-93be", "Pia", 4.2, 6, 2),
        row("p-0d44", "Ravi", 1.0, 5, 3), row("p-51f0", "Pia", -2.8, 1, 4)]


def test_new_ratings_are_marked_and_namesakes_told_apart(tab: Tab) -> None:
    tab.page.route("**/api/leaderboard/**", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(ROWS)))
    tab.go("/#/leaderboard/twins")
    tab.page.wait_for_selector("#leaderboard tbody tr")
    cells = tab.page.locator("#leaderboard tbody tr").evaluate_all(
        "(rows) => rows.map((r) => [...r.cells].map((c) => c.innerText.trim()))")
    ratings = [cell[2] for cell in cells]
    # Five rated games or more: the number; fewer: "new", never a negative number.
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
