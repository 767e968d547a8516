"""Benchmark: how fast ``twintable archive`` moves finished games out of a SQLite live
database (docs/deploy.md, "Backup, restore and retention").

A fresh database (migrated as the server does) gets ``--games`` finished games of Timo,
each the moves of a real random playout of the default rules (so real lengths and
payloads), with their last moves a year ago, and ``--running`` running games that must
stay; the archive then runs as the command runs it. The baseline, in the same process on
an identical copy, deletes the same moves without archiving them: the ratio is what
keeping replays readable costs over dropping them.

It prints games and moves per second, games per day, the live log's bytes per move,
the archive's bytes per move, and the ratio to the baseline.

Usage: python bench/archive_rate.py [--games 2000] [--running 50] [--playouts 20]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from twintable.core.registry import default_registry
from twintable.server.storage.archive import archive_finished
from twintable.server.storage.store import Store

YEAR_MS = 365 * 86_400_000


def playouts(count: int) -> list[list[tuple[int, str, dict[str, Any]]]]:
    """The moves (seat, kind, payload) of ``count`` random two-player Timo games."""
    game = default_registry().get("timo")
    options = game.resolve_options({})
    games = []
    for seed in range(count):
        rng = random.Random(seed)
        state = game.new_state(options, 2, seed)
        moves = []
        while not game.is_over(state):
            seat = min(game.to_act(state))
            action = rng.choice(list(game.legal_actions(state, seat)))
            game.apply(state, action)
            moves.append((action.seat, action.kind, dict(action.payload)))
        games.append(moves)
    return games


def fill(path: Path, finished: int, running: int,
         logs: list[list[tuple[int, str, dict[str, Any]]]]) -> int:
    """A migrated database with ``finished`` old finished games and ``running`` running
    ones; the finished games' moves."""
    store = Store(f"sqlite+aiosqlite:///{path}")

    async def migrate() -> None:
        await store.migrate()
        await store.close()

    asyncio.run(migrate())
    old_ms = int(time.time() * 1000) - YEAR_MS
    written = 0
    with sqlite3.connect(path) as connection:
        for index in range(finished + running):
            table_id = f"t{index:015d}"
            status = "finished" if index < finished else "running"
            connection.execute(
                "INSERT INTO tables (id, game, name, options, seed, players, status, "
                "creator_hash, created_ms, result, settings, fence) VALUES "
                "(?, 'timo', 'bench', '{}', ?, 2, ?, 'x', ?, NULL, NULL, 0)",
                (table_id, index, status, old_ms))
            log = logs[index % len(logs)]
            connection.executemany(
                "INSERT INTO actions (table_id, seq, seat, kind, payload, t_ms, client_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(table_id, seq, seat, kind, orjson.dumps(payload).decode(),
                  old_ms + seq * 3000, f"p{seq}") for seq, (seat, kind, payload)
                 in enumerate(log, start=1)])
            written += len(log) if status == "finished" else 0
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--running", type=int, default=50)
    parser.add_argument("--playouts", type=int, default=20)
    args = parser.parse_args()
    logs = playouts(args.playouts)
    with tempfile.TemporaryDirectory() as scratch:
        live, baseline = Path(scratch) / "live.sqlite3", Path(scratch) / "baseline.sqlite3"
        moves = fill(live, args.games, args.running, logs)
        with sqlite3.connect(live) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            pages = connection.execute("PRAGMA page_count").fetchone()[0]
            total_moves = connection.execute("SELECT count(*) FROM actions").fetchone()[0]
        live_bytes_per_move = pages * 4096 / total_moves
        shutil.copyfile(live, baseline)

        began = time.perf_counter()
        with sqlite3.connect(baseline) as connection:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("DELETE FROM actions WHERE table_id IN (SELECT id FROM tables "
                                "WHERE status = 'finished')")
        deleted_s = time.perf_counter() - began

        folder = Path(scratch) / "archive"
        cutoff_ms = int(time.time() * 1000) - 30 * 86_400_000
        run = asyncio.run(archive_finished(f"sqlite+aiosqlite:///{live}", folder, cutoff_ms))
        with sqlite3.connect(live) as connection:
            left = connection.execute("SELECT count(*) FROM actions").fetchone()[0]
        archive_bytes = sum(path.stat().st_size for path in folder.iterdir())

    assert run.games == args.games and run.moves == moves, (run, moves)
    assert left == total_moves - moves, "running games' moves must stay"
    per_second = run.games / run.seconds
    print(f"{run.games} finished games ({run.moves} moves, {run.moves / run.games:.0f} a game)"
          f" archived in {run.seconds:.2f} s into {len(run.files)} files")
    print(f"  {per_second:,.0f} games/s, {run.moves / run.seconds:,.0f} moves/s, "
          f"{per_second * 86_400:,.0f} games/day of archiving time")
    print(f"  live log {live_bytes_per_move:.0f} B a move; archive "
          f"{archive_bytes / run.moves:.1f} B a move")
    print(f"  baseline (delete without archiving): {deleted_s:.2f} s; archiving costs "
          f"{run.seconds / deleted_s:.1f}x the delete")


if __name__ == "__main__":
    main()
