"""Issue #16: a finished game is finished by recovery, rated exactly once; options that do
not fit the player count are refused at creation, never at the start."""

from __future__ import annotations

import asyncio

from tests.server.client import app_client, create_table, hello, play_to_end, start
from twintable.server.storage.store import Store


def _sql(db_url: str, statement: str) -> list[tuple[object, ...]]:
    async def run() -> list[tuple[object, ...]]:
        store = Store(db_url)
        async with store.engine.begin() as connection:
            result = await connection.exec_driver_sql(statement)
            rows = [tuple(row) for row in result.all()] if result.returns_rows else []
        await store.close()
        return rows

    return asyncio.run(run())


def test_recovery_finishes_a_game_whose_last_move_was_logged_and_rates_it_once(
        db_url: str) -> None:
    with app_client(db_url) as client:
        joined = create_table(client, "timo", 2, {"target": 20}, player_id="ann-player-1")
        table_id, token = joined["table"]["id"], joined["token"]
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            play_to_end(ws)
        finished = client.get(f"/api/tables/{table_id}").json()
    # The server died after the final move was committed, before the game was marked over.
    _sql(db_url, f"UPDATE tables SET status = 'running', result = NULL WHERE id = '{table_id}'")
    _sql(db_url, "DELETE FROM ratings")
    for _ in range(2):  # a second restart must not rate the game again
        with app_client(db_url) as client:
            info = client.get(f"/api/tables/{table_id}").json()
            assert info["status"] == "finished"
            assert info["result"]["scores"] == finished["result"]["scores"]
            assert client.get(f"/api/tables/{table_id}/replay").status_code == 200
            board = client.get("/api/leaderboard/timo").json()
            assert [row["games"] for row in board] == [1]


def test_options_that_do_not_fit_the_player_count_are_refused_at_creation(
        sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        response = client.post("/api/tables", json={
            "game": "twinit", "players": 3, "display_name": "Ann",
            "options": {"taboo": [7]}})
        assert response.status_code == 422, response.text
        assert response.json()["type"] == "error"
        assert response.json()["code"] != "request.invalid" or "taboo" in response.text
