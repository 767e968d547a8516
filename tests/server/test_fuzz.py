"""WebSocket fuzzing: random and mutated frames never break the server or the game."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.client import app_client, create_table, hello, play_to_end, start

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)


def mutate(message: dict[str, Any], rng: random.Random) -> str:
    """A valid-looking action with one thing broken, or plain garbage."""
    broken = dict(message)
    choice = rng.randrange(7)
    if choice == 0:
        broken.pop(rng.choice(list(broken)))
    elif choice == 1:
        broken[rng.choice(list(broken))] = rng.choice([None, -1, "x" * 70, [], {}, 1e308])
    elif choice == 2:
        broken["payload"] = {rng.choice(["card", "cards", "count", "colour", "target"]):
                             rng.choice([999, -5, "blue", [1, 1], True, None])}
    elif choice == 3:
        broken["kind"] = rng.choice(["", "draw" * 10, "play", "pick", "buy", "🂡"])
    elif choice == 4:
        return json.dumps(broken)[: rng.randrange(1, 30)]
    elif choice == 5:
        return json.dumps([broken])
    else:
        broken["version"] = rng.choice([0, 10**9, -3, "1"])
    return json.dumps(broken)


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(garbage=st.lists(json_values, min_size=20, max_size=40), seed=st.integers(0, 2**16))
def test_random_and_mutated_frames_are_refused_and_the_game_goes_on(
        tmp_path_factory: Any, garbage: list[Any], seed: int) -> None:
    rng = random.Random(seed)
    db = tmp_path_factory.mktemp("fuzz") / "twintable.sqlite3"
    with app_client(f"sqlite+aiosqlite:///{db}") as client:
        joined = create_table(client, "timo", 3, {"target": 40})
        table_id, token = joined["table"]["id"], joined["token"]
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            template = {"type": "action", "id": "fuzz", "version": 0, "kind": "play",
                        "payload": {"card": 3}}
            frames = [json.dumps(value) for value in garbage]
            frames += [mutate(template, rng) for _ in range(40)]
            for index, text in enumerate(frames):
                # Each fuzz frame gets an id of its own when it has one, so none is a resend.
                if text.startswith('{"type": "action"') and '"id": "fuzz"' in text:
                    text = text.replace('"id": "fuzz"', f'"id": "fuzz{index}"')
                ws.send_text(text)
            answers, seen = 0, []
            while answers < len(frames):
                frame = ws.receive_json()
                seen.append(frame)
                if frame["type"] in ("error", "ack", "pong"):
                    answers += 1
            assert client.get("/healthz").status_code == 200
            play_to_end(ws, seen=seen)
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"
