"""The move archive: finished games' move logs taken out of the live database into
compressed archive files (``twintable archive``), and read back for their replays.

An archive file is a small SQLite database of its own, one per calendar month (UTC) of
the games' last moves (``moves-2025-03.sqlite3``), holding one row per game: the game's
table row and its moves, as zlib-compressed JSON. SQLite rather than a JSON Lines file
per month because a replay reads one game: the primary key finds it without
decompressing the whole month.

Order of writes: a batch of games is committed to its archive files first (rollback
journal, ``synchronous=FULL``: on disk once committed), and only then are their moves
deleted from the live ``actions`` table, in one transaction with the rows of
``archived_games`` that tell the server which file holds them. A run stopped half way
leaves a game's moves in both places, never in neither; the next run archives it again
and replaces its row in the file.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Text, cast, delete, event, func, insert, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine

from twintable.server.storage.models import ActionRow, ArchivedGameRow, TableRow
from twintable.server.storage.moves import StoredAction
from twintable.server.storage.ownership import sqlite_path
from twintable.server.storage.sqlite_log import sqlite_pragmas

#: Games read, written and deleted per transaction: large enough that a transaction's
#: fixed cost (an fsync of the archive file) is shared, small enough to hold a
#: running server's writers back for only a moment.
ARCHIVE_BATCH = 500

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    finished_ms INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    table_row BLOB NOT NULL,
    log BLOB NOT NULL
)"""


class ArchiveError(RuntimeError):
    """An archive that cannot be written or read; the message is one line for people."""


@dataclass(slots=True)
class ArchiveRun:
    """What one ``twintable archive`` did."""

    games: int = 0
    moves: int = 0
    files: set[str] = field(default_factory=set)
    seconds: float = 0.0


def archive_name(finished_ms: int) -> str:
    """The archive file of a game whose last move was at ``finished_ms``."""
    month = datetime.fromtimestamp(finished_ms / 1000, UTC)
    return f"moves-{month:%Y-%m}.sqlite3"


def default_archive_dir(db_url: str) -> Path | None:
    """Beside a SQLite database, a folder named after it (``twintable.sqlite3`` →
    ``twintable-archive/``); None for PostgreSQL, where an operator names one."""
    path = sqlite_path(db_url)
    return None if path is None else path.with_name(f"{path.stem}-archive")


def _open_for_writing(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        # A rollback journal keeps the file one file (a plain copy between runs is a
        # whole archive); FULL: a batch is on disk before its live moves are deleted.
        connection.execute("PRAGMA journal_mode=DELETE")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute(_SCHEMA)
    except sqlite3.Error as error:
        connection.close()
        raise ArchiveError(f"cannot write the archive {path}: {error}") from None
    return connection


def _write_games(folder: Path, games: dict[str, list[tuple[Any, ...]]]) -> None:
    """Commit rows of ``games`` (by archive file name) to their files."""
    for name, rows in games.items():
        connection = _open_for_writing(folder / name)
        try:
            connection.execute("BEGIN IMMEDIATE")
            connection.executemany(
                "INSERT OR REPLACE INTO games (table_id, game, finished_ms, moves, table_row,"
                " log) VALUES (?, ?, ?, ?, ?, ?)", rows)
            connection.execute("COMMIT")
        except sqlite3.Error as error:
            raise ArchiveError(f"cannot write the archive {folder / name}: {error}") from None
        finally:
            connection.close()


def read_archived_moves(folder: Path, name: str, table_id: str) -> list[StoredAction]:
    """A game's moves from its archive file; ArchiveError when the file or the game in
    it is missing (a folder not copied along, a file moved to cold storage)."""
    path = folder / name
    if not path.is_file():
        raise ArchiveError(f"the archive {path} is missing")
    try:
        with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) \
                as connection:
            found = connection.execute("SELECT log FROM games WHERE table_id = ?",
                                       (table_id,)).fetchone()
    except sqlite3.Error as error:
        raise ArchiveError(f"cannot read the archive {path}: {error}") from None
    if found is None:
        raise ArchiveError(f"the archive {path} does not hold table {table_id}")
    return [StoredAction(seq, seat, kind, payload, t_ms, client_id)
            for seq, seat, kind, payload, t_ms, client_id
            in orjson.loads(zlib.decompress(found[0]))]


