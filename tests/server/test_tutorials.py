"""Guided first games at the server: /api/games sends each game's hints, and a table
asked for with ``tutorial`` is the game's declared deal, private and unrated."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.client import app_client, auth, hello, play_to_end, profile, start
from twintable.core.registry import default_registry


def _guided(client: TestClient, game: str, **extra: object) -> dict[str, Any]:
    body = {"game": game, "players": 6, "display_name": "Ann", "tutorial": True,
            "options": {"target": 500}, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def test_every_game_sends_the_hints_of_its_guided_game(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
    for game in ("timo", "twins", "twinit", "twinz"):
        steps = games[game]["tutorial"]["steps"]
        declared = default_registry().entry(game).tutorial().steps  # type: ignore[misc]
        assert [step["id"] for step in steps] == [step.id for step in declared]
        assert all(step["text"].startswith(f"tutorial.{game}.") for step in steps)
        assert {"move", "event", "next"} & set().union(*(s["advance"] for s in steps))


def test_a_guided_table_is_the_declared_deal_private_and_unrated(sqlite_url: str) -> None:
    entry = default_registry().entry("timo")
    guided = entry.tutorial()  # type: ignore[misc]
    with app_client(sqlite_url) as client:
        # The request's players, options and profile give way to the game's declaration.
        joined = _guided(client, "timo", **profile(client))
        table = joined["table"]
        assert table["tutorial"] and table["private"] and joined["key"]
        assert table["players"] == guided.players
        assert table["options"]["hand_size"] == 5 and table["options"]["target"] == 1
        assert [seat["bot"] for seat in table["seats"][1:]] == ["guide"]
        assert client.get("/api/tables?status=open").json() == []
        start(client, table["id"], joined["token"])
        rules = entry.rules
        state = rules.new_state(rules.resolve_options(dict(guided.options)), guided.players,
                                guided.seed)
        shared, own = rules.views_json(state, [0])
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            hello(ws, joined["token"])
            snapshot = ws.receive_json()
            # Everyone's lesson starts from the same hand: the declared seed's.
            assert snapshot["view"]["hand"] == {**shared, **own[0]}["hand"]
            play_to_end(ws, seen=[snapshot])  # the lesson's one short round
        info = client.get(f"/api/tables/{table['id']}", headers=auth(joined["token"]))
        assert info.json()["tutorial"] and info.json()["status"] == "finished"
        # Its rematch is a game of its own, dealt afresh: no hints.
        again = client.post(f"/api/tables/{table['id']}/rematch", headers=auth(joined["token"]))
        assert again.status_code == 200, again.text
        assert not again.json()["table"]["tutorial"]


def test_a_game_without_a_guided_game_refuses_one(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        response = client.post("/api/tables", json={
            "game": "tricks", "players": 2, "display_name": "Ann", "tutorial": True})
    if response.status_code == 422 and response.json()["code"] == "game.unknown":
        return  # the example game is not installed here
    assert response.status_code == 422 and response.json()["code"] == "tutorial.none"


def test_a_profile_keeps_which_guided_games_it_has_seen(sqlite_url: str) -> None:
    """What a profile did with each guided game is kept on the server (a browser holding
    the profile elsewhere is not offered it again); only the secret reads or writes it."""
    with app_client(sqlite_url) as client:
        ann = profile(client)
        url = f"/api/profiles/{ann['player_id']}/guided"
        key = auth(ann["player_secret"])
        assert client.get(url, headers=key).json() == {"games": {}}
        marked = client.put(f"{url}/timo", json={"how": "skipped"}, headers=key)
        assert marked.status_code == 200, marked.text
        assert marked.json() == {"games": {"timo": "skipped"}}
        # The latest word wins, per game; the others are kept.
        client.put(f"{url}/twins", json={"how": "started"}, headers=key)
        client.put(f"{url}/twins", json={"how": "done"}, headers=key)
        both = {"games": {"timo": "skipped", "twins": "done"}}
        assert client.get(url, headers=key).json() == both

        # Without the secret, or with another's, nothing is read or changed.
        bo = profile(client, "Bo")
        for headers in ({}, auth(bo["player_secret"])):
            refused = client.get(url, headers=headers)
            assert refused.status_code == 403 and refused.json()["code"] == "profile.invalid"
            refused = client.put(f"{url}/twinz", json={"how": "done"}, headers=headers)
            assert refused.status_code == 403 and refused.json()["code"] == "profile.invalid"
        # A game not installed here, or a word the server does not know, changes nothing.
        unknown = client.put(f"{url}/chess", json={"how": "done"}, headers=key)
        assert unknown.status_code == 404 and unknown.json()["code"] == "game.unknown"
        wrong = client.put(f"{url}/twinz", json={"how": "maybe"}, headers=key)
        assert wrong.status_code == 422 and wrong.json()["code"] == "request.invalid"
        assert client.get(url, headers=key).json() == both
