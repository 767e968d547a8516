"""Issue #16: a finished game is finished by recovery, rated exactly once; options that do
not fit the player count are refused at creation, never at the start."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.client import (
    app_client,
    create_table,
    free_port,
    hello,
    play_to_end,
    running_server,
    start,
)
from tests.server.conftest import reset_postgres
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


def test_names_are_normalised_and_disguised_names_are_refused(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        for bad in ("Ann\u202egnp.exe", "\u200b\u200b", "A\x7fnn", "An\u0085n", "An\u2028n",
                    "\u2066Bo\u2069", "   ", "<b>"):
            response = client.post("/api/tables", json={
                "game": "timo", "players": 2, "display_name": bad})
            assert response.status_code == 422, (bad, response.text)
            assert response.json()["code"] == "request.invalid"
        decomposed = "Zoe\u0301"  # é as e + combining acute
        joined = create_table(client, "timo", 2, name=f"  {decomposed}  ")
        assert joined["table"]["seats"][0]["display_name"] == "Zo\u00e9"
        assert create_table(client, "timo", 2, name="지민 🂡")["table"]["id"]


def test_a_second_server_on_the_same_sqlite_file_is_refused(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    with running_server(db, free_port()) as first:
        second = subprocess.run(
            [sys.executable, "-m", "twintable.cli", "serve", "--port", str(free_port()),
             "--db", db], capture_output=True, text=True, timeout=60)
        assert second.returncode == 1
        message = " ".join(second.stdout.split())
        assert "in use by another Twin Table server" in message
        assert f"pid {first.pid}" in message
        assert "Traceback" not in second.stdout + second.stderr
    # Once the first has stopped, the file is free again.
    with running_server(db, free_port()):
        pass


def test_on_postgresql_a_table_is_run_by_the_server_holding_its_lease() -> None:
    """Two servers on one PostgreSQL database: the one that made a table runs it; after
    a restart of the other, that table is not replayed there (not in its memory)."""
    from tests.server.conftest import POSTGRES_URL, postgres_reachable, services_required

    if not postgres_reachable():
        if services_required():
            pytest.fail("PostgreSQL at 127.0.0.1:5432 is required but unreachable")
        pytest.skip("PostgreSQL at 127.0.0.1:5432 is unreachable")
    reset_postgres()
    with app_client(POSTGRES_URL) as owner:
        joined = create_table(owner, "timo", 2)
        table_id = joined["table"]["id"]
        start(owner, table_id, joined["token"])
        with app_client(POSTGRES_URL) as other:
            assert other.get("/readyz").json()["tables"] == 0
            with other.websocket_connect(f"/ws/tables/{table_id}") as ws:
                assert ws.receive_json()["code"] == "table.unknown"
        with owner.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, joined["token"])
            play_to_end(ws)
