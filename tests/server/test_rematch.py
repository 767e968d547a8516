"""Bot names, and Play again: a rematch with the same seats, options and bots."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from tests.server.client import app_client, auth, hello, profile, start
from twintable.server.seating import BOT_NAMES, bot_name


def create(client: TestClient, game: str, seats: list[dict[str, Any]],
           options: dict[str, Any], **settings: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={
        "game": game, "players": len(seats), "display_name": "Ann",
        **profile(client, "Ann"), "options": options, "seats": seats, **settings})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def wait_finished(client: TestClient, table_id: str, limit_s: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        info = client.get(f"/api/tables/{table_id}").json()
        if info["status"] == "finished":
            return info  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise AssertionError("the game did not end")


def finished_timo(client: TestClient) -> tuple[str, str, str]:
    """A finished 3-seat Timo game: Ann (seat 0), Bea (seat 1), a bot (seat 2). Nobody
    stays, so with no grace period stand-ins play both people's moves."""
    ann = create(client, "timo", [{"kind": "human"}, {"kind": "human"},
                                  {"kind": "bot", "bot": "heuristic"}],
                 {"target": 10, "stacking": False}, grace_s=0, turn_limit_s=30)
    table_id = ann["table"]["id"]
    bea = client.post(f"/api/tables/{table_id}/join",
                      json={"display_name": "Bea", **profile(client, "Bea")}).json()
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, bea["token"])  # Bea looks in and goes: she is away from now on
    start(client, table_id, ann["token"])
    wait_finished(client, table_id)
    return table_id, ann["token"], bea["token"]


def test_bot_names_are_distinct_deterministic_and_survive_a_restart(sqlite_url: str) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * 5
    with app_client(sqlite_url) as client:
        info = create(client, "timo", seats, {})["table"]
        names = [s["display_name"] for s in info["seats"][1:]]
        assert len(set(names)) == 5 and set(names) <= set(BOT_NAMES)
        assert all(s["bot"] == "heuristic" for s in info["seats"][1:])
        # A bot put in a seat later gets a name no one at the table has.
        table_id = info["id"]
        token = create(client, "timo", [{"kind": "human"}, {"kind": "human"}], {})
        other = token["table"]["id"]
        seats_now = client.put(f"/api/tables/{other}/seats/1/bot", json={"bot": "search"},
                               headers=auth(token["token"])).json()["seats"]
        assert seats_now[1]["display_name"] in BOT_NAMES
        # Changing a bot's level keeps its name.
        again = client.put(f"/api/tables/{other}/seats/1/bot", json={"bot": "random"},
                           headers=auth(token["token"])).json()["seats"]
        assert again[1]["display_name"] == seats_now[1]["display_name"]
    with app_client(sqlite_url) as client:
        after = client.get(f"/api/tables/{table_id}").json()
        assert [s["display_name"] for s in after["seats"][1:]] == names


def test_a_bot_name_never_repeats_a_name_at_the_table() -> None:
    first = bot_name("t1", 1, set())
    assert bot_name("t1", 1, set()) == first  # the same in every process
    assert bot_name("t1", 1, {first.upper()}) != first
    assert bot_name("t1", 1, set(BOT_NAMES)) not in BOT_NAMES  # never two alike


