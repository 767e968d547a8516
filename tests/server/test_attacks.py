"""Attacks at the server's edge, generated (issue #16): hostile HTTP bodies and WebSocket
frames never get a 5xx, never drop a socket without an error frame, never stall a table,
never touch another table, and never break a replay.

Hostile values are JSON *text* written by hand, since ``json.dumps`` would never write
them: NaN and Infinity, lone surrogates as ``\\ud800`` escapes, nesting thousands deep,
whole numbers of thousands of digits, strings past every limit, and plain wrong types.
While one table is attacked, two others play on the same server: a table of bots (its
only person away, so a stand-in plays for them) that must finish, and an honest player
whose every move must be acknowledged.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession

from tests.server.client import (
    app_client,
    auth,
    create_table,
    hello,
    is_over,
    play_to_end,
    start,
)

#: A hang (a socket that never answers) fails fast rather than at the suite's 300 s.
pytestmark = pytest.mark.timeout(120)

#: Where a hostile value goes in a frame or a body; replaced in the JSON text.
HOLE = "\x00hole\x00"
HOLE_JSON = json.dumps(HOLE)

SETTINGS = settings(deadline=None, max_examples=60, derandomize=True,
                    suppress_health_check=list(HealthCheck))


def fill(template: Any, hostile: str) -> str:
    """``template`` as JSON text, with the hostile text where the HOLE is."""
    return json.dumps(template).replace(HOLE_JSON, hostile)


# -- hostile JSON text -------------------------------------------------------------------
def _nested(depth: int, kind: str) -> str:
    return "[" * depth + "]" * depth if kind == "list" else '{"a":' * depth + "1" + "}" * depth


not_finite = st.sampled_from(["NaN", "-NaN", "Infinity", "-Infinity", "1e999", "-1e999",
                              "[NaN]", '{"k": Infinity}'])
lone_surrogates = st.integers(0xD800, 0xDFFF).flatmap(lambda code: st.sampled_from([
    f'"\\u{code:04x}"', f'"a\\u{code:04x}b"', f'{{"\\u{code:04x}": 1}}', f'["\\u{code:04x}"]']))
deep_nesting = st.builds(_nested, st.integers(17, 6_000), st.sampled_from(["list", "dict"]))
huge_numbers = st.builds(lambda digits, sign: sign + "9" * digits,
                         st.integers(19, 5_000), st.sampled_from(["", "-"]))
long_strings = st.integers(2_001, 20_000).map(lambda n: '"' + "y" * n + '"')
#: Valid JSON strings that PostgreSQL cannot store (NUL) or that disguise text.
odd_text = st.sampled_from(['"\\u0000"', '"a\\u0000b"', '"\\u202egnp.exe"', '"\\u200b"',
                            '"\\u0085"', '"\\ufeff"', '"\\u001b[31m"'])
wrong_types = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12) | st.integers(-(10**6), 10**6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=6).map(json.dumps)
#: Values no field accepts: each is refused wherever it is put.
beyond_limits = not_finite | lone_surrogates | deep_nesting | huge_numbers | long_strings
hostile = beyond_limits | odd_text | wrong_types


# -- bystanders: a table of bots and an honest player, on the same server --------------
class HonestPlayer:
    """A person at another table: one move at a time, each must be acknowledged."""

    def __init__(self, ws: WebSocketTestSession):
        self.ws = ws
        self.latest: dict[str, Any] | None = None
        self.moves = 0
        self.over = False

    def move(self) -> None:
        """One legal move, acknowledged (a stale answer after a race is chosen again)."""
        if self.over:
            return
        for _ in range(50):
            while self.latest is None or not self.latest["view"]["legal"]:
                self._read()
                if self.over:
                    return
            self.moves += 1
            choice = self.latest["view"]["legal"][0]
            message_id = f"honest{self.moves}"
            self.ws.send_json({"type": "action", "id": message_id,
                               "version": self.latest["version"], "kind": choice["kind"],
                               "payload": choice["payload"]})
            while (answer := self._read()) is None or answer.get("id") != message_id:
                pass
            if answer["type"] == "ack":
                return
            assert answer["code"] == "action.stale", answer  # never storage.failed
        raise AssertionError("the honest player's moves were never taken")

    def _read(self) -> dict[str, Any] | None:
        frame: dict[str, Any] = self.ws.receive_json()
        if frame["type"] in ("snapshot", "event"):
            self.latest = frame
            self.over = is_over(frame["view"])
        elif frame["type"] == "table" and frame["table"]["status"] == "finished":
            self.over = True
        return frame if frame["type"] in ("ack", "error") else None


@contextmanager
def bystanders(client: TestClient) -> Iterator[HonestPlayer]:
    """A self-playing table and an honest player's table; on exit, the first has finished,
    having played while the attack went on, and both replays load."""
    honest = create_table(client, "timo", 2, {"target": 500}, name="Honest")
    honest_id = honest["table"]["id"]
    start(client, honest_id, honest["token"])
    # Its creator never connects; with no grace a stand-in plays their seat from the start.
    response = client.post("/api/tables", json={
        "game": "timo", "players": 3, "display_name": "Away", "grace_s": 0,
        "options": {"target": 1000}})
    assert response.status_code == 201, response.text
    robot_id, robot_token = response.json()["table"]["id"], response.json()["token"]
    with client.websocket_connect(f"/ws/tables/{honest_id}") as ws:
        hello(ws, honest["token"])
        player = HonestPlayer(ws)
        start(client, robot_id, robot_token)
        attack_ms = (time.time() * 1000, 0.0)
        yield player
        attack_ms = (attack_ms[0], time.time() * 1000)
        player.move()
    finished_within(client, robot_id, seconds=60)
    replay = client.get(f"/api/tables/{robot_id}/replay")
    assert replay.status_code == 200
    assert any(attack_ms[0] <= action["t_ms"] <= attack_ms[1]
               for action in replay.json()["actions"]), "the bots did not play meanwhile"
    for table_id in (robot_id,) + ((honest_id,) if player.over else ()):
        assert client.get(f"/api/tables/{table_id}/replay").status_code == 200
        assert client.get(f"/api/tables/{table_id}/replay/views").status_code == 200


def finished_within(client: TestClient, table_id: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while client.get(f"/api/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, f"table {table_id} is stuck"
        time.sleep(0.05)


# -- HTTP ---------------------------------------------------------------------------------
CREATE = {"game": "timo", "players": 2, "display_name": "Ann", "options": {"target": 30}}
CREATE_HOLES = [
    {**CREATE, "x": HOLE}, {**CREATE, "game": HOLE}, {**CREATE, "players": HOLE},
    {**CREATE, "display_name": HOLE}, {**CREATE, "name": HOLE}, {**CREATE, "player_id": HOLE},
    {**CREATE, "options": HOLE}, {**CREATE, "options": {"target": HOLE}},
    {**CREATE, "options": {HOLE: 1}},
    {**CREATE, "options": {"x": HOLE}}, {**CREATE, "seats": HOLE},
    {**CREATE, "seats": [{"kind": "human"}, {"kind": "bot", "bot": HOLE}]},
    {**CREATE, "seats": [{"kind": "human"}, {"kind": "bot", "x": HOLE}]},
    {**CREATE, "turn_limit_s": HOLE}, {**CREATE, "grace_s": HOLE}, HOLE, [HOLE],
]
JOIN_HOLES = [{"display_name": "Bo", "x": HOLE}, {"display_name": HOLE},
              {"display_name": "Bo", "seat": HOLE}, {"display_name": "Bo", "player_id": HOLE},
              HOLE]
BOT_HOLES = [{"bot": HOLE}, {"bot": "random", "x": HOLE}, HOLE]
SEAT_PATHS = st.sampled_from(["1", "0", "-1", "2", "99999999999999999999", "9" * 5000,
                              "1.5", "nan", "%00", "%F0%9F%82%A1", "1e3", " 1"])
TABLE_PATHS = st.sampled_from(["%00", "a%00b", "x" * 300, "%ED%A0%80", "%F0%9F%82%A1",
                               "..%2F..%2Fetc", "%C0%80"])
CONTENT_TYPES = st.sampled_from(["application/json", "Application/JSON",
                                 "application/json; charset=utf-8", "text/plain",
                                 "application/merge-patch+json", None])


@st.composite
def http_attacks(draw: st.DrawFn) -> tuple[str, str, bytes, str | None]:
    """(method, path, body, content type): a lobby route given a hostile body, its seat
    and sometimes its table a hostile path segment (else the test puts its table in)."""
    route = draw(st.sampled_from(["create", "join", "put_bot", "delete_seat", "start", "leave",
                                  "rematch", "info", "replay", "replay_views"]))
    templates: list[Any] = {"create": CREATE_HOLES, "join": JOIN_HOLES,
                            "put_bot": BOT_HOLES}.get(route, [HOLE])
    if draw(st.integers(0, 9)) == 0:
        body = draw(st.binary(max_size=200))  # not even text
    else:
        body = fill(draw(st.sampled_from(templates)), draw(hostile)).encode()
    method, path = {"create": ("POST", "/api/tables"),
                    "join": ("POST", "/api/tables/{table}/join"),
                    "put_bot": ("PUT", "/api/tables/{table}/seats/{seat}/bot"),
                    "delete_seat": ("DELETE", "/api/tables/{table}/seats/{seat}"),
                    "start": ("POST", "/api/tables/{table}/start"),
                    "leave": ("POST", "/api/tables/{table}/leave"),
                    "rematch": ("POST", "/api/tables/{table}/rematch"),
                    "info": ("GET", "/api/tables/{table}"),
                    "replay": ("GET", "/api/tables/{table}/replay"),
                    "replay_views": ("GET", "/api/tables/{table}/replay/views")}[route]
    path = path.replace("{seat}", draw(SEAT_PATHS))
    if draw(st.integers(0, 3)) == 0:  # a table id no table has, or no database can hold
        path = path.replace("{table}", draw(TABLE_PATHS))
    return method, path, body, draw(CONTENT_TYPES)


def test_hostile_http_bodies_never_get_a_5xx_nor_disturb_other_tables(db_url: str) -> None:
    with app_client(db_url) as client, bystanders(client) as honest:
        lobby = create_table(client, "timo", 3, seats=[{"kind": "human"}] * 3)
        lobby_id, token = lobby["table"]["id"], lobby["token"]

        @SETTINGS
        @given(attack=http_attacks(), with_token=st.booleans())
        # Found at 400 examples: bytes no JSON encoding decodes got FastAPI's bare 400.
        @example(attack=("POST", "/api/tables", b"\x00" * 9, "application/json"),
                 with_token=False)
        def attack_once(attack: tuple[str, str, bytes, str | None], with_token: bool) -> None:
            method, path, body, content_type = attack
            headers = auth(token) if with_token else {}
            if content_type is not None:
                headers["content-type"] = content_type
            response = client.request(method, path.replace("{table}", lobby_id),
                                      content=body, headers=headers)
            assert response.status_code < 500, (path, body[:200], response.text[:500])
            if response.status_code >= 400 and response.status_code not in (404, 405):
                assert response.json()["type"] == "error", response.text  # not only routing
            honest.move()

        attack_once()
        # The lobby table itself was not broken: its description still reads.
        assert client.get(f"/api/tables/{lobby_id}").status_code == 200


def test_json_limits_apply_whatever_the_case_of_the_content_type(sqlite_url: str) -> None:
    """Routes parse a body as JSON whatever the case of its media type, so the edge must
    read it under the limits in every case: NaN in an option is refused as JSON, before
    any route sees it, not as a bad option."""
    with app_client(sqlite_url) as client:

        @SETTINGS
        @given(value=beyond_limits.filter(lambda v: "-NaN" not in v),  # not JSON at all
               content_type=st.sampled_from(
            ["application/json", "Application/JSON", "APPLICATION/JSON; charset=utf-8",
             "application/vnd.api+JSON"]))
        def post_once(value: str, content_type: str) -> None:
            body = fill({**CREATE, "options": {"target": HOLE}}, value).encode()
            response = client.post("/api/tables", content=body,
                                   headers={"content-type": content_type})
            assert response.status_code in (413, 422), response.text
            if response.status_code == 422:
                assert response.json()["code"].startswith("json."), (content_type,
                                                                       response.text)

        post_once()


# -- WebSocket ----------------------------------------------------------------------------
def frame_templates(move: dict[str, Any], version: int) -> list[Any]:
    """Frames with a hole: the attacker's own legal move with something hostile in it,
    and every other kind of message."""
    action = {"type": "action", "id": "a", "version": version, "kind": move["kind"],
              "payload": move["payload"]}
    templates: list[Any] = [
        {**action, "payload": {**move["payload"], "x": HOLE}},
        {**action, "payload": HOLE}, {**action, "id": HOLE}, {**action, "version": HOLE},
        {**action, "kind": HOLE}, {**action, "seat": HOLE}, {**action, "table": HOLE},
        {**action, "x": HOLE}, {**action, "payload": {**move["payload"], HOLE: 1}},
        {**action, HOLE: 1},
        {"type": "ping", "x": HOLE}, {"type": HOLE}, {"type": "hello", "token": HOLE},
        {"type": "hello", "protocol": HOLE}, HOLE, [HOLE],
    ]
    # Always as many templates (the strategy must draw the same way whatever the move).
    key = next(iter(move["payload"]), "card")
    templates.append({**action, "payload": {**move["payload"], key: HOLE}})
    return templates


class Attacker:
    """The attacking seat's socket: what it may play now, and every frame seen."""

    def __init__(self, ws: WebSocketTestSession):
        self.ws = ws
        self.latest: dict[str, Any] | None = None

    def legal(self) -> tuple[dict[str, Any], int]:
        if self.latest is None or not self.latest["view"]["legal"]:
            return {"kind": "draw", "payload": {}}, self.latest["version"] if self.latest else 0
        return self.latest["view"]["legal"][0], self.latest["version"]

    def wait_for_turn(self) -> None:
        while self.latest is None or not self.latest["view"]["legal"]:
            frame = self.ws.receive_json()
            if frame["type"] in ("snapshot", "event"):
                self.latest = frame

    def answers_until_pong(self) -> list[dict[str, Any]]:
        """Send a ping and read up to its pong: the answers (acks, errors) on the way."""
        self.ws.send_json({"type": "ping"})
        answers = []
        while (frame := self.ws.receive_json())["type"] != "pong":
            if frame["type"] in ("snapshot", "event"):
                self.latest = frame
            elif frame["type"] in ("ack", "error"):
                answers.append(frame)
            else:
                assert frame["type"] in ("table", "welcome"), frame
        return answers


