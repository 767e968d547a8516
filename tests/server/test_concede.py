"""Conceding (issue #39): a person gives the game up; a stand-in plays the seat to the
end, the person's own moves are refused from then on, everyone sees it, and the finished
game records it (rated a loss: tests/server/test_ratings.py)."""

from __future__ import annotations

from typing import Any

from tests.server.client import app_client, auth, create_table, hello, start


def made(client: Any, options: dict[str, Any] | None = None,
         seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A Timo table whose person is never replaced by a stand-in for being away."""
    return create_table(client, "timo", 2, options or {"target": 20}, seats=seats,
                        grace_s=3600)


def test_a_person_concedes_and_a_stand_in_plays_the_game_to_its_end(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table = made(client)
        table_id, token = table["table"]["id"], table["token"]
        early = client.post(f"/api/tables/{table_id}/concede", headers=auth(token))
        assert (early.status_code, early.json()["code"]) == (409, "table.not_running")
        start(client, table_id, token)
        nobody = client.post(f"/api/tables/{table_id}/concede", headers=auth("x" * 32))
        assert (nobody.status_code, nobody.json()["code"]) == (401, "auth.invalid")
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            conceded = client.post(f"/api/tables/{table_id}/concede", headers=auth(token))
            assert conceded.status_code == 200, conceded.text
            assert conceded.json()["seats"][0]["conceded"] is True
            again = client.post(f"/api/tables/{table_id}/concede", headers=auth(token))
            assert (again.status_code, again.json()["code"]) == (409, "seat.conceded")
            # Everyone at the table is told, and the person's own moves are refused.
            frames = []
            while True:
                frame = ws.receive_json()
                frames.append(frame)
                if frame["type"] == "table" and frame["table"]["status"] == "finished":
                    break
            told = [f for f in frames if f["type"] == "table"]
            assert told[0]["table"]["seats"][0]["conceded"] is True
            ws.send_json({"type": "action", "id": "late", "version": 0, "kind": "draw"})
            refused = ws.receive_json()
            assert refused["code"] in ("seat.conceded", "game.over"), refused
        # The stand-in played on to the end; the result says who conceded.
        finished = client.get(f"/api/tables/{table_id}").json()
        assert finished["status"] == "finished"
        assert finished["result"]["conceded"] == [0]


def test_a_conceded_seats_own_moves_are_refused(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table = made(client, seats=[{"kind": "human"}, {"kind": "human"}],
                     options={"target": 500})
        table_id, token = table["table"]["id"], table["token"]
        other = client.post(f"/api/tables/{table_id}/join", json={"display_name": "Bo"}).json()
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, other["token"])
            assert client.post(f"/api/tables/{table_id}/concede",
                               headers=auth(other["token"])).status_code == 200
            ws.send_json({"type": "action", "id": "mine", "version": 0, "kind": "draw"})
            while (frame := ws.receive_json())["type"] != "error":
                pass
            assert (frame["id"], frame["code"]) == ("mine", "seat.conceded")
