"""Backup, restore and retention: a running server's database copied mid-game and played
on from the copy, on SQLite (online backup API) and PostgreSQL (pg_dump, pg_restore);
finished games' moves archived out of the live log with their replays still served."""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from websockets.sync.client import connect

from tests.server.client import (
    Player,
    app_client,
    create_table,
    free_port,
    hello,
    play_to_end,
    running_server,
    start,
    until,
)
from tests.server.conftest import fresh_postgres, require_postgres
from tests.server.test_play import frames_match_views
from tests.server.test_recovery import _frames, _play, _started_table
from twintable.cli import app
from twintable.server.storage.backup import backup_sqlite

runner = CliRunner()


def _said(output: str) -> str:
    return " ".join(output.split())


def _moves(database: Path, table_id: str) -> int:
    """The moves of a table in a database file opened alone; 0 when it has no tables."""
    with contextlib.closing(sqlite3.connect(database)) as connection:
        try:
            return int(connection.execute("SELECT count(*) FROM actions WHERE table_id = ?",
                                          (table_id,)).fetchone()[0])
        except sqlite3.OperationalError:  # no such table
            return 0


def _our_turn(frames_in: Iterator[dict[str, Any]],
              frames: list[dict[str, Any]]) -> dict[str, Any]:
    """Read until seat 0 is to move: the bots have moved and the table waits for us, so
    its state stands still. The frame that says so. Calling "Timo" and catching are legal
    off turn too, so a frame with legal moves alone does not say the bots are done."""
    def waits_for_us(frame: dict[str, Any] | None) -> bool:
        return frame is not None and frame["view"]["turn"] == 0 and any(
            move["kind"] not in ("call_timo", "catch") for move in frame["view"]["legal"])

    latest = next((frame for frame in reversed(frames)
                   if frame["type"] in ("snapshot", "event")), None)
    while not waits_for_us(latest):
        frame = next(frames_in)
        frames.append(frame)
        if frame["type"] in ("snapshot", "event"):
            latest = frame
    return latest


def test_a_running_servers_backup_restores_to_a_server_that_plays_the_game_on(
        tmp_path: Path) -> None:
    live, restored = tmp_path / "live.sqlite3", tmp_path / "restored.sqlite3"
    backup = tmp_path / "twintable.backup"
    port = free_port()
    with running_server(f"sqlite:///{live}", port):
        table_id, token = _started_table(f"http://127.0.0.1:{port}", "timo", 2,
                                         {"target": 20}, grace_s=3600)
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            _, before = _play(ws, 3)
            waiting = _our_turn(_frames(ws), before)
            made = runner.invoke(app, ["backup", str(backup), "--db", f"sqlite:///{live}"])
        assert made.exit_code == 0, made.output
        assert "backup written to" in _said(made.output)
    assert waiting["seq"] >= 3
    put = runner.invoke(app, ["restore", str(backup), "--db", f"sqlite:///{restored}"])
    assert put.exit_code == 0, put.output
    assert _said(put.output).startswith(f"restored {backup}: 1 tables, {waiting['seq']} moves")

    # A fresh server on the copy, in this process this time.
    with app_client(f"sqlite+aiosqlite:///{restored}") as client, \
            client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        after = play_to_end(ws)
        resumed = next(frame for frame in after if frame["type"] == "snapshot")
        # The copy is the table exactly as it stood: same move, same view.
        assert (resumed["seq"], resumed["view"]) == (waiting["seq"], waiting["view"])
        assert after[-1]["table"]["status"] == "finished"
        replay = client.get(f"/api/tables/{table_id}/replay").json()
    assert len(replay["actions"]) > waiting["seq"]
    assert frames_match_views("timo", replay, before, 0) > 0
    assert frames_match_views("timo", replay, after, 0) > 0


def _play_moves(ws: Any, moves: int, sent_before: int = 0) -> int:
    """Make ``moves`` acknowledged moves on a test client's socket, then wait for the
    bots' answers (our turn again, the table standing still). ``sent_before``: moves this
    seat sent on earlier sockets (an action id used again is answered as a resend); the
    moves it has sent in all."""
    player = Player(ws.send_json, limit=moves)
    player.sent = sent_before
    frames: list[dict[str, Any]] = []
    while player.acks < moves:
        frame = ws.receive_json()
        frames.append(frame)
        player.feed(frame)
    _our_turn(iter(ws.receive_json, None), frames)
    return player.sent


