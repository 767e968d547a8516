"""Bad input over the WebSocket: a clear error, nothing changed, the connection kept; and
the hot path's quick reading and writing of messages agree with the protocol's models."""

from __future__ import annotations

import json
import random
from types import MappingProxyType
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tests.server.client import app_client, create_table, hello, start
from twintable.core.errors import RuleError
from twintable.core.game import Game
from twintable.core.registry import default_registry
from twintable.core.types import events_for
from twintable.server.protocol import (
    Ack,
    EventFrame,
    Snapshot,
    ack_frame,
    client_message,
    event_frame,
    quick_action,
    shared_keys,
    snapshot_frame,
)
from twintable.server.tables import ANSWERS_KEPT_PER_SEAT


def log_length(client: TestClient, table_id: str) -> int:
    server = client.app.state.server  # type: ignore[attr-defined]
    return len(client.portal.call(server.store.load_actions, table_id))  # type: ignore[union-attr]


def receive_until(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    for _ in range(200):
        frame = ws.receive_json()
        if frame["type"] == kind:
            return frame  # type: ignore[no-any-return]
    raise AssertionError(f"no {kind} frame")


@pytest.fixture
def table(sqlite_url: str) -> Any:
    with app_client(sqlite_url) as client:
        # Seat 1 is a human who never joins, so nothing moves unless the test moves it.
        joined = create_table(client, "timo", 2, {"target": 40},
                              seats=[{"kind": "human"}, {"kind": "human"}])
        table_id, token = joined["table"]["id"], joined["token"]
        other = client.post(f"/api/tables/{table_id}/join",
                            json={"display_name": "Bob"}).json()
        start(client, table_id, token)
        yield client, table_id, token, other["token"]


def test_protocol_errors_change_nothing_and_keep_the_connection(table: Any) -> None:
    client, table_id, token, _other_token = table
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "action", "id": "early", "version": 0, "kind": "draw"})
        assert ws.receive_json()["code"] == "auth.required"
        ws.send_json({"type": "hello", "token": "not-a-real-token-at-all"})
        assert ws.receive_json()["code"] == "auth.invalid"
        hello(ws, token)
        snapshot = receive_until(ws, "snapshot")
        version, view = snapshot["version"], snapshot["view"]
        before = log_length(client, table_id)
        cases: list[tuple[str, str]] = [
            ("{not json", "message.invalid_json"),
            (json.dumps({"type": "shout"}), "message.unknown_type"),
            (json.dumps([1, 2]), "message.unknown_type"),
            (json.dumps({"type": "action", "id": "x", "version": -1, "kind": "draw"}),
             "message.invalid"),
            (json.dumps({"type": "action", "id": "x", "version": 0, "kind": "draw",
                         "extra": 1}), "message.invalid"),
            ("x" * 20_000, "message.too_large"),
            (json.dumps({"type": "hello", "token": token}), "hello.repeated"),
            (json.dumps({"type": "action", "id": "s", "version": version, "kind": "draw",
                         "seat": 1}), "auth.wrong_seat"),
            (json.dumps({"type": "action", "id": "t", "version": version, "kind": "draw",
                         "table": "elsewhere"}), "auth.wrong_table"),
            (json.dumps({"type": "action", "id": "old", "version": version + 5,
                         "kind": "draw"}), "action.stale"),
            (json.dumps({"type": "action", "id": "bad", "version": version, "kind": "play",
                         "payload": {"card": 999}}),
             "card.not_in_hand" if view["turn"] == 0 else "turn.not_yours"),
            (json.dumps({"type": "action", "id": "odd", "version": version, "kind": "fly"}),
             "action.unknown"),
        ]
        for text, code in cases:
            ws.send_text(text)
            answer = receive_until(ws, "error")
            assert answer["code"] == code, (text[:60], answer)
            assert answer["message"]
        ws.send_json({"type": "ping"})
        assert receive_until(ws, "pong")["type"] == "pong"
        assert log_length(client, table_id) == before


def test_spectators_cannot_act(table: Any) -> None:
    client, table_id, _, _ = table
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, None)
        ws.send_json({"type": "action", "id": "a", "version": 0, "kind": "draw"})
        assert receive_until(ws, "error")["code"] == "auth.spectator"


def test_a_token_acts_only_at_its_own_table(table: Any) -> None:
    client, _table_id, token, _ = table
    other = create_table(client, "timo", 2, {"target": 40})
    with client.websocket_connect(f"/ws/tables/{other['table']['id']}") as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["code"] == "auth.invalid"


def test_a_resent_action_is_answered_once(table: Any) -> None:
    client, table_id, token, other_token = table
    with client.websocket_connect(f"/ws/tables/{table_id}") as first, \
            client.websocket_connect(f"/ws/tables/{table_id}") as second:
        hello(first, token)
        hello(second, other_token)
        snapshot = receive_until(first, "snapshot")
        seat = snapshot["view"]["turn"]
        ws = first if seat == 0 else second
        view = snapshot["view"] if seat == 0 else receive_until(second, "snapshot")["view"]
        action = {"type": "action", "id": "same", "version": snapshot["version"],
                  "kind": view["legal"][0]["kind"], "payload": view["legal"][0]["payload"]}
        before = log_length(client, table_id)
        ws.send_json(action)
        first_answer = receive_until(ws, "ack")
        ws.send_json(action)
        assert receive_until(ws, "ack") == first_answer
        assert log_length(client, table_id) == before + 1


