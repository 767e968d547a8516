"""A table never stalls: its timers fire even when the wall clock lags its sleeps, and a
bot move the game refuses or a bot that crashes is followed by another look, not by
silence. A stalled table leaves the client waiting for a frame forever: each test's
timeout turns that into a failure."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

import twintable.server.clock as clock
from tests.server.client import app_client, create_table, hello, play_to_end, start, until
from tests.server.test_play import SHORT, twinit_chooser
from twintable.bots.base import RandomBot
from twintable.bots.registry import bot_factories
from twintable.core.types import Action


@pytest.mark.timeout(90)
def test_timers_fire_when_the_wall_clock_runs_slower_than_the_sleeps(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # NTP may slew the wall clock against the monotonic clock the table sleeps on; here it
    # runs 1% slow, so every timer wakes a little before its deadline by the wall clock.
    real_now_ms, origin = clock.now_ms, clock.now_ms()
    monkeypatch.setattr(clock, "now_ms",
                        lambda: origin + int((real_now_ms() - origin) * 0.99))
    with app_client(sqlite_url, realtime_bot_pace=0.05) as client:  # bots: human pace / 20
        joined = create_table(client, "twinz", 4, SHORT["twinz"])
        table_id = joined["table"]["id"]
        start(client, table_id, joined["token"])
        with client.websocket_connect(f"/ws/tables/{table_id}") as player:
            hello(player, joined["token"])
            play_to_end(player)
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"


class FirstMoveIllegal:
    """Proposes a move the game refuses the first time it is asked, then plays randomly."""

    name = "random"

    def __init__(self) -> None:
        self.refusals = 0

    def act(self, view: Any, rng: random.Random) -> Action | None:
        if not view.legal:
            return None
        if self.refusals == 0:
            self.refusals += 1
            return Action(view.viewer, "play", {"card": 999})
        return rng.choice(view.legal)


def play_against(sqlite_url: str, game_id: str, options: dict[str, Any], bot: Any,
                 choose: Any = None) -> str:
    """A person plays a two-seat table to its end against ``bot``: the table's status."""
    with app_client(sqlite_url, realtime_bot_pace=0.05) as client:
        joined = create_table(client, game_id, 2, options,
                              seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        table_id = joined["table"]["id"]
        server = client.app.state.server  # type: ignore[attr-defined]
        server.tables[table_id].automation.bots[1] = bot
        start(client, table_id, joined["token"])
        with client.websocket_connect(f"/ws/tables/{table_id}") as player:
            hello(player, joined["token"])
            play_to_end(player, choose)
        return str(client.get(f"/api/tables/{table_id}").json()["status"])


@pytest.mark.timeout(60)
def test_a_refused_bot_move_is_followed_by_another_look(sqlite_url: str) -> None:
    bot = FirstMoveIllegal()
    assert play_against(sqlite_url, "timo", {"target": 1}, bot) == "finished"
    assert bot.refusals == 1


class Crashes:
    """A bot with a bug: every move it thinks about raises."""

    name = "random"

    def __init__(self) -> None:
        self.crashes = 0

    def act(self, view: Any, rng: random.Random) -> Action | None:
        self.crashes += 1
        raise IndexError("a bug in the bot")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("game_id", ["timo", "twinit"])  # turn-based, real-time
def test_a_bot_that_raises_is_logged_and_its_seat_plays_on(
        sqlite_url: str, caplog: pytest.LogCaptureFixture, game_id: str) -> None:
    options, choose = ({"target": 1}, None) if game_id == "timo" else (
        {"sets_to_win": 1}, twinit_chooser())
    bot = Crashes()
    assert play_against(sqlite_url, game_id, options, bot, choose) == "finished"
    assert bot.crashes > 0
    failures = [r for r in caplog.records if r.getMessage().startswith("bot failed")]
    assert len(failures) == bot.crashes and failures[0].exc_info is not None


@pytest.mark.timeout(60)
def test_a_table_of_bots_plays_on_after_a_write_whose_fate_was_unknown(
        sqlite_url: str) -> None:
    # The database committed a bot's move, then the connection broke before it said so
    # (a network partition does that): the table reads its log back before the next move,
    # finds the move there and plays on from it. Nobody else is at the table to wake it.
    with app_client(sqlite_url) as client:
        joined = client.post("/api/tables", json={
            "game": "timo", "players": 3, "display_name": "Ann", "options": {"target": 1},
            "grace_s": 0, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                                    {"kind": "bot", "bot": "random"}]}).json()
        table_id = joined["table"]["id"]
        store = client.app.state.server.store  # type: ignore[attr-defined]
        real_append = store.append_action
        broken: list[int] = []

        async def commits_then_breaks(table: str, action: Any, fence: Any = None) -> None:
            await real_append(table, action, fence)
            if not broken and action.seq >= 3:
                broken.append(action.seq)
                raise OSError("the connection broke after the commit")

        store.append_action = commits_then_breaks
        start(client, table_id, joined["token"])
        status = "running"
        for _ in range(300):
            status = client.get(f"/api/tables/{table_id}").json()["status"]
            if status == "finished":
                break
            time.sleep(0.1)
        assert broken and status == "finished", (broken, status)


@pytest.mark.timeout(60)
def test_a_bot_slow_to_make_leaves_the_server_answering(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Twinz's word bots load a language model when first made (a second or more): made
    # on the event loop, they froze every table of the server meanwhile, and a page
    # waiting for its new table timed out beside a CPU load.
    released = threading.Event()
    made_in: list[str] = []

    def slow_bot() -> RandomBot:
        made_in.append(threading.current_thread().name)
        released.wait(30)
        return RandomBot()

    monkeypatch.setattr("twintable.server.automation.bot_factories",
                        lambda entry: bot_factories(entry) | {"random": slow_bot})
    with app_client(sqlite_url) as client:
        joined = create_table(client, "timo", 2, {"target": 1},
                              seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        table_id = joined["table"]["id"]
        start(client, table_id, joined["token"])
        with client.websocket_connect(f"/ws/tables/{table_id}") as player:
            hello(player, joined["token"])
            until(lambda: bool(made_in))
            # The bot is being made, and the server goes on answering meanwhile.
            assert client.get(f"/api/tables/{table_id}").json()["status"] == "running"
            assert client.get("/healthz").status_code == 200
            released.set()
            play_to_end(player)
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"
    # In the event loop's worker threads (asyncio's default executor names them so).
    assert made_in and all(name.startswith("asyncio_") for name in made_in), made_in