def test_a_backup_holds_what_a_plain_copy_of_the_file_misses(tmp_path: Path) -> None:
    """Issue 37: a copy of the SQLite file alone restored no tables, everything being in
    the WAL. The backup reads the file and the WAL together; and a restore onto the
    running server's database is refused in one line."""
    live = tmp_path / "live.sqlite3"
    port = free_port()
    with running_server(f"sqlite:///{live}", port):
        table_id, token = _started_table(f"http://127.0.0.1:{port}", "timo", 2,
                                         {"target": 20}, grace_s=3600)
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            _, frames = _play(ws, 2)
            moves = _our_turn(_frames(ws), frames)["seq"]
        assert Path(f"{live}-wal").stat().st_size > 0
        shutil.copyfile(live, tmp_path / "copy.sqlite3")
        summary = backup_sqlite(f"sqlite:///{live}", tmp_path / "backup.sqlite3")
        assert (summary.tables, summary.moves) == (1, moves)
        assert _moves(tmp_path / "copy.sqlite3", table_id) < moves
        assert _moves(tmp_path / "backup.sqlite3", table_id) == moves
        assert not Path(f"{tmp_path / 'backup.sqlite3'}-wal").exists()

        refused = runner.invoke(app, ["restore", str(tmp_path / "backup.sqlite3"), "--db",
                                      f"sqlite:///{live}", "--replace"])
        assert refused.exit_code == 1
        said = _said(refused.output)
        assert "in use by another Twin Table server" in said and "stop it before" in said
        assert refused.output.startswith("error:") and "Traceback" not in refused.output
        assert isinstance(refused.exception, SystemExit)


def test_restore_refuses_what_is_not_a_twin_table_database(tmp_path: Path) -> None:
    target = f"sqlite+aiosqlite:///{tmp_path / 'target.sqlite3'}"
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"not a database at all" * 100)
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    for path, reason in [(garbage, "is not a Twin Table database"),
                         (other, "no actions, alembic_version, seats, tables table"),
                         (tmp_path / "absent.sqlite3", "does not exist")]:
        result = runner.invoke(app, ["restore", str(path), "--db", target])
        assert result.exit_code == 1, (path, result.output)
        assert reason in _said(result.output), (path, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "target.sqlite3").exists() or \
        (tmp_path / "target.sqlite3").stat().st_size == 0

    # A real backup goes in; the second time, over tables, only with --replace.
    source = f"sqlite+aiosqlite:///{tmp_path / 'source.sqlite3'}"
    with app_client(source) as client:
        create_table(client, "timo", 2)
    assert runner.invoke(app, ["backup", str(tmp_path / "b.sqlite3"), "--db", source]
                         ).exit_code == 0
    assert runner.invoke(app, ["restore", str(tmp_path / "b.sqlite3"), "--db", target]
                         ).exit_code == 0
    again = runner.invoke(app, ["restore", str(tmp_path / "b.sqlite3"), "--db", target])
    assert again.exit_code == 1
    assert "already holds a Twin Table database (1 tables); give --replace" in _said(
        again.output)
    assert runner.invoke(app, ["restore", str(tmp_path / "b.sqlite3"), "--db", target,
                               "--replace"]).exit_code == 0


def test_postgresql_backup_and_restore_with_pg_dump_and_pg_restore(tmp_path: Path) -> None:
    require_postgres()
    dump = tmp_path / "twintable.dump"
    with fresh_postgres() as source, fresh_postgres() as target:
        with app_client(source) as client:
            joined = create_table(client, "timo", 2, {"target": 20})
            table_id = joined["table"]["id"]
            start(client, table_id, joined["token"])
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                hello(ws, joined["token"])
                play_to_end(ws)
            original = client.get(f"/api/tables/{table_id}/replay").json()
            # A server on the database: restoring over it is refused.
            refused = runner.invoke(app, ["restore", str(dump), "--db", source])
        made = runner.invoke(app, ["backup", str(dump), "--db", source])
        assert made.exit_code == 0, made.output
        assert "running: pg_dump --format=custom" in _said(made.output)
        assert refused.exit_code == 1
        assert "does not exist" in _said(refused.output)  # no dump yet at that point
        with app_client(source):
            busy = runner.invoke(app, ["restore", str(dump), "--db", source])
        assert busy.exit_code == 1
        assert "other sessions are connected to this database" in _said(busy.output)

        put = runner.invoke(app, ["restore", str(dump), "--db", target])
        assert put.exit_code == 0, put.output
        assert "pg_restore --clean --if-exists" in _said(put.output)
        with app_client(target) as client:
            assert client.get(f"/api/tables/{table_id}/replay").json() == original


