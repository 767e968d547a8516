"""Issue #16: a finished game is finished by recovery, rated exactly once; options that do
not fit the player count are refused at creation, never at the start."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

from tests.server.client import (
    app_client,
    auth,
    create_table,
    free_port,
    hello,
    play_to_end,
    profile,
    running_server,
    start,
)
from tests.server.conftest import fresh_postgres, require_postgres
from twintable.server.presence import Connection
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
        ann = profile(client)
        joined = create_table(client, "timo", 2, {"target": 20}, identity=ann)
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
            # One game: a provisional rating, which its owner sees.
            board = client.get(f"/api/leaderboard/timo?player={ann['player_id']}").json()
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


def test_another_path_to_the_sqlite_file_is_refused_too(tmp_path: Path) -> None:
    """The lock holds on the file, not on a name: a hard link (in another directory) and
    a symbolic link to the running server's database are the same database."""
    database = tmp_path / "shared.sqlite3"
    with running_server(f"sqlite:///{database}", free_port()) as first:
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        (elsewhere / "hard.sqlite3").hardlink_to(database)
        (elsewhere / "soft.sqlite3").symlink_to(database)
        for other in ("hard.sqlite3", "soft.sqlite3"):
            second = subprocess.run(
                [sys.executable, "-m", "twintable.cli", "serve", "--port", str(free_port()),
                 "--db", f"sqlite:///{elsewhere / other}"],
                capture_output=True, text=True, timeout=60)
            message = " ".join(second.stdout.split())
            assert second.returncode == 1, (other, message)
            assert "in use by another Twin Table server" in message, (other, message)
            assert "Traceback" not in second.stdout + second.stderr
        assert first.poll() is None
    # Once the first has stopped, either name opens it.
    with running_server(f"sqlite:///{elsewhere / 'hard.sqlite3'}", free_port()):
        pass


def test_on_postgresql_a_table_is_run_by_the_server_holding_its_lease() -> None:
    """Two servers on one PostgreSQL database: the one that made a table runs it; after
    a restart of the other, that table is not replayed there (not in its memory)."""
    require_postgres()
    with fresh_postgres() as url, app_client(url) as owner:
        joined = create_table(owner, "timo", 2)
        table_id = joined["table"]["id"]
        start(owner, table_id, joined["token"])
        with app_client(url) as other:
            assert other.get("/readyz").json()["tables"] == 0
            with other.websocket_connect(f"/ws/tables/{table_id}") as ws:
                assert ws.receive_json()["code"] == "table.unknown"
        with owner.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, joined["token"])
            play_to_end(ws)


def test_one_client_cannot_fill_the_server_with_tables(sqlite_url: str) -> None:
    with app_client(sqlite_url, max_open_tables_per_client=3) as client:
        for _ in range(3):
            create_table(client, "timo", 2)
        refused = client.post("/api/tables", json={"game": "timo", "players": 2,
                                                   "display_name": "Ann"})
        assert refused.status_code == 429 and refused.json()["code"] == "tables.too_many"
    with app_client(sqlite_url, max_tables=3) as client:  # the three are recovered
        refused = client.post("/api/tables", json={"game": "timo", "players": 2,
                                                   "display_name": "Ann"})
        assert refused.status_code == 503 and refused.json()["code"] == "server.full"


