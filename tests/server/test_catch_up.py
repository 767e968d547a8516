"""A client that comes back is told what it missed (issue #39: after a network drop two
bot moves made meanwhile never reached the page's story): its hello names the last
version it told (``since``), and the moves after it come first, as ``missed`` events
each seat sees as it would have live (nothing hidden from it shows), then the snapshot."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession

from tests.server.client import app_client, create_table, hello, start
from twintable.server import tables


def frames_until_snapshot(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    frames = []
    while True:
        frame = ws.receive_json()
        frames.append(frame)
        if frame["type"] == "snapshot":
            return frames


def state_frame(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next snapshot or event (the table frames of people coming and going skipped)."""
    while True:
        frame = ws.receive_json()
        if frame["type"] in ("snapshot", "event"):
            return frame


def move(ws: WebSocketTestSession, latest: dict[str, Any], n: int) -> dict[str, Any]:
    """Make the first legal move at ``latest``; the mover's frame for it."""
    legal = next(a for a in latest["view"]["legal"] if a["kind"] in ("play", "draw", "pass"))
    ws.send_json({"type": "action", "id": f"m{n}", "version": latest["version"],
                  "kind": legal["kind"], "payload": legal["payload"]})
    while True:
        frame = ws.receive_json()
        if frame["type"] == "event":
            return frame


def seated(client: Any) -> tuple[str, list[str]]:
    """A started Timo table of three people: its id and their tokens."""
    made = create_table(client, "timo", 3, {"target": 500}, seats=[{"kind": "human"}] * 3,
                        grace_s=3600)
    table_id, tokens = made["table"]["id"], [made["token"]]
    for name in ("Bo", "Cy"):
        joined = client.post(f"/api/tables/{table_id}/join", json={"display_name": name})
        tokens.append(joined.json()["token"])
    start(client, table_id, tokens[0])
    return table_id, tokens


def to_move(frames: list[dict[str, Any]], seat: int) -> bool:
    view = frames[-1]["view"]
    return view["turn"] == seat


@pytest.mark.parametrize("kept", [tables.RECENT_MOVES, 1])
def test_a_returning_seat_is_told_the_moves_it_missed(sqlite_url: str, kept: int,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "RECENT_MOVES", kept)
    with app_client(sqlite_url) as client:
        table_id, tokens = seated(client)
        url = f"/ws/tables/{table_id}"
        with client.websocket_connect(url) as bo, client.websocket_connect(url) as cy:
            hello(bo, tokens[1])
            hello(cy, tokens[2])
            latest = {1: state_frame(bo), 2: state_frame(cy)}
            with client.websocket_connect(url) as ann:
                hello(ann, tokens[0])
                first = state_frame(ann)
                assert first["type"] == "snapshot"
                # Ann moves first: she plays until the turn leaves her, then goes away (a
                # draw may leave the turn with her, to play the card she drew or pass).
                n = 0
                while first["view"]["turn"] == 0:
                    first = move(ann, first, n)
                    n += 1
                    latest = {1: state_frame(bo), 2: state_frame(cy)}
                told = first["version"]
            # Ann is away: Bo and Cy play until it is her turn again.
            seen_by_cy: dict[int, list[dict[str, Any]]] = {}
            while latest[1]["view"]["turn"] != 0:
                mover, other = ((bo, cy) if latest[1]["view"]["turn"] == 1 else (cy, bo))
                seat = 1 if mover is bo else 2
                n += 1
                mine = move(mover, latest[seat], n)
                theirs = state_frame(other)
                assert theirs["version"] == mine["version"]
                latest = {seat: mine, 3 - seat: theirs}
                if seat == 1:
                    seen_by_cy[theirs["version"]] = theirs["events"]
            now = latest[1]["version"]
            assert now > told
            with client.websocket_connect(url) as ann:
                ann.send_json({"type": "hello", "token": tokens[0], "since": told})
                assert ann.receive_json()["type"] == "welcome"
                frames = frames_until_snapshot(ann)
    missed, snapshot = frames[:-1], frames[-1]
    assert snapshot["version"] == now
    if kept == 1 and now - told > 1:
        assert missed == []  # not kept: the snapshot's version tells the page of the gap
        return
    assert [f["version"] for f in missed] == list(range(told + 1, now + 1))
    assert all(f["type"] == "event" and f["missed"] for f in missed)
    # Bo's moves as Ann would have seen them live: what Cy, a player who is not Bo, saw,
    # but for what was Cy's alone (a penalty card Cy drew): a card drawn by another seat
    # never shows in Ann's frames.
    for frame in missed:
        if frame["seat"] == 1:
            ann_saw, cy_saw = frame["events"], seen_by_cy[frame["version"]]
            assert all(event in cy_saw for event in ann_saw)
            assert all(event in ann_saw or event["data"].get("seat") == 2 for event in cy_saw)
    for frame in missed:
        for event in frame["events"]:
            if "cards" in event["data"] and event["data"].get("seat") not in (0, None):
                assert not isinstance(event["data"]["cards"], list), event  # counts only
    assert all(f["view"]["hand"] == snapshot["view"]["hand"] for f in missed)


def test_a_spectator_is_told_what_every_spectator_sees(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        made = create_table(client, "timo", 2, {"target": 500}, grace_s=0)
        table_id = made["table"]["id"]
        start(client, table_id, made["token"])
        # Nobody holds Ann's seat: a stand-in and the bot play on.
        with client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
            watcher.send_json({"type": "hello"})
            assert watcher.receive_json()["type"] == "welcome"
            live = [state_frame(watcher) for _ in range(12)]
        since = max(f["version"] for f in live)
        with client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
            watcher.send_json({"type": "hello", "since": since})
            assert watcher.receive_json()["type"] == "welcome"
            frames = frames_until_snapshot(watcher)
    missed = frames[:-1]
    versions = [f["version"] for f in missed]
    assert versions == list(range(since + 1, since + 1 + len(versions)))
    assert all(f["view"]["viewer"] is None and f["view"]["hand"] == [] for f in missed)
    # A spectator sees no drawn card: the events carry none a seat alone may see.
    assert all("card" not in e["data"] for f in missed for e in f["events"]
               if e["kind"] == "draw"), missed


def test_since_is_a_version(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        made = create_table(client, "timo", 2)
        with client.websocket_connect(f"/ws/tables/{made['table']['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"], "since": -1})
            refused = ws.receive_json()
    assert refused["type"] == "error" and refused["code"] == "message.invalid", refused