def test_archived_games_replay_from_the_archive_and_leave_the_live_log(
        sqlite_url: str, tmp_path: Path) -> None:
    database = tmp_path / "twintable.sqlite3"
    folder = tmp_path / "twintable-archive"
    with app_client(sqlite_url) as client:
        done = create_table(client, "timo", 2, {"target": 20})
        done_id = done["table"]["id"]
        start(client, done_id, done["token"])
        with client.websocket_connect(f"/ws/tables/{done_id}") as ws:
            hello(ws, done["token"])
            play_to_end(ws)
        # The last move's frames come before the table is marked finished in the store:
        # the replay opens only then.
        until(lambda: client.get(f"/api/tables/{done_id}").json()["status"] == "finished")
        replay = client.get(f"/api/tables/{done_id}/replay").json()
        assert replay.get("type") != "error", replay
        steps = client.get(f"/api/tables/{done_id}/replay/steps?from=1&count=5").json()

        # Its person away for an hour: no stand-in moves for them meanwhile.
        playing = client.post("/api/tables", json={
            "game": "timo", "players": 2, "display_name": "Ann", "options": {"target": 500},
            "grace_s": 3600}).json()
        playing_id = playing["table"]["id"]
        start(client, playing_id, playing["token"])
        with client.websocket_connect(f"/ws/tables/{playing_id}") as ws:
            hello(ws, playing["token"])
            sent = _play_moves(ws, 2)
        running_moves = _moves(database, playing_id)

        # Beside the server that runs the other table.
        result = runner.invoke(app, ["archive", "--older-than", "0", "--db", sqlite_url])
        assert result.exit_code == 0, result.output
        assert "archived 1 finished games" in _said(result.output)
        assert _moves(database, done_id) == 0
        assert _moves(database, playing_id) == running_moves
        assert client.get(f"/api/tables/{done_id}/replay").json() == replay
        assert client.get(f"/api/tables/{done_id}/replay/steps?from=1&count=5").json() \
            == steps
        with client.websocket_connect(f"/ws/tables/{playing_id}") as ws:
            hello(ws, playing["token"])
            _play_moves(ws, 1, sent_before=sent)
        assert _moves(database, playing_id) > running_moves
    archive_files = list(folder.iterdir())
    assert [path.name for path in archive_files] == [
        f"moves-{time.strftime('%Y-%m', time.gmtime())}.sqlite3"]
    with sqlite3.connect(archive_files[0]) as connection:
        assert connection.execute("SELECT table_id, moves FROM games").fetchall() == [
            (done_id, len(replay["actions"]))]

    again = runner.invoke(app, ["archive", "--older-than", "0", "--db", sqlite_url])
    assert "archived 0 finished games" in _said(again.output)
    with app_client(sqlite_url) as client:  # a restart reads it from the archive too
        assert client.get(f"/api/tables/{done_id}/replay").json() == replay
        shutil.move(folder, tmp_path / "elsewhere")
        missing = client.get(f"/api/tables/{done_id}/replay")
        assert (missing.status_code, missing.json()["code"]) == (503, "storage.down")
    with app_client(sqlite_url, archive_dir=str(tmp_path / "elsewhere")) as client:
        assert client.get(f"/api/tables/{done_id}/replay").json() == replay


@pytest.mark.parametrize("bad", [["--older-than", "-1"], ["--older-than", "x"]])
def test_archive_takes_a_number_of_days(bad: list[str], sqlite_url: str) -> None:
    result = runner.invoke(app, ["archive", *bad, "--db", sqlite_url])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