def _batches(items: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


async def archive_finished(db_url: str, folder: Path, finished_before_ms: int,
                           batch: int = ARCHIVE_BATCH) -> ArchiveRun:
    """Move the moves of every finished game whose last move is older than
    ``finished_before_ms`` from the live database at ``db_url`` to archive files in
    ``folder``. Safe beside a running server: finished games take no more moves, and
    every write is a short transaction of its own."""
    began = time.perf_counter()
    path = sqlite_path(db_url)
    if path is not None and not path.is_file():
        raise ArchiveError(f"no database {path}")
    try:
        return await _archive(db_url, folder, finished_before_ms, batch, began)
    except (SQLAlchemyError, OSError) as error:
        said = str(error).splitlines()[0] if str(error) else repr(error)
        raise ArchiveError(f"the database failed: {said}") from None


async def _archive(db_url: str, folder: Path, finished_before_ms: int, batch: int,
                   began: float) -> ArchiveRun:
    engine = create_async_engine(db_url)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", sqlite_pragmas)
    run = ArchiveRun()
    try:
        async with engine.connect() as connection:
            last_move = func.max(ActionRow.t_ms)
            due = (await connection.execute(
                select(ActionRow.table_id, last_move)
                .join(TableRow, TableRow.id == ActionRow.table_id)
                .where(TableRow.status == "finished")
                .group_by(ActionRow.table_id)
                .having(last_move < finished_before_ms))).all()
            await connection.rollback()
        finished = {table_id: int(last) for table_id, last in due}
        for ids in _batches(sorted(finished), batch):
            async with engine.connect() as connection:
                rows, moves = await _read_batch(connection, ids, finished)
                await connection.rollback()
            _write_games(folder, rows)
            async with engine.begin() as connection:
                await _drop_from_live(connection, ids, finished, moves)
            run.games += len(ids)
            run.moves += sum(moves.values())
            run.files.update(rows)
    finally:
        await engine.dispose()
    run.seconds = time.perf_counter() - began
    return run


async def _read_batch(connection: AsyncConnection, ids: list[str], finished: dict[str, int]
                      ) -> tuple[dict[str, list[tuple[Any, ...]]], dict[str, int]]:
    """The archive rows of a batch of games, by archive file, and each game's move count."""
    tables = {row.id: row for row in await connection.execute(
        select(TableRow.__table__).where(TableRow.id.in_(ids)))}
    logs: dict[str, list[list[Any]]] = {table_id: [] for table_id in ids}
    # Payloads as the JSON text the database holds, put into the archive as they are:
    # decoding and encoding them again was most of the archive's time.
    moves = await connection.execute(
        select(ActionRow.table_id, ActionRow.seq, ActionRow.seat, ActionRow.kind,
               cast(ActionRow.payload, Text), ActionRow.t_ms, ActionRow.client_id)
        .where(ActionRow.table_id.in_(ids)).order_by(ActionRow.table_id, ActionRow.seq))
    for table_id, seq, seat, kind, payload, t_ms, client_id in moves:
        logs[table_id].append([seq, seat, kind, orjson.Fragment(payload), t_ms, client_id])
    by_file: dict[str, list[tuple[Any, ...]]] = {}
    for table_id in ids:
        table = tables[table_id]
        table_row = {"id": table.id, "game": table.game, "name": table.name,
                     "options": table.options, "seed": table.seed, "players": table.players,
                     "status": table.status, "created_ms": table.created_ms,
                     "result": table.result, "settings": table.settings}
        by_file.setdefault(archive_name(finished[table_id]), []).append((
            table_id, table.game, finished[table_id], len(logs[table_id]),
            orjson.dumps(table_row), zlib.compress(orjson.dumps(logs[table_id]), 6)))
    return by_file, {table_id: len(log) for table_id, log in logs.items()}


async def _drop_from_live(connection: AsyncConnection, ids: list[str],
                          finished: dict[str, int], moves: dict[str, int]) -> None:
    """Delete a batch's archived moves and say where they went, in one transaction."""
    now_ms = int(time.time() * 1000)
    gone = await connection.execute(delete(ActionRow).where(ActionRow.table_id.in_(ids)))
    if gone.rowcount != sum(moves.values()):
        # A finished game takes no move, so this is a second archive run or a hand-made
        # change: leave the batch as it was rather than delete a move not in the archive.
        raise ArchiveError("moves changed while they were archived; nothing of this batch "
                           "was deleted, run it again")
    await connection.execute(insert(ArchivedGameRow), [
        {"table_id": table_id, "archive": archive_name(finished[table_id]),
         "moves": moves[table_id], "archived_ms": now_ms} for table_id in ids])