def test_answers_kept_for_resends_are_bounded_per_seat(table: Any) -> None:
    client, table_id, _, _ = table
    live = client.app.state.server.get(table_id)
    for n in range(ANSWERS_KEPT_PER_SEAT + 10):
        live._remember(0, f"m{n}", f"answer {n}")
    live._remember(1, "other", "answer for seat 1")
    kept = live.answered[0]
    assert len(kept) == ANSWERS_KEPT_PER_SEAT
    assert "m9" not in kept and kept["m10"] == "answer 10"
    assert f"m{ANSWERS_KEPT_PER_SEAT + 9}" in kept
    assert live.answered[1] == {"other": "answer for seat 1"}


def test_rate_limit_refuses_floods_then_closes_abusers(sqlite_url: str) -> None:
    with app_client(sqlite_url, messages_per_second=5.0, message_burst=5,
                    abuse_limit=30) as client:
        joined = create_table(client, "timo", 2, {"target": 40})
        table_id = joined["table"]["id"]
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, None)
            codes = []
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(60):
                    ws.send_json({"type": "ping"})
                    frame = ws.receive_json()
                    while frame["type"] == "table":
                        frame = ws.receive_json()
                    codes.append(frame.get("code", frame["type"]))
            assert closed.value.code == 1008
        assert "pong" in codes and "rate.limited" in codes


def test_unknown_table_is_refused_with_a_close_code(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client, \
            client.websocket_connect("/ws/tables/nope") as ws:
        assert ws.receive_json()["code"] == "table.unknown"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_actions_after_the_end_are_refused(sqlite_url: str) -> None:
    from tests.server.client import play_to_end

    with app_client(sqlite_url) as client:
        joined = create_table(client, "timo", 2, {"target": 30})
        table_id, token = joined["table"]["id"], joined["token"]
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            play_to_end(ws)
            before = log_length(client, table_id)
            ws.send_json({"type": "action", "id": "late", "version": 0, "kind": "draw"})
            assert receive_until(ws, "error")["code"] == "game.over"
            assert log_length(client, table_id) == before


@pytest.mark.parametrize("game", list(default_registry()), ids=lambda g: g.id)
def test_frames_written_by_orjson_are_the_models_json(game: Game[Any]) -> None:
    """The hot path writes event, snapshot and ack frames without pydantic: they must be
    the protocol models' JSON, for every game's views and events."""
    rng = random.Random(3)
    players = max(game.min_players, 3)
    state = game.new_state({}, players, seed=5)
    for step in range(120):
        moves = [move for seat in sorted(game.to_act(state))
                 for move in game.legal_actions(state, seat)]
        if game.is_over(state) or not moves:
            break
        move = rng.choice(moves)
        try:
            events = game.apply(state, move.at(step * 50))
        except RuleError:
            continue
        viewers = [*range(players), None]
        shared, own = game.views_json(state, viewers)
        for viewer in viewers:
            shown = [e.to_json() for e in events_for(events, viewer)]
            view = game.view(state, viewer).to_json()
            quick = event_frame(step, state.version, move.seat, move.kind, shown, view)
            # ``missed`` is written only when true (a move told to a client coming back).
            model = EventFrame(seq=step, version=state.version, seat=move.seat,
                               kind=move.kind, events=shown, view=view
                               ).model_dump_json(exclude={"missed"})
            assert json.loads(quick) == json.loads(model)
            told_late = event_frame(step, state.version, move.seat, move.kind, shown, view,
                                    missed=True)
            assert json.loads(told_late) == EventFrame(
                seq=step, version=state.version, seat=move.seat, kind=move.kind,
                events=shown, view=view, missed=True).model_dump(mode="json")
            # As the server writes a move's frames: the keys all seats share written once.
            spliced = event_frame(step, state.version, move.seat, move.kind, shown,
                                  own[viewer], shared_keys(shared))
            assert json.loads(spliced, object_pairs_hook=once) == json.loads(model)
            assert snapshot_frame(step, state.version, view) == Snapshot(
                seq=step, version=state.version, view=view).model_dump_json()
    assert ack_frame("é\"x", 3, 4) == Ack(id="é\"x", seq=3, version=4).model_dump_json()


def once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object read with a check that it names no key twice."""
    keys = [key for key, _ in pairs]
    assert len(keys) == len(set(keys)), keys
    return dict(pairs)


ACTION_VALUES = (st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2)
                 | st.text(max_size=70) | st.dictionaries(st.text(max_size=3), st.integers())
                 | st.lists(st.integers(), max_size=2))


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(["type", "id", "version", "kind", "payload", "seat",
                                        "table", "other"]), ACTION_VALUES)
       | st.fixed_dictionaries({"type": st.just("action"), "id": ACTION_VALUES,
                                "kind": ACTION_VALUES},
                               optional={"version": ACTION_VALUES, "payload": ACTION_VALUES,
                                         "seat": ACTION_VALUES, "table": ACTION_VALUES}))
def test_the_quick_action_check_agrees_with_pydantic(data: dict[str, Any]) -> None:
    """A move the quick check passes is the very message pydantic reads from it; anything
    else is left to pydantic, whose refusal the client gets."""
    quick = quick_action(data)
    if quick is None:
        return
    assert client_message.validate_python(data) == quick


def test_frames_write_sets_and_tuples_as_the_models_do() -> None:
    view = {"seen": frozenset({3}), "pair": (1, 2), "names": {"é"}}
    assert json.loads(snapshot_frame(1, 2, view)) == json.loads(
        Snapshot(seq=1, version=2, view=view).model_dump_json())
    # A read-only mapping, which the models cannot write, is written as an object.
    assert json.loads(snapshot_frame(1, 2, {"options": MappingProxyType({"a": 1})}))[
        "view"] == {"options": {"a": 1}}
