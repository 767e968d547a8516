"""Seats a script cannot hoard (``Lobby.check_seats_held``, ``Seating.join``): one
address group holds a bounded number of seats at tables waiting to start, and someone
the creator took off a table (their profile, and the address they came from) cannot sit
there again."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.client import auth, profile
from twintable.server.app import create_app
from twintable.server.settings import Settings

PEOPLE = [{"kind": "human"}] * 4


def test_one_address_cannot_take_every_free_seat(sqlite_url: str) -> None:
    settings = Settings(db_url=sqlite_url, bot_delay_ms=0, max_seats_per_client=5)
    with TestClient(create_app(settings), client=("198.51.100.1", 4000)) as host:
        tables = [host.post("/api/tables", json={
            "game": "timo", "players": 4, "display_name": "Host", "seats": PEOPLE}).json()
                  for _ in range(3)]
        squatter = TestClient(host.app, client=("203.0.113.66", 4000))
        answers = [squatter.post(f"/api/tables/{t['table']['id']}/join",
                                 json={"display_name": f"S{n}"}).status_code
                   for t in tables for n in range(3)]
        assert answers == [200] * 5 + [429] * 4, answers
        refused = squatter.post(f"/api/tables/{tables[2]['table']['id']}/join",
                                json={"display_name": "S"})
        assert refused.json()["code"] == "seats.too_many"
        # Another address still finds the seats left.
        other = TestClient(host.app, client=("203.0.113.67", 4000))
        assert other.post(f"/api/tables/{tables[2]['table']['id']}/join",
                          json={"display_name": "Kim"}).status_code == 200


def test_someone_taken_off_a_table_cannot_sit_there_again(sqlite_url: str) -> None:
    settings = Settings(db_url=sqlite_url, bot_delay_ms=0, profiles_per_minute=100)
    with TestClient(create_app(settings), client=("198.51.100.1", 4000)) as host:
        made = host.post("/api/tables", json={
            "game": "timo", "players": 3, "display_name": "Host", "seats": PEOPLE[:3]}).json()
        table_id, token = made["table"]["id"], made["token"]
        pest = TestClient(host.app, client=("203.0.113.66", 4000))
        pest_profile = profile(pest, "Pest")
        joined = pest.post(f"/api/tables/{table_id}/join",
                           json={"display_name": "Pest", **pest_profile}).json()
        kicked = host.delete(f"/api/tables/{table_id}/seats/{joined['seat']}",
                             headers=auth(token))
        assert kicked.status_code in (200, 204), kicked.text
        for attempt in range(20):  # a new name, no profile: the same address
            again = pest.post(f"/api/tables/{table_id}/join",
                              json={"display_name": f"Pest {attempt}"})
            assert again.status_code == 403 and again.json()["code"] == "seat.kicked"
        # The profile from elsewhere (a phone on another network): still out.
        elsewhere = TestClient(host.app, client=("192.0.2.5", 4000))
        again = elsewhere.post(f"/api/tables/{table_id}/join",
                               json={"display_name": "Pest", **pest_profile})
        assert again.status_code == 403
        # Anyone else may take the seat.
        assert elsewhere.post(f"/api/tables/{table_id}/join",
                              json={"display_name": "Kim"}).status_code == 200
