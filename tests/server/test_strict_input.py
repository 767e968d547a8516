"""Issue #29's small items: numbers are numbers (a string of digits is refused, not
read as one), seats are never negative, and a frame refused under the JSON limits still
names the move it refuses when its id can be read."""

from __future__ import annotations

from tests.server.client import app_client, create_table, hello


def test_numbers_given_as_strings_are_refused(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        for field, value in (("players", "2"), ("grace_s", "60"), ("turn_limit_s", "30")):
            body = {"game": "timo", "players": 2, "display_name": "Ann", field: value}
            refused = client.post("/api/tables", json=body)
            assert refused.status_code == 422, (field, refused.text)
            assert refused.json()["code"] == "request.invalid"


def test_a_negative_seat_is_invalid_not_taken(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        made = create_table(client, "timo", 2, seats=[{"kind": "human"}, {"kind": "human"}])
        refused = client.post(f"/api/tables/{made['table']['id']}/join",
                              json={"display_name": "Bob", "seat": -1})
        assert refused.status_code == 422, refused.text
        assert refused.json()["code"] == "request.invalid"


def test_frames_refused_under_the_limits_name_their_move(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        made = create_table(client, "timo", 2)
        with client.websocket_connect(f"/ws/tables/{made['table']['id']}") as ws:
            hello(ws, made["token"])
            ws.send_text('{"type": "action", "id": "m1", "version": 0, "kind": "draw",'
                         ' "payload": {"x": NaN}}')
            refused = ws.receive_json()
            assert (refused["code"], refused["id"]) == ("json.not_finite", "m1")
            ws.send_json({"type": "action", "id": "m2", "version": "0", "kind": "draw"})
            refused = ws.receive_json()
            assert (refused["code"], refused["id"]) == ("message.invalid", "m2")