@st.composite
def ws_attacks(draw: st.DrawFn, attacker: Attacker) -> tuple[str, str | bytes, bool]:
    """("text" or "bytes", the frame, whether it may be a fair move). A value past the
    limits is refused wherever it is; odd text or a plain value may make a fair move (a
    bidi override as a move's id, ``null`` as its optional seat, ``0`` as its version)."""
    move, version = attacker.legal()
    if draw(st.integers(0, 9)) == 0:
        return "bytes", draw(st.binary(min_size=1, max_size=300)), False
    fair = draw(st.integers(0, 2)) == 0
    value = draw(odd_text | wrong_types if fair else beyond_limits)
    text = fill(draw(st.sampled_from(frame_templates(move, version))), value)
    if draw(st.integers(0, 9)) == 0:
        return "bytes", text.encode(), fair
    return "text", text, fair


def test_hostile_frames_are_each_refused_and_nothing_else_is_disturbed(db_url: str) -> None:
    with app_client(db_url) as client, bystanders(client) as honest:
        joined = create_table(client, "timo", 2, {"target": 60})
        table_id, token = joined["table"]["id"], joined["token"]
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            attacker = Attacker(ws)
            attacker.answers_until_pong()

            @SETTINGS
            @given(data=st.data())
            def attack_once(data: st.DataObject) -> None:
                how, frame, may_pass = data.draw(ws_attacks(attacker))
                if how == "bytes":
                    assert isinstance(frame, bytes)
                    ws.send_bytes(frame)
                else:
                    assert isinstance(frame, str)
                    ws.send_text(frame)
                # The socket is still open (a pong comes back), and the hostile frame got
                # exactly one answer: an error (nothing was played), never the server's own
                # failure.
                answers = attacker.answers_until_pong()
                assert [a["type"] for a in answers] in (
                    [["error"], ["ack"]] if may_pass else [["error"]]), (frame[:300], answers)
                assert answers[0].get("code") != "storage.failed", (frame[:300], answers)
                honest.move()

            attack_once()
            # The attacked game is not stuck: played honestly, it ends.
            play_to_end(ws, seen=[attacker.latest] if attacker.latest else None)
        for path in ("", "/replay", "/replay/views"):
            response = client.get(f"/api/tables/{table_id}{path}")
            assert response.status_code == 200, (path, response.text[:300])
        assert "NaN" not in client.get(f"/api/tables/{table_id}/replay").text


