"""Issue #14: at a web table, Timo's bots keep people's pace in the TIMO! races, so a
person can catch a bot that forgot to call, and bots call and catch after their level's
reaction time instead of at once."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tests.server.client import Player, app_client, create_table, hello, start
from twintable.bots.registry import bot_factories
from twintable.games.timo import bots as timo_bots
from twintable.games.timo.bots import REFLEXES, Reflexes
from twintable.games.timo.plugin import entry as timo_entry
from twintable.games.timo.rules import CALL, CATCH, TimoGame
from twintable.games.timo.state import NOBODY

FORGETFUL = Reflexes(forget=1.0, recall=0.0, recall_ms=2600, notice=0.0, catch_ms=2800,
                     turn_ms=1500)


def careful(view: dict[str, Any]) -> dict[str, Any]:
    """A person who catches whenever they can and always calls TIMO! with their play."""
    legal = view["legal"]
    for action in legal:
        if action["kind"] == "catch":
            return action  # type: ignore[no-any-return]
    return next((a for a in legal if a["payload"].get("timo")), legal[0])  # type: ignore[no-any-return]


def test_a_person_catches_a_bot_that_forgot_timo(sqlite_url: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(REFLEXES, "random", FORGETFUL)
    # A tenth of people's pace: the bot's turn takes about 150 ms, the person is faster.
    # A long game, watched until the first catch: the bot reaches one card in most rounds.
    with app_client(sqlite_url, bot_delay_ms=70) as client:
        joined = create_table(client, "timo", 2, {"target": 500},
                              seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        table_id, token = joined["table"]["id"], joined["token"]
        start(client, table_id, token)
        events: list[dict[str, Any]] = []
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            player = Player(ws.send_json, careful)
            while not any(e["kind"] == "caught" for e in events):
                frame = ws.receive_json()
                if frame["type"] == "table" and frame["table"]["status"] == "finished":
                    break
                if frame["type"] == "event":
                    events += frame["events"]
                player.feed(frame)
    caught = [e for e in events if e["kind"] == "caught"]
    assert caught, "the bot always forgets TIMO!: the person must have caught it"
    assert caught[0]["data"] == {"seat": 1, "by": 0}
    assert not any(e["kind"] == "timo_called" and e["data"]["seat"] == 1 for e in events)


def test_bots_take_a_persons_time_to_call_and_to_catch() -> None:
    """The moments the table schedules: a call, a catch or a turn after the level's
    reaction time (log-normal around its median), never at once."""
    game = TimoGame()
    rng = random.Random(5)
    state = game.new_state(game.resolve_options({}), 3, 11)
    state.exposed = 1  # seat 1 played its last-but-one card without calling
    entry = timo_entry()
    bot = bot_factories(entry)["heuristic"]()
    reflexes = REFLEXES["heuristic"]
    calls, catches, turns = [], [], []
    for _ in range(400):
        own = entry.plan(bot, game.view(state, 1), rng, 0)
        other = entry.plan(bot, game.view(state, 2), rng, 0)
        if own is not None and own[1].kind == CALL:
            calls.append(own[0])
        if other is not None and other[1].kind == CATCH:
            catches.append(other[0])
    state.exposed = NOBODY
    for _ in range(200):
        moment = entry.plan(bot, game.view(state, state.turn), rng, 0)
        assert moment is not None and moment[1].kind not in (CALL, CATCH)
        turns.append(moment[0])
        assert entry.plan(bot, game.view(state, (state.turn + 1) % 3), rng, 0) is None

    def median(values: list[int]) -> float:
        return sorted(values)[len(values) // 2]

    # Some chances are missed (the level's recall and notice rates), the rest are timed.
    assert 0.45 < len(calls) / 400 < 0.75 and 0.65 < len(catches) / 400 < 0.85
    assert 0.8 < median(calls) / reflexes.recall_ms < 1.25
    assert 0.8 < median(catches) / reflexes.catch_ms < 1.25
    assert 0.8 < median(turns) / reflexes.turn_ms < 1.25
    assert min(calls + catches + turns) > 300


def test_at_peoples_pace_a_bots_turn_takes_a_persons_time(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the default pace the table waits for the bot's drawn thinking time (here its
    median is set to 600 ms to keep the test short) before the bot moves."""
    monkeypatch.setitem(REFLEXES, "random", Reflexes(
        forget=0.0, recall=0.0, recall_ms=600, notice=0.0, catch_ms=600, turn_ms=600,
        spread=0.01))
    drawn: list[int] = []
    original = timo_bots.turn_delay

    def recorded(bot: Any, rng: random.Random) -> int:
        drawn.append(original(bot, rng))
        return drawn[-1]

    monkeypatch.setattr(timo_bots, "turn_delay", recorded)
    with app_client(sqlite_url, bot_delay_ms=700) as client:
        joined = create_table(client, "timo", 2, {"target": 20},
                              seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        table_id, token = joined["table"]["id"], joined["token"]
        start(client, table_id, token)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            welcome = hello(ws, token)
            player = Player(ws.send_json, careful)
            bots_turn_since: float | None = None
            while True:
                frame = ws.receive_json()
                if frame["type"] == "event" and frame["seat"] == 1 and bots_turn_since:
                    break
                # The bot's turn, as the person's move hands it over.
                if frame["type"] == "event" and frame["seat"] == 0 \
                        and bots_turn_since is None and frame["view"]["turn"] == 1:
                    bots_turn_since = time.monotonic()
                player.feed(frame)  # the person plays until the bot's turn comes
            waited = time.monotonic() - bots_turn_since
    assert welcome["seat"] == 0 and drawn
    assert waited >= 0.35, f"the bot moved {waited:.3f} s after its turn came"
