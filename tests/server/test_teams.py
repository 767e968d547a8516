"""Team tables of Timo's Twist and Twins through the server: teams that do not fit are
refused when the table is made, and a finished table's result ranks the teams."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.client import app_client, create_table, hello, play_to_end, start


def test_teams_that_do_not_fit_the_seats_are_refused_with_their_code(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        response = client.post("/api/tables", json={
            "game": "timo", "players": 3, "display_name": "Ann",
            "options": {"teams": "alternate"}})
        assert response.status_code == 422, response.text
        assert response.json()["code"] == "teams.invalid"
        assert "even number" in response.json()["message"]


@pytest.mark.parametrize("game_id,options", [
    ("timo", {"teams": "alternate", "target": 40}),
    ("twins", {"teams": [1, 1, 2, 2], "max_hands": 2}),
])
def test_a_team_table_plays_to_the_end_and_its_result_ranks_the_teams(
        sqlite_url: str, game_id: str, options: dict[str, Any]) -> None:
    with app_client(sqlite_url, realtime_bot_pace=0.05) as client:
        joined = create_table(client, game_id, 4, options)
        table_id, token = joined["table"]["id"], joined["token"]
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as player:
            hello(player, token)
            play_to_end(player)
        result = client.get(f"/api/tables/{table_id}").json()["result"]
    teams, totals = result["teams"], result["team_scores"]
    assert len(teams) == 4 and len(totals) == 2
    best = max(totals)
    assert result["winners"] == [seat for seat in range(4) if totals[teams[seat]] == best]
    if game_id == "timo":
        assert teams == [0, 1, 0, 1]
        assert result["scores"] == [totals[0], totals[1], totals[0], totals[1]]
        assert best >= 40
    else:
        assert teams == [0, 0, 1, 1]
        assert totals == [result["scores"][0] + result["scores"][1],
                          result["scores"][2] + result["scores"][3]]