def test_play_again_makes_one_rematch_with_the_same_seats_options_and_bots(
        sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table_id, ann, bea = finished_timo(client)
        old = client.get(f"/api/tables/{table_id}").json()
        assert old["result"]["names"][2] == old["seats"][2]["display_name"]  # not "heuristic"
        with client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
            hello(watcher, bea)
            made = client.post(f"/api/tables/{table_id}/rematch", headers=auth(ann))
            assert made.status_code == 200, made.text
            joined = made.json()
            # Everyone still at the finished table hears of it.
            for _ in range(20):
                frame = watcher.receive_json()
                if frame["type"] == "table" and frame["table"].get("rematch"):
                    break
            assert frame["table"]["rematch"] == joined["table"]["id"]
        new = joined["table"]
        assert joined["seat"] == 0 and new["status"] == "open" and new["rematch_of"] == table_id
        assert new["game"] == "timo" and new["options"] == old["options"]
        assert new["turn_limit_s"] == 30 and new["grace_s"] == 0 and new["creator_seat"] == 0
        assert [(s["kind"], s["bot"], s["display_name"]) for s in new["seats"]] == [
            ("human", None, "Ann"), ("empty", None, "Bea"),
            ("bot", "heuristic", old["seats"][2]["display_name"])]
        assert new["seats"][1]["reserved"]
        assert client.get(f"/api/tables/{table_id}").json()["rematch"] == new["id"]

        # Bea's seat is kept for her: a stranger cannot take it, Bea can.
        stranger = client.post(f"/api/tables/{new['id']}/join", json={"display_name": "Cy"})
        assert stranger.status_code == 409 and stranger.json()["code"] == "table.full"
        taken = client.post(f"/api/tables/{new['id']}/join",
                            json={"display_name": "Cy", "seat": 1})
        assert taken.status_code == 409
        second = client.post(f"/api/tables/{table_id}/rematch", headers=auth(bea)).json()
        assert second["table"]["id"] == new["id"] and second["seat"] == 1
        assert second["table"]["seats"][1]["kind"] == "human"
        assert not second["table"]["seats"][1]["reserved"]
        again = client.post(f"/api/tables/{table_id}/rematch", headers=auth(bea))
        assert again.status_code == 409 and again.json()["code"] == "seat.taken"
        start(client, new["id"], joined["token"])


def test_only_players_of_a_finished_table_may_ask(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        running = create(client, "timo", [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                         {})
        table_id = running["table"]["id"]
        early = client.post(f"/api/tables/{table_id}/rematch", headers=auth(running["token"]))
        assert early.status_code == 409 and early.json()["code"] == "table.not_finished"
        nobody = client.post(f"/api/tables/{table_id}/rematch")
        assert nobody.status_code == 401
        unknown = client.post("/api/tables/nope/rematch", headers=auth(running["token"]))
        assert unknown.status_code == 404


def test_the_rematch_creator_manages_seats_from_any_seat(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table_id, _, bea = finished_timo(client)
        joined = client.post(f"/api/tables/{table_id}/rematch", headers=auth(bea)).json()
        new, token = joined["table"]["id"], joined["token"]
        assert joined["seat"] == 1 and joined["table"]["creator_seat"] == 1
        own = client.delete(f"/api/tables/{new}/seats/1", headers=auth(token))
        assert own.status_code == 409 and own.json()["code"] == "seat.creator"
        # Ann does not come back: Bea gives her seat to a bot, which gets a name.
        seats = client.put(f"/api/tables/{new}/seats/0/bot", json={"bot": "random"},
                           headers=auth(token)).json()["seats"]
        assert seats[0]["kind"] == "bot" and not seats[0]["reserved"]
        assert seats[0]["display_name"] in BOT_NAMES
        assert seats[0]["display_name"] != seats[2]["display_name"]
        start(client, new, token)


def test_a_rematch_survives_a_restart(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table_id, ann, bea = finished_timo(client)
        new = client.post(f"/api/tables/{table_id}/rematch", headers=auth(ann)).json()
    with app_client(sqlite_url) as client:
        assert client.get(f"/api/tables/{table_id}").json()["rematch"] == new["table"]["id"]
        joined = client.post(f"/api/tables/{table_id}/rematch", headers=auth(bea))
        assert joined.status_code == 200, joined.text
        assert joined.json()["table"]["id"] == new["table"]["id"]


def test_twin_it_french_chaining_puts_the_last_winner_under_taboo(sqlite_url: str) -> None:
    with app_client(sqlite_url, realtime_bot_pace=0.05) as client:
        ann = create(client, "twinit", [{"kind": "human"}, {"kind": "bot", "bot": "expert"},
                                        {"kind": "bot", "bot": "expert"}],
                     {"sets_to_win": 1}, grace_s=0)
        table_id = ann["table"]["id"]
        start(client, table_id, ann["token"])
        info = wait_finished(client, table_id)
        winners = info["result"]["winners"]
        assert winners
        new = client.post(f"/api/tables/{table_id}/rematch", headers=auth(ann["token"])).json()
        assert new["table"]["options"]["taboo"] == sorted(winners)
        assert new["table"]["options"]["sets_to_win"] == 1


def test_a_rematch_counts_against_the_same_shares_as_a_new_table(sqlite_url: str) -> None:
    """Play again makes a table: the asker's address and profile must have room for it,
    and so must the server; taking the seat kept at a rematch made already makes
    nothing, so a full share never keeps a player from their own rematch."""
    with app_client(sqlite_url, max_open_tables_per_client=2) as client:
        table_id, ann, bea = finished_timo(client)
        create(client, "timo", [{"kind": "human"}, {"kind": "human"}], {})
        create(client, "timo", [{"kind": "human"}, {"kind": "human"}], {})
        refused = client.post(f"/api/tables/{table_id}/rematch", headers=auth(ann))
        assert refused.status_code == 429, refused.text
        assert refused.json()["code"] == "tables.too_many"
        # Nothing was made: the finished table names no rematch.
        assert client.get(f"/api/tables/{table_id}").json()["rematch"] is None
    with app_client(sqlite_url, max_open_tables_per_client=3) as client:
        made = client.post(f"/api/tables/{table_id}/rematch", headers=auth(ann))
        assert made.status_code == 200, made.text
        # The share is full now (two open tables and the rematch), yet Bea takes the seat
        # kept for her.
        joined = client.post(f"/api/tables/{table_id}/rematch", headers=auth(bea))
        assert joined.status_code == 200, joined.text
        assert joined.json()["table"]["id"] == made.json()["table"]["id"]


def test_a_rematch_counts_in_the_askers_profile_and_the_servers_bound(
        sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table_id, ann, _ = finished_timo(client)
    with app_client(sqlite_url, max_open_tables_per_profile=0) as client:
        refused = client.post(f"/api/tables/{table_id}/rematch", headers=auth(ann))
        assert refused.status_code == 429, refused.text
        assert "profile" in refused.json()["message"]
    with app_client(sqlite_url, max_tables=1) as client:
        # The finished table, read back to be asked, fills the server's one place.
        refused = client.post(f"/api/tables/{table_id}/rematch", headers=auth(ann))
        assert refused.status_code == 503 and refused.json()["code"] == "server.full"
    with app_client(sqlite_url) as client:
        made = client.post(f"/api/tables/{table_id}/rematch", headers=auth(ann))
        assert made.status_code == 200, made.text
