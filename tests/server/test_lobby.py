"""The lobby over HTTP: create, join, bots, kick, leave, start, lists, ratings, health."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from tests.server.client import (
    app_client,
    auth,
    create_table,
    hello,
    play_to_end,
    profile,
    start,
)
from twintable.server.protocol import json_schema


def test_games_are_listed_with_options_and_bots(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
        assert {"timo", "twins"} <= set(games)
        assert "search" in games["timo"]["bots"] and "strong" in games["twins"]["bots"]
        assert any(o["name"] == "target" for o in games["timo"]["options"])
        # What a client needs from the declarations: units, seat options, racing moves.
        twinit = {o["name"]: o for o in games["twinit"]["options"]}
        assert twinit["hold_ms"]["unit"] == "ms" and twinit["taboo"]["names_seats"]
        assert twinit["sets_to_win"]["unit"] is None and not twinit["sets_to_win"]["names_seats"]
        assert set(games["twinit"]["unversioned_kinds"]) == {"touch", "turn_over"}
        assert games["timo"]["unversioned_kinds"] == []


def test_each_games_client_is_served_beside_the_shell(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        for game in client.get("/api/games").json():
            module = client.get(f"/static/games/{game['id']}/index.js")
            assert module.status_code == 200, game["id"]
            assert "export default" in module.text
            assert client.get(f"/static/games/{game['id']}/i18n/fr.json").json()
        assert client.get("/static/app.js").status_code == 200
        assert client.get("/static/games/none/index.js").status_code == 404


def test_create_join_by_invite_bots_kick_leave_and_start(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        joined = create_table(client, "timo", 4, {"target": 50},
                              seats=[{"kind": "human"}, {"kind": "human"},
                                     {"kind": "bot", "bot": "random"}, {"kind": "human"}])
        table_id, token = joined["table"]["id"], joined["token"]
        assert joined["invite"].endswith(f"?table={table_id}") and len(token) >= 32
        assert joined["socket"] is None  # one process: the socket is at its own address
        creator = auth(token)
        assert client.get("/api/tables?status=open").json()[0]["id"] == table_id

        response = client.post(f"/api/tables/{table_id}/start", headers=creator)
        assert response.status_code == 409 and response.json()["code"] == "table.not_full"

        # Bob joins from an address of his own: when he is kicked, it may not sit here again.
        elsewhere = TestClient(client.app, client=("192.0.2.9", 4000))
        bob = elsewhere.post(f"/api/tables/{table_id}/join", json={"display_name": "Bob"}).json()
        assert bob["seat"] == 1
        taken = client.post(f"/api/tables/{table_id}/join",
                            json={"display_name": "Cy", "seat": 1})
        assert taken.status_code == 409 and taken.json()["code"] == "seat.taken"

        # Only the creator manages seats; bots can be added and removed, players kicked.
        assert client.put(f"/api/tables/{table_id}/seats/3/bot", json={"bot": "heuristic"},
                          headers=auth(bob["token"])).status_code == 403
        assert client.put(f"/api/tables/{table_id}/seats/3/bot", json={"bot": "oracle"},
                          headers=creator).json()["code"] == "bot.unknown"
        seats = client.put(f"/api/tables/{table_id}/seats/3/bot", json={"bot": "heuristic"},
                           headers=creator).json()["seats"]
        assert seats[3]["kind"] == "bot" and seats[3]["bot"] == "heuristic"
        seats = client.delete(f"/api/tables/{table_id}/seats/1", headers=creator).json()["seats"]
        assert seats[1]["kind"] == "empty"
        kicked = client.post(f"/api/tables/{table_id}/leave", headers=auth(bob["token"]))
        assert kicked.status_code == 401  # the kicked token no longer holds a seat
        back = elsewhere.post(f"/api/tables/{table_id}/join", json={"display_name": "Bobby"})
        assert back.status_code == 403 and back.json()["code"] == "seat.kicked"

        dee = client.post(f"/api/tables/{table_id}/join", json={"display_name": "Dee"}).json()
        left = client.post(f"/api/tables/{table_id}/leave", headers=auth(dee["token"]))
        assert left.status_code == 204
        full = client.post(f"/api/tables/{table_id}/join",
                           json={"display_name": "Eve", **profile(client, "Eve")}).json()
        assert full["seat"] == 1
        assert client.post(f"/api/tables/{table_id}/join",
                           json={"display_name": "Fay"}).json()["code"] == "table.full"

        assert client.post(f"/api/tables/{table_id}/start", headers=creator).json()[
            "status"] == "running"
        late = client.post(f"/api/tables/{table_id}/join", json={"display_name": "Gus"})
        assert late.status_code == 409 and late.json()["code"] == "table.started"
        assert client.get("/api/tables?status=running").json()[0]["id"] == table_id


def test_bad_lobby_requests_get_codes(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        for body, status, code in [
            ({"game": "chess", "players": 2, "display_name": "A"}, 422, "game.unknown"),
            ({"game": "timo", "players": 9, "display_name": "A"}, 422, "players.invalid"),
            ({"game": "timo", "players": 2, "display_name": "A", "options": {"x": 1}}, 422,
             "option.unknown"),
            # Variants are checked at creation: out of range, or too big for the table.
            ({"game": "timo", "players": 2, "display_name": "A",
              "options": {"hand_size": 21}}, 422, "option.invalid"),
            ({"game": "timo", "players": 6, "display_name": "A",
              "options": {"hand_size": 10}}, 422, "players.invalid"),
            ({"game": "twins", "players": 5, "display_name": "A",
              "options": {"deal": 11}}, 422, "players.invalid"),
            ({"game": "timo", "players": 2, "display_name": "A",
              "seats": [{"kind": "bot", "bot": "random"}, {"kind": "human"}]}, 422,
             "seats.invalid"),
        ]:
            response = client.post("/api/tables", json=body)
            assert response.status_code == status and response.json()["code"] == code
        for name in ("", "x" * 41, "<script>"):
            response = client.post("/api/tables", json={"game": "timo", "players": 2,
                                                        "display_name": name})
            assert response.status_code == 422
        assert client.get("/api/tables/nope").status_code == 404
        assert client.post("/api/tables/nope/join",
                           json={"display_name": "A"}).status_code == 404


def test_a_finished_game_updates_the_leaderboard(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        ann = profile(client)
        joined = create_table(client, "timo", 2, {"target": 30}, identity=ann)
        table_id, token = joined["table"]["id"], joined["token"]
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            play_to_end(ws)
        # One game is no ranking yet: the player sees their provisional row only.
        assert client.get("/api/leaderboard/timo").json() == []
        [mine] = client.get(f"/api/leaderboard/timo?player={ann['player_id']}").json()
        assert mine["games"] == 1 and mine["opponents"] == 1 and not mine["ranked"]
        assert mine["sigma"] < 25 / 3
        assert client.get("/api/leaderboard/chess").status_code == 404


def test_health_readiness_and_metrics(sqlite_url: str) -> None:
    with app_client(sqlite_url, address="127.0.0.1") as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        assert client.get("/readyz").json()["status"] == "ready"
        create_table(client, "timo", 2)
        text = client.get("/metrics").text
        assert 'twintable_tables{status="open",worker="' in text
        assert "twintable_action_seconds_bucket" in text


def test_protocol_schema_document_is_current() -> None:
    stored = Path(__file__).parents[2] / "docs" / "protocol.schema.json"
    assert json.loads(stored.read_text()) == json.loads(json.dumps(json_schema())), \
        "run: twintable protocol-schema > docs/protocol.schema.json"


def test_a_body_that_fails_validation_gets_the_usual_error_shape(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        response = client.post("/api/tables", json={"game": "timo", "players": 2,
                                                    "display_name": "\u00a0"})
    assert response.status_code == 422
    body = response.json()
    assert body["type"] == "error" and body["code"] == "request.invalid"
    assert body["details"]["errors"][0]["loc"] == ["body", "display_name"]
    assert "display_name" in body["message"]
