"""Async storage on SQLAlchemy 2: SQLite by default, PostgreSQL by URL.

The action log is append-only and each append is its own committed transaction: the
server acknowledges an action only after :meth:`Store.append_action` returns.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, event, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from twintable.server.storage.models import (
    ActionRow,
    ProfileRow,
    RatingRow,
    SeatRow,
    TableRow,
)

#: The leaderboard's figure (ratings.conservative) as SQL, to sort and rank in the database.
_CONSERVATIVE = RatingRow.mu - 3 * RatingRow.sigma


@dataclass(slots=True)
class StoredAction:
    seq: int
    seat: int
    kind: str
    payload: dict[str, Any]
    t_ms: int
    client_id: str | None


class Store:
    def __init__(self, url: str):
        self.url = url
        self.engine: AsyncEngine = create_async_engine(url)
        if url.startswith("sqlite"):
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._pending: asyncio.Queue[tuple[str, StoredAction, asyncio.Future[None]]] = (
            asyncio.Queue())
        self._writer: asyncio.Task[None] | None = None

    async def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision."""
        async with self.engine.begin() as connection:
            await connection.run_sync(_upgrade)

    async def ping(self) -> None:
        async with self.engine.connect() as connection:
            await connection.exec_driver_sql("SELECT 1")

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        await self.engine.dispose()

    # -- tables and seats -----------------------------------------------------------
    async def create_table(self, row: TableRow, seats: Sequence[SeatRow]) -> None:
        async with self.sessions.begin() as session:
            session.add(row)
            await session.flush()
            session.add_all(seats)

    async def load_tables(self, statuses: Sequence[str]) -> list[tuple[TableRow,
                                                                       list[SeatRow]]]:
        async with self.sessions() as session:
            tables = (await session.scalars(
                select(TableRow).where(TableRow.status.in_(statuses)))).all()
            result = []
            for table in tables:
                seats = (await session.scalars(select(SeatRow).where(
                    SeatRow.table_id == table.id).order_by(SeatRow.seat))).all()
                result.append((table, list(seats)))
            return result

    async def load_table(self, table_id: str) -> tuple[TableRow, list[SeatRow]] | None:
        async with self.sessions() as session:
            table = await session.get(TableRow, table_id)
            if table is None:
                return None
            seats = (await session.scalars(select(SeatRow).where(
                SeatRow.table_id == table_id).order_by(SeatRow.seat))).all()
            return table, list(seats)

    async def save_seat(self, seat: SeatRow) -> None:
        async with self.sessions.begin() as session:
            await session.merge(seat)

    async def set_status(self, table_id: str, status: str,
                         result: dict[str, Any] | None = None) -> None:
        async with self.sessions.begin() as session:
            values: dict[str, Any] = {"status": status}
            if result is not None:
                values["result"] = result
            await session.execute(update(TableRow).where(TableRow.id == table_id)
                                  .values(**values))

    async def save_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        """Replace a table's settings (limits, the rematch it led to, reserved seats)."""
        async with self.sessions.begin() as session:
            await session.execute(update(TableRow).where(TableRow.id == table_id)
                                  .values(settings=settings))

    async def finish(self, table_id: str, result: dict[str, Any],
                     ratings: Sequence[RatingRow]) -> None:
        """Mark a game finished with its result and save its new ratings, in one
        transaction: either the game is over and rated, or neither (recovery finishes it)."""
        async with self.sessions.begin() as session:
            await session.execute(update(TableRow).where(TableRow.id == table_id)
                                  .values(status="finished", result=result))
            for row in ratings:
                await session.merge(row)

    # -- the action log -------------------------------------------------------------
    async def append_action(self, table_id: str, action: StoredAction) -> None:
        """Append one move; returns once it is committed.

        Moves from every table are committed together by one writer (group commit), so a
        busy server pays for one transaction per batch, not per move.
        """
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_batches())
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.put_nowait((table_id, action, done))
        await done

    async def _write_batches(self) -> None:
        while True:
            batch = [await self._pending.get()]
            while not self._pending.empty() and len(batch) < 500:
                batch.append(self._pending.get_nowait())
            rows = [{"table_id": table_id, "seq": a.seq, "seat": a.seat, "kind": a.kind,
                     "payload": a.payload, "t_ms": a.t_ms, "client_id": a.client_id}
                    for table_id, a, _ in batch]
            try:
                # A Core insert: the hot path skips the ORM's unit of work.
                async with self.engine.begin() as connection:
                    await connection.execute(insert(ActionRow), rows)
            except Exception:
                # One bad row must not fail the other tables' moves: write each row in its
                # own transaction, so only the rows that fail alone are refused.
                for row, (_, _, done) in zip(rows, batch, strict=True):
                    try:
                        async with self.engine.begin() as connection:
                            await connection.execute(insert(ActionRow), [row])
                    except Exception as error:
                        if not done.done():
                            done.set_exception(error)
                    else:
                        if not done.done():
                            done.set_result(None)
            else:
                for _, _, done in batch:
                    if not done.done():
                        done.set_result(None)

    async def load_actions(self, table_id: str) -> list[StoredAction]:
        async with self.sessions() as session:
            rows = (await session.scalars(select(ActionRow).where(
                ActionRow.table_id == table_id).order_by(ActionRow.seq))).all()
            return [StoredAction(r.seq, r.seat, r.kind, dict(r.payload), r.t_ms, r.client_id)
                    for r in rows]

    # -- profiles -------------------------------------------------------------------
    async def create_profile(self, row: ProfileRow) -> None:
        async with self.sessions.begin() as session:
            session.add(row)

    async def profile(self, profile_id: str) -> ProfileRow | None:
        async with self.sessions() as session:
            return await session.get(ProfileRow, profile_id)

    async def rename_profile(self, profile_id: str, display_name: str) -> None:
        """A new name on the profile and on its leaderboard rows."""
        async with self.sessions.begin() as session:
            await session.execute(update(ProfileRow).where(ProfileRow.id == profile_id)
                                  .values(display_name=display_name))
            await session.execute(update(RatingRow).where(RatingRow.player_id == profile_id)
                                  .values(display_name=display_name))

    # -- ratings --------------------------------------------------------------------
    async def ratings(self, game: str, player_ids: Sequence[str]) -> dict[str, RatingRow]:
        async with self.sessions() as session:
            rows = (await session.scalars(select(RatingRow).where(
                RatingRow.game == game, RatingRow.player_id.in_(player_ids)))).all()
            return {row.player_id: row for row in rows}

    async def save_ratings(self, rows: Sequence[RatingRow]) -> None:
        async with self.sessions.begin() as session:
            for row in rows:
                await session.merge(row)

    async def leaderboard(self, game: str, limit: int) -> list[RatingRow]:
        """The best ``limit`` ratings of a game, by conservative rating (mu - 3 sigma)."""
        async with self.sessions() as session:
            rows = await session.scalars(select(RatingRow).where(RatingRow.game == game)
                                         .order_by(_CONSERVATIVE.desc(), RatingRow.player_id)
                                         .limit(limit))
            return list(rows.all())

    async def leaderboard_place(self, game: str,
                                player_id: str) -> tuple[int, RatingRow] | None:
        """A player's rating of a game and rank there (1 + how many rate strictly higher),
        wherever it stands; None if they have no rating in that game."""
        async with self.sessions() as session:
            row = await session.get(RatingRow, (game, player_id))
            if row is None:
                return None
            mine = (select(_CONSERVATIVE).where(RatingRow.game == game,
                                                RatingRow.player_id == player_id)
                    .scalar_subquery())
            ahead = await session.scalar(select(func.count()).select_from(RatingRow).where(
                RatingRow.game == game, mine < _CONSERVATIVE))
            return int(ahead or 0) + 1, row



def _upgrade(connection: Connection) -> None:
    config = Config()
    config.set_main_option("script_location",
                           str(resources.files("twintable.server").joinpath("migrations")))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers run beside the writer; a committed append survives a killed process.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
