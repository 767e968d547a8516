"""A table's talk (issue #39): chat lines and quick reactions on two channels, their
limits (length, rate, the host's switch), their log across a restart and in the replay,
their path through another worker, and the bots' sparing reactions."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession

from tests.server.client import app_client, create_table, hello, play_to_end, start
from twintable.server import chat, guards
from twintable.server.protocol import CHAT_MAX_CHARS, REACTIONS
from twintable.server.reactions import REACT_EVERY, BotReactions


def next_frame(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next frame of type ``kind`` (earlier ones of other types are passed over)."""
    for _ in range(10_000):
        frame = ws.receive_json()
        if frame["type"] == kind:
            return frame  # type: ignore[no-any-return]
    raise AssertionError(f"no {kind} frame")


def said(ws: WebSocketTestSession, **message: Any) -> dict[str, Any]:
    """Send a chat message and read the answer: the line told back, or the refusal (a
    bot's reaction meanwhile is passed over)."""
    ws.send_json(message)
    for _ in range(10_000):
        frame = ws.receive_json()
        if frame["type"] == "error" or (
                frame["type"] == "chat" and not all(x["bot"] for x in frame["lines"])):
            return frame  # type: ignore[no-any-return]
    raise AssertionError("no answer")


def two_people(client: Any) -> tuple[str, str, str]:
    """An open public Timo table of two people: its id and both seats' tokens."""
    made = create_table(client, "timo", 2, {"target": 20},
                        seats=[{"kind": "human"}, {"kind": "human"}])
    table_id = made["table"]["id"]
    other = client.post(f"/api/tables/{table_id}/join", json={"display_name": "Bo"}).json()
    return table_id, made["token"], other["token"]


def test_players_and_spectators_talk_on_their_own_channels(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table_id, ann, bo = two_people(client)
        path = f"/ws/tables/{table_id}"
        with client.websocket_connect(path) as first, client.websocket_connect(path) as second, \
                client.websocket_connect(path) as watcher:
            hello(first, ann)
            hello(second, bo)
            hello(watcher, None)
            line = said(first, type="chat", id="c1", text="  good luck <b>all</b>  ")["lines"][0]
            assert (line["channel"], line["seat"], line["name"], line["author"]) == \
                ("players", 0, "Ann", "seat:0")
            assert line["text"] == "good luck <b>all</b>"  # trimmed, kept as typed
            assert next_frame(second, "chat")["lines"][0]["n"] == line["n"]
            assert next_frame(watcher, "chat")["lines"][0]["n"] == line["n"]
            reaction = said(second, type="react", emote="👏")["lines"][0]
            assert (reaction["emote"], reaction["text"], reaction["seat"]) == ("👏", None, 1)
            assert next_frame(watcher, "chat")["lines"][0]["emote"] == "👏"
            # A spectator's line reaches spectators only: the players' next line is theirs.
            from_watcher = said(watcher, type="chat", text="who wins?", name="Cy")["lines"][0]
            assert (from_watcher["channel"], from_watcher["seat"], from_watcher["name"]) == \
                ("spectators", None, "Cy")
            assert from_watcher["author"].startswith("watcher:")
            next_frame(first, "chat")  # Bo's reaction
            said(second, type="chat", text="me")
            assert next_frame(first, "chat")["lines"][0]["text"] == "me"
            # A client arriving later is told the lines it may see, after its welcome.
            with client.websocket_connect(path) as late, client.websocket_connect(path) as back:
                hello(late, None)
                told = next_frame(late, "chat")
                assert told["history"] and len(told["lines"]) == 4
                # A spectator is known by their address: the same person in another tab
                # (or back after a drop) keeps their name for a mute, and their rate.
                again = said(late, type="react", emote="😂")["lines"][0]
                assert again["author"] == from_watcher["author"]
                hello(back, ann)
                told = next_frame(back, "chat")
                assert [x["channel"] for x in told["lines"]] == ["players"] * 3



def test_a_spectator_is_named_by_address_group_without_showing_it() -> None:
    def author(table: str, client: Any) -> str:
        connection = SimpleNamespace(websocket=SimpleNamespace(client=client))
        return chat.watcher_author(table, connection)  # type: ignore[arg-type]

    here = SimpleNamespace(host="203.0.113.9", port=50000)
    assert author("t1", here) == author("t1", SimpleNamespace(host="203.0.113.9", port=1))
    assert author("t1", here) != author("t1", SimpleNamespace(host="203.0.113.10", port=1))
    assert author("t1", here) != author("t2", here)  # not followed from table to table
    # One IPv6 /64 is one person, as for the rate limits; a client of another worker
    # comes with its group made there.
    assert author("t1", SimpleNamespace(host="2001:db8::1")) == \
        author("t1", SimpleNamespace(host="2001:db8::2")) == author("t1", "2001:db8::/64")
    assert "203" not in author("t1", here) and len(author("t1", here)) == len("watcher:") + 10


def test_chat_limits_are_refused_with_their_own_codes(sqlite_url: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chat, "CHAT_PER_S", 0.0)  # no refill: the burst alone decides
    with app_client(sqlite_url) as client:
        table_id, ann, _ = two_people(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "chat", "id": "early", "text": "hi"})
            assert ws.receive_json()["code"] == "auth.required"
            hello(ws, ann)
            cases = [({"text": "x" * (CHAT_MAX_CHARS + 1)}, "chat.too_long"),
                     ({"text": "   "}, "chat.invalid"),
                     ({"text": "one\ntwo"}, "chat.invalid"),
                     ({"text": "rtl \u202e trick"}, "chat.invalid"),
                     ({"type": "react", "emote": "💩"}, "chat.unknown_reaction"),
                     ({"text": "hi", "extra": 1}, "message.invalid"),
                     # A spectator's name follows the names' rules (no markup in a name).
                     ({"text": "hi", "name": "<script>"}, "message.invalid")]
            for fields, code in cases:
                answer = said(ws, **{"type": "chat", "id": "bad", **fields})
                assert (answer["type"], answer.get("code"), answer.get("id")) == \
                    ("error", code, "bad"), fields
            assert said(ws, type="chat", text="x" * CHAT_MAX_CHARS)["type"] == "chat"
            for _ in range(chat.CHAT_BURST - 1):
                assert said(ws, type="react", emote=REACTIONS[0])["type"] == "chat"
            refused = said(ws, type="chat", id="fast", text="one more")
            assert (refused["code"], refused["id"]) == ("chat.rate_limited", "fast")