def test_a_nul_in_a_move_id_or_a_table_path_is_refused_not_a_storage_failure(
        db_url: str) -> None:
    """Found by the attacks above on PostgreSQL, which stores no NUL: a legal move whose id
    held one failed as ``storage.failed`` (a traceback, a failed log batch), and
    ``GET /api/tables/%00`` answered 500."""
    with app_client(db_url) as client:
        joined = create_table(client, "timo", 2, {"target": 30})
        table_id, token = joined["table"]["id"], joined["token"]
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            attacker = Attacker(ws)
            attacker.wait_for_turn()
            move, version = attacker.legal()
            ws.send_text(json.dumps({"type": "action", "id": "a\x00b", "version": version,
                                     "kind": move["kind"], "payload": move["payload"]}))
            answers = attacker.answers_until_pong()
            assert [(a["type"], a["code"]) for a in answers] == [("error", "json.bad_unicode")]
            ws.send_json({"type": "action", "id": "a", "version": version,
                          "kind": move["kind"], "payload": move["payload"]})
            assert [a["type"] for a in attacker.answers_until_pong()] == ["ack"]
        for path in ("%00", "a%00b", "%00/replay", "%00/replay/views"):
            response = client.get(f"/api/tables/{path}")
            assert response.status_code == 422, (path, response.text)
        response = client.post("/api/tables/%00/rematch", headers=auth(token))
        assert response.status_code == 422, response.text