def test_the_public_list_is_paginated_and_shows_only_tables_waiting(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        made = [create_table(client, "timo", 2) for _ in range(5)]
        start(client, made[0]["table"]["id"], made[0]["token"])
        page = client.get("/api/tables?limit=2").json()
        assert len(page) == 2 and all(t["status"] == "open" for t in page)
        rest = client.get("/api/tables?limit=2&offset=2").json()
        assert {t["id"] for t in page}.isdisjoint({t["id"] for t in rest})
        assert len(client.get("/api/tables?limit=100").json()) == 4
        assert len(client.get("/api/tables?limit=100000").json()) == 4


def test_a_finished_table_leaves_memory_and_its_players_still_get_the_result(
        sqlite_url: str) -> None:
    with app_client(sqlite_url, finished_linger_s=0.05) as client:
        joined = create_table(client, "timo", 2, {"target": 20})
        table_id, token = joined["table"]["id"], joined["token"]
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            play_to_end(ws)
        server = client.app.state.server  # type: ignore[attr-defined]
        deadline = time.monotonic() + 10
        while table_id in server.tables:
            assert time.monotonic() < deadline, "the finished table stayed in memory"
            time.sleep(0.05)
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            welcome = ws.receive_json()
            assert welcome["type"] == "welcome"
            assert welcome["table"]["result"]["winners"]


def test_spectators_joining_cost_the_players_no_frames(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        joined = create_table(client, "timo", 2)
        table_id, token = joined["table"]["id"], joined["token"]
        with client.websocket_connect(f"/ws/tables/{table_id}") as player:
            hello(player, token)
            for _ in range(20):
                with client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
                    hello(spectator, None)
            player.send_json({"type": "ping"})
            frames = []
            while (frame := player.receive_json())["type"] != "pong":
                frames.append(frame)
            assert frames == []


class StalledSocket:
    """A client that never reads: every send waits forever."""

    def __init__(self) -> None:
        self.closed_with: int | None = None

    async def send_text(self, _: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed_with = code


def test_a_socket_that_never_reads_is_closed_and_its_frames_freed() -> None:
    async def scenario() -> tuple[StalledSocket, Connection, StalledSocket, Connection]:
        full_socket, slow_socket = StalledSocket(), StalledSocket()
        full = Connection(full_socket, None, max_frames=8, send_timeout_s=30)  # type: ignore[arg-type]
        for index in range(50):
            full.send(f"frame {index} " + "x" * 200_000)
        slow = Connection(slow_socket, None, max_frames=8, send_timeout_s=0.05)  # type: ignore[arg-type]
        slow.send("one frame")
        await asyncio.sleep(0.3)
        return full_socket, full, slow_socket, slow

    full_socket, full, slow_socket, slow = asyncio.run(scenario())
    assert full.dropped and full_socket.closed_with == 1008
    assert not full.queue  # the 200 KB frames are gone
    assert slow.dropped and slow_socket.closed_with == 1008


def test_the_creator_role_passes_to_the_next_person_seated(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        joined = create_table(client, "timo", 3,
                              seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
        table_id, first = joined["table"]["id"], joined["token"]
        bea = client.post(f"/api/tables/{table_id}/join", json={"display_name": "Bea"}).json()
        assert client.post(f"/api/tables/{table_id}/leave", headers=auth(first)).status_code \
            == 204
        # The one who left has no powers left; Bea (seat 1) has them.
        assert client.put(f"/api/tables/{table_id}/seats/2/bot", json={"bot": "random"},
                          headers=auth(first)).status_code == 403
        assert client.get(f"/api/tables/{table_id}").json()["creator_seat"] == bea["seat"]
        assert client.put(f"/api/tables/{table_id}/seats/2/bot", json={"bot": "random"},
                          headers=auth(bea["token"])).status_code == 200
        assert client.post(f"/api/tables/{table_id}/leave",
                           headers=auth(bea["token"])).status_code == 204
        # Nobody seated: the next person to join leads.
        cy = client.post(f"/api/tables/{table_id}/join", json={"display_name": "Cy"}).json()
        assert client.get(f"/api/tables/{table_id}").json()["creator_seat"] == cy["seat"]
        assert client.put(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "random"},
                          headers=auth(cy["token"])).status_code == 200


def test_a_player_id_is_an_identity_only_with_its_secret(sqlite_url: str) -> None:
    """The leaderboard publishes ids: reading one must not let anyone play, be rated or
    rename the player under it."""
    with app_client(sqlite_url) as client:
        ann = profile(client, "Ann")
        joined = create_table(client, "timo", 2, {"target": 20}, identity=ann)
        start(client, joined["table"]["id"], joined["token"])
        with client.websocket_connect(f"/ws/tables/{joined['table']['id']}") as ws:
            hello(ws, joined["token"])
            play_to_end(ws)
        mine = f"/api/leaderboard/timo?player={ann['player_id']}"
        before = client.get(mine).json()
        assert [row["games"] for row in before] == [1]
        stolen = {"player_id": ann["player_id"]}
        for body in (stolen, {**stolen, "player_secret": "x" * 32}):
            refused = client.post("/api/tables", json={
                "game": "timo", "players": 2, "display_name": "Mallory was here", **body})
            assert refused.status_code == 403, refused.text
            assert refused.json()["code"] == "profile.invalid"
        renamed = client.put(f"/api/profiles/{ann['player_id']}", json={"display_name": "M"},
                             headers=auth("y" * 32))
        assert renamed.status_code == 403
        assert client.get(mine).json() == before
        # The holder of the secret may rename the profile, on the leaderboard too.
        assert client.put(f"/api/profiles/{ann['player_id']}", json={"display_name": "Annie"},
                          headers=auth(ann["player_secret"])).status_code == 200
        assert client.get(mine).json()[0]["display_name"] == "Annie"
        assert client.get(f"/api/profiles/{ann['player_id']}").json() == {
            "player_id": ann["player_id"], "display_name": "Annie", "secret": None}
        # A browser given a profile link asks whether its key is the profile's first.
        check = f"/api/profiles/{ann['player_id']}/check"
        assert client.post(check, headers=auth(ann["player_secret"])).json() == {
            "player_id": ann["player_id"], "display_name": "Annie", "secret": None}
        for headers in (auth("y" * 32), {}):
            wrong = client.post(check, headers=headers)
            assert (wrong.status_code, wrong.json()["code"]) == (403, "profile.invalid")
        unknown = client.post("/api/profiles/p-nobody/check", headers=auth("y" * 32))
        assert (unknown.status_code, unknown.json()["code"]) == (403, "profile.invalid")


def test_a_table_left_waiting_is_abandoned_and_leaves_memory(sqlite_url: str) -> None:
    with app_client(sqlite_url, abandoned_after_s=0.2) as client:
        waiting = create_table(client, "timo", 2, seats=[{"kind": "human"}, {"kind": "human"}])
        table_id = waiting["table"]["id"]
        watched = create_table(client, "timo", 2, seats=[{"kind": "human"}, {"kind": "human"}])
        server = client.app.state.server  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/tables/{watched['table']['id']}") as ws:
            hello(ws, watched["token"])
            deadline = time.monotonic() + 10
            while table_id in server.tables:
                assert time.monotonic() < deadline, "the waiting table stayed in memory"
                time.sleep(0.05)
            assert watched["table"]["id"] in server.tables  # someone is there: it stays
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "abandoned"
        assert table_id not in {t["id"] for t in client.get("/api/tables").json()}
    with app_client(sqlite_url) as client:  # and a restart does not bring it back
        assert table_id not in client.app.state.server.tables  # type: ignore[attr-defined]