def test_the_host_turns_chat_off_and_on(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table_id, ann, bo = two_people(client)
        path = f"/ws/tables/{table_id}"
        with client.websocket_connect(path) as host, client.websocket_connect(path) as guest, \
                client.websocket_connect(path) as watcher:
            hello(host, ann)
            hello(guest, bo)
            hello(watcher, None)
            assert said(guest, type="chat_setting", id="s",
                        enabled=False)["code"] == "chat.host_only"
            assert said(watcher, type="chat_setting", enabled=False)["code"] == "chat.host_only"
            host.send_json({"type": "chat_setting", "enabled": False})
            assert next_frame(guest, "table")["table"]["chat"] is False
            for ws, message in ((guest, {"type": "chat", "text": "hey"}),
                                (watcher, {"type": "react", "emote": "👍"}),
                                (host, {"type": "chat", "text": "quiet"})):
                assert said(ws, **message)["code"] == "chat.off"
            assert client.get(f"/api/tables/{table_id}").json()["chat"] is False
            host.send_json({"type": "chat_setting", "enabled": True})
            assert next_frame(guest, "table")["table"]["chat"] is True
            assert said(guest, type="chat", text="back")["type"] == "chat"


def test_the_talk_survives_a_restart_and_is_placed_in_the_replay(db_url: str) -> None:
    with app_client(db_url) as client:
        made = create_table(client, "timo", 2, {"target": 20}, grace_s=3600)
        table_id, token = made["table"]["id"], made["token"]
        path = f"/ws/tables/{table_id}"
        with client.websocket_connect(path) as ws, client.websocket_connect(path) as watcher:
            hello(ws, token)
            hello(watcher, None)
            assert said(ws, type="chat", text="before the deal")["lines"][0]["seq"] == 0
            said(watcher, type="chat", text="watching", name="Cy")
            start(client, table_id, token)
            frames = play_to_end_after(ws, moves=3)
            moved = max(f["seq"] for f in frames if f["type"] == "event")
            line = said(ws, type="react", emote="😮")["lines"][0]
            assert line["seq"] >= moved
        assert client.get(f"/api/tables/{table_id}/replay/chat").status_code == 409
    with app_client(db_url) as client:
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            snapshot = next_frame(ws, "snapshot")
            told = next_frame(ws, "chat")  # after the snapshot, what was said before
            assert [x.get("text") or x["emote"] for x in told["lines"] if not x["bot"]] == \
                ["before the deal", "😮"]
            said(ws, type="chat", text="after the restart")
            frames = play_to_end(ws, seen=[snapshot])
        moves = max(f["seq"] for f in frames if f["type"] in ("event", "snapshot"))
        every = client.get(f"/api/tables/{table_id}/replay/chat").json()["lines"]
    assert [x["n"] for x in every] == list(range(1, len(every) + 1))
    lines = [x for x in every if not x["bot"]]  # the bots' reactions: see below
    assert len(lines) == 4
    assert [x["channel"] for x in lines] == ["players", "spectators", "players", "players"]
    assert [x["seq"] for x in lines][:2] == [0, 0]
    assert lines[2]["seq"] == line["seq"] and lines[3]["seq"] >= line["seq"]
    assert all(0 <= x["seq"] <= moves for x in lines)


def play_to_end_after(ws: WebSocketTestSession, moves: int) -> list[dict[str, Any]]:
    """Play the seat's first moves until ``moves`` moves are made at the table."""
    frames: list[dict[str, Any]] = []
    sent = 0
    while True:
        frame = ws.receive_json()
        frames.append(frame)
        if frame["type"] not in ("snapshot", "event"):
            continue
        if frame["seq"] >= moves:
            return frames
        legal = frame["view"]["legal"]
        if legal:
            sent += 1
            ws.send_json({"type": "action", "id": f"m{sent}", "version": frame["version"],
                          "kind": legal[0]["kind"], "payload": legal[0]["payload"]})


def test_a_spectator_chats_through_another_worker_but_cannot_move() -> None:
    """A client served through the worker that does not run its table: its chat is
    forwarded (a spectator's too), re-encoded; a spectator's move is still refused
    there, and a chat line too long is refused before it crosses."""
    settings = guards.Settings(messages_per_second=1e6, message_burst=1_000_000)
    guard = guards.ForwardGuard(settings)
    guard.welcomed, guard.seated = True, False
    onward, answer = guard.check(json.dumps({"type": "chat", "text": " hi ", "name": "Cy"}))
    assert answer is None and onward is not None
    assert json.loads(onward) == {"type": "chat", "text": "hi", "name": "Cy"}
    onward, answer = guard.check(json.dumps({"type": "react", "emote": "🎉"}))
    assert answer is None and json.loads(onward or "")["emote"] == "🎉"
    _, answer = guard.check(json.dumps({"type": "action", "id": "m", "kind": "draw"}))
    assert answer.code == "auth.spectator"
    _, answer = guard.check(json.dumps({"type": "chat", "id": "l", "text": "y" * 999}))
    assert (answer.code, answer.id) == ("chat.too_long", "l")


class _Scores:
    """A game reduced to what the reactions read: running scores."""

    scores_by_round = True

    def running_scores(self, state: tuple[int, ...]) -> tuple[int, ...]:
        return state


def _reactions(seed: int) -> tuple[BotReactions, list[tuple[int, str]]]:
    sent: list[tuple[int, str]] = []
    bots = BotReactions(_Scores(), seed, lambda: [1, 2],  # type: ignore[arg-type]
                        lambda seat, emote: sent.append((seat, emote)), lambda: True)
    return bots, sent


def test_bots_react_sparingly_and_alike_for_a_seed() -> None:
    def run(seed: int) -> list[tuple[int, str]]:
        bots, sent = _reactions(seed)
        bots.track((0, 0, 0))
        for move in range(200):  # bot 1 gains a lot, bot 2 loses, person 0 too
            bots.after_move((0 - move, 10 * (move + 1), -5 * (move + 1)))
        bots.at_end(frozenset({1}))
        return sent

    sent = run(7)
    assert sent == run(7)  # the table's seed decides
    assert 0 < len(sent) - 1 <= 200 // REACT_EVERY + 1
    assert sent[-1] == (1, "🎉")  # the winning bot cheers at the end
    assert all(seat in (1, 2) for seat, _ in sent)
    assert {emote for _, emote in sent[:-1]} <= {"👍", "😮"}
    quiet, sent = _reactions(7)
    quiet.track((0, 0, 0))
    for _ in range(50):
        quiet.after_move((0, 0, 0))  # no score moves: no reaction
    assert sent == []


def test_a_bot_reacts_once_the_game_is_over(sqlite_url: str) -> None:
    with app_client(sqlite_url, bot_reactions=True) as client:
        made = create_table(client, "timo", 2, {"target": 20})
        table_id, token = made["table"]["id"], made["token"]
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            result = play_to_end(ws)[-1]["table"]["result"]
            # (A reaction to a score during the game may still come first.)
            while (last := next_frame(ws, "chat")["lines"][0])["emote"] not in ("🎉", "🤝"):
                pass
        assert (last["bot"], last["seat"], last["channel"]) == (True, 1, "players")
        assert last["emote"] == ("🎉" if 1 in result["winners"] else "🤝")
        lines = client.get(f"/api/tables/{table_id}/replay/chat").json()["lines"]
        assert last in lines
        assert all(x["bot"] and x["emote"] in REACTIONS and x["text"] is None for x in lines)


def test_bots_stay_quiet_while_chat_is_off() -> None:
    sent: list[tuple[int, str]] = []
    bots = BotReactions(_Scores(), 1, lambda: [1],  # type: ignore[arg-type]
                        lambda seat, emote: sent.append((seat, emote)), lambda: False)
    bots.track((0, 0))
    for move in range(40):
        bots.after_move((0, 100 * move))
    bots.at_end(frozenset({1}))
    assert sent == []
