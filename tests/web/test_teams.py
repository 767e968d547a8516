"""Team tables of Timo's Twist and Twins in the browser (issue 41): the lobby offers the
``teams`` option as a menu (none, alternate seats, a team typed for each seat), the seats
wear their team, and the end of the game names the winning team and ranks the teams.

With TWINTABLE_SCREENSHOTS=<folder> the tests also leave their end screens there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.web.conftest import Tab
from tests.web.play import create_table, play_to_results

pytestmark = pytest.mark.browser


def snap(tab: Tab, name: str) -> None:
    folder = os.environ.get("TWINTABLE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        tab.page.screenshot(path=str(Path(folder) / f"{name}.png"))


def start(tab: Tab) -> None:
    tab.page.wait_for_selector("#start:not([disabled])")
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")


def ranking_rows(tab: Tab) -> list[list[str]]:
    return [row.split("\t") for row in tab.page.locator("#results table.ranking tr")
            .all_inner_texts()]


def test_the_lobby_offers_teams_as_a_menu_and_refuses_a_team_of_one(tab: Tab) -> None:
    tab.go("/")
    tab.page.select_option("#game", "timo")
    tab.page.fill("#players", "4")
    field = tab.page.locator('[data-option-field="teams"]')
    assert "Teams" in field.inner_text()
    assert field.locator("option").all_inner_texts() == [
        "none", "Alternate seats", "A team for each seat…"]
    assert field.locator(".lb-typed").is_hidden()
    tab.page.select_option("#opt-teams", "typed")
    field.locator(".lb-typed").fill("1, 2, 2, 2")
    tab.page.fill("#name", "Ann")
    tab.page.click("#create")
    # The server refuses it (teams.invalid); the lobby says what teams may be.
    tab.page.wait_for_function("() => /at least 2 players in each team/"
                               ".test(document.body.innerText)")
    assert "#/table/" not in tab.page.url
    # The browser reports the refused request on its console: this one was expected.
    refused = [e for e in tab.errors if "status of 422" in e]
    assert len(refused) == 1
    tab.errors[:] = [e for e in tab.errors if e not in refused]


def test_a_timo_team_game_ends_with_the_teams_ranked(tab: Tab) -> None:
    tab.page.set_viewport_size({"width": 1280, "height": 800})
    create_table(tab, "timo", 4, {"teams": "alternate", "target": "20"})
    start(tab)
    tags = tab.page.locator("#board .tm-team, .seat .tm-team").all_inner_texts()
    assert sorted(tags) == ["Team 1", "Team 1", "Team 2", "Team 2"], tags
    play_to_results(tab, "timo")
    tab.page.wait_for_timeout(600)
    snap(tab, "timo-teams-1280x800")
    rows = ranking_rows(tab)
    assert rows[0][1] == "Team"
    teams = [row[1].split(" · ")[0] for row in rows[1:]]
    assert teams in (["Team 1", "Team 1", "Team 2", "Team 2"],
                     ["Team 2", "Team 2", "Team 1", "Team 1"]), rows
    assert [row[0] for row in rows[1:]] == ["1", "1", "2", "2"], rows
    headline = tab.page.locator("#results .headline").inner_text()
    won_by_me = teams[0] == "Team 1"  # Ann sits in seat 1, on team 1
    assert headline == "Your team wins!" if won_by_me else headline.endswith("win!"), headline
    assert tab.page.locator(".tm-won").count() == 2
    tab.page.set_viewport_size({"width": 390, "height": 844})
    tab.page.wait_for_timeout(400)
    snap(tab, "timo-teams-390x844")


def test_a_twins_team_game_typed_seat_by_seat_ends_with_the_teams_ranked(tab: Tab) -> None:
    tab.page.set_viewport_size({"width": 390, "height": 844})
    create_table(tab, "twins", 4, {"max_hands": "1", "teams": "1, 1, 2, 2"})
    start(tab)
    play_to_results(tab, "twins")
    tab.page.wait_for_timeout(600)
    snap(tab, "twins-teams-390x844")
    rows = ranking_rows(tab)
    totals = {row[1].split(" · ")[0]: int(row[1].split(" · ")[1]) for row in rows[1:]}
    assert set(totals) == {"Team 1", "Team 2"}
    best = max(totals.values())
    winners = [row for row in rows[1:] if row[1].split(" · ")[0] in
               {team for team, total in totals.items() if total == best}]
    assert all(row[0] == "1" for row in winners), rows
    tab.page.set_viewport_size({"width": 1280, "height": 800})
    tab.page.wait_for_timeout(400)
    snap(tab, "twins-teams-1280x800")
