"""Async storage: SQLite by default, PostgreSQL by URL; SQLAlchemy 2 and Alembic for the
schema, the migrations and every path but one.

The action log is append-only, and the server acknowledges an action only after
:meth:`Store.append_action` returns, once the move is committed. That one path is the
hot one (every move), so it goes through the database's driver directly: moves from
every table are committed together (group commit): on SQLite through ``sqlite3``, the
moves of one turn of the event loop at its end, and what the loop cannot write at once
by a thread with its own connection (:class:`SqliteLog`); on PostgreSQL as one statement
per batch on asyncpg. Through SQLAlchemy and aiosqlite the same group commit cost half the
server's CPU at 1,000 moves/s (issue 28; bench/server_timo.py).

With several workers a table's writes carry the fencing token its owner got with its
lease: the write's transaction first raises the table row's ``fence`` to that token,
and only when the row's fence was not already higher (``fence <= token``), so once a
newer owner has claimed the table a worker that lost its lease can write nothing more
(:class:`FencedOut`).

Every statement through SQLAlchemy is timed by its kind (select, insert, update,
delete), and each commit of the move log as ``append_moves``, for ``server/metrics.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from importlib import resources
from typing import Any

import asyncpg
import orjson
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, event, func, insert, make_url, select, text, update
from sqlalchemy.exc import DBAPIError, InterfaceError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from twintable.server.metrics import Timings, database_timings
from twintable.server.stopping import cancel_within
from twintable.server.storage.models import (
    ActionRow,
    ArchivedGameRow,
    ChatLineRow,
    GuidedGameRow,
    ProfileRow,
    RatingHistoryRow,
    RatingOpponentRow,
    RatingRow,
    SeatRow,
    TableRow,
)
from twintable.server.storage.moves import BATCH_LIMIT, FencedOut, Pending, StoredAction
from twintable.server.storage.sqlite_log import SqliteLog, sqlite_pragmas

#: The leaderboard's figure (ratings.conservative) as SQL, to sort and rank in the database.
_CONSERVATIVE = RatingRow.mu - 3 * RatingRow.sigma


#: The advisory lock that lets one worker at a time migrate a PostgreSQL database.
_MIGRATION_LOCK = 0x7717_7AB1E

#: A batch of moves in one statement, so in one round trip and one transaction
#: (PostgreSQL): the fences of the batch's fenced tables ($1 ids, $2 tokens) are raised
#: and only those tables' moves, or the unfenced tables' ($3.. the rows), are inserted;
#: the tables that got rows back. A round trip per batch, not four (BEGIN, fences, rows,
#: COMMIT), matters most when a worker is not busy and each batch is one move.
_APPEND_BATCH = """
WITH raised AS (
  UPDATE tables SET fence = f.fence
  FROM unnest($1::varchar[], $2::bigint[]) AS f(id, fence)
  WHERE tables.id = f.id AND tables.fence <= f.fence
  RETURNING tables.id)
INSERT INTO actions (table_id, seq, seat, kind, payload, t_ms, client_id)
SELECT a.table_id, a.seq, a.seat, a.kind, a.payload::json, a.t_ms, a.client_id
FROM unnest($3::varchar[], $4::int[], $5::int[], $6::varchar[], $7::text[], $8::bigint[],
            $9::varchar[]) AS a(table_id, seq, seat, kind, payload, t_ms, client_id)
WHERE a.table_id IN (SELECT id FROM raised) OR NOT a.table_id = ANY($1::varchar[])
RETURNING table_id
"""

#: Raise many tables' fences in one statement (PostgreSQL): the ids whose fence passed.
_RAISE_FENCES = text(
    "UPDATE tables SET fence = v.fence"
    " FROM unnest(CAST(:ids AS varchar[]), CAST(:fences AS bigint[])) AS v(id, fence)"
    " WHERE tables.id = v.id AND tables.fence <= v.fence RETURNING tables.id")


def _sqlite_file(url: str) -> str | None:
    """The database file of a SQLite URL; None for an in-memory database (one connection
    of its own would see another database)."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return database


log = logging.getLogger("twintable.storage")

#: The kinds of statement timed apart; any other is timed as ``other``.
_TIMED_KINDS = frozenset({"select", "insert", "update", "delete"})


def _time_statements(engine: AsyncEngine, timings: Timings) -> None:
    """Time every statement ``engine`` runs (on the event loop's thread: SQLAlchemy's
    async engines call these hooks there)."""

    def before(_conn: Any, _cursor: Any, _statement: str, _parameters: Any, context: Any,
               _many: bool) -> None:
        context.twintable_started = time.perf_counter()

    def after(_conn: Any, _cursor: Any, statement: str, _parameters: Any, context: Any,
              _many: bool) -> None:
        started = getattr(context, "twintable_started", None)
        if started is not None:
            kind = statement.lstrip()[:6].lower()
            timings.observe((kind if kind in _TIMED_KINDS else "other",),
                            time.perf_counter() - started)

    event.listen(engine.sync_engine, "before_cursor_execute", before)
    event.listen(engine.sync_engine, "after_cursor_execute", after)


class Store:
    def __init__(self, url: str, timings: Timings | None = None):
        self.url = url
        self.timings = timings if timings is not None else database_timings()
        """Where statements and move-log commits are timed (a worker's metrics)."""
        postgres = url.startswith("postgresql")
        # PostgreSQL's pooled connections are tried at checkout (pre-ping): one the server
        # or the network closed while it sat in the pool (a restart, a failover) is
        # replaced, instead of failing the first request after it. Moves do not pay for it:
        # the log has a connection of its own.
        self.engine: AsyncEngine = create_async_engine(
            url, **({"connect_args": {"timeout": POSTGRES_CONNECT_TIMEOUT_S},
                     "pool_pre_ping": True} if postgres else {}))
        if url.startswith("sqlite"):
            event.listen(self.engine.sync_engine, "connect", sqlite_pragmas)
        if postgres:
            event.listen(self.engine.sync_engine, "connect", _tcp_gives_up)
        _time_statements(self.engine, self.timings)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        path = _sqlite_file(url) if url.startswith("sqlite") else None
        self._sqlite_log = SqliteLog(path, self.timings) if path is not None else None
        self._pending: asyncio.Queue[Pending] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._pg_log: asyncpg.Connection | None = None
        self._pg_dsn = (make_url(url).set(drivername="postgresql")
                        .render_as_string(hide_password=False))

    async def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (one worker at a time: workers
        starting together on a new database would each create the tables)."""
        async with self.engine.begin() as connection:
            if self.engine.dialect.name == "postgresql":
                await connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                         {"key": _MIGRATION_LOCK})
            await connection.run_sync(_upgrade)

    async def ping(self) -> None:
        async with self.engine.connect() as connection:
            await connection.exec_driver_sql("SELECT 1")

    async def close(self) -> None:
        if self._sqlite_log is not None:
            await self._sqlite_log.close()
        if self._writer is not None:
            await cancel_within([self._writer], 5.0, "log writer")
        if self._pg_log is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pg_log.close(), 5)
            self._pg_log = None
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

    async def save_seat(self, seat: SeatRow, fence: int | None = None) -> None:
        async with self.sessions.begin() as session:
            await _check_fence(session, seat.table_id, fence)
            await session.merge(seat)

    async def set_status(self, table_id: str, status: str,
                         result: dict[str, Any] | None = None,
                         fence: int | None = None) -> None:
        async with self.sessions.begin() as session:
            await _check_fence(session, table_id, fence)
            values: dict[str, Any] = {"status": status}
            if result is not None:
                values["result"] = result
            await session.execute(update(TableRow).where(TableRow.id == table_id)
                                  .values(**values))

    async def save_settings(self, table_id: str, settings: dict[str, Any],
                            fence: int | None = None) -> None:
        """Replace a table's settings (limits, the rematch it led to, reserved seats)."""
        async with self.sessions.begin() as session:
            await _check_fence(session, table_id, fence)
            await session.execute(update(TableRow).where(TableRow.id == table_id)
                                  .values(settings=settings))

    async def finish(self, table_id: str, result: dict[str, Any],
                     ratings: Sequence[RatingRow], fence: int | None = None,
                     met: Sequence[RatingOpponentRow] = ()) -> None:
        """Mark a game finished with its result and save its new ratings (and whom each
        rated player met, and a point of each rating's history), in one transaction:
        either the game is over and rated, or neither (recovery finishes it)."""
        at_ms = int(time.time() * 1000)
        async with self.sessions.begin() as session:
            await _check_fence(session, table_id, fence)
            await session.execute(update(TableRow).where(TableRow.id == table_id)
                                  .values(status="finished", result=result))
            for row in (*ratings, *met):
                await session.merge(row)
            for rating in ratings:
                await session.merge(RatingHistoryRow(
                    game=rating.game, player_id=rating.player_id, games=rating.games,
                    mu=rating.mu, sigma=rating.sigma, table_id=table_id, at_ms=at_ms))

    # -- ownership (several workers) --------------------------------------------------
    async def claim(self, table_id: str, fence: int) -> bool:
        """Make ``fence`` the table's newest owner token; False when the row already holds
        this token or a newer one (then ask for a newer token)."""
        async with self.engine.begin() as connection:
            result = await connection.execute(
                update(TableRow).where(TableRow.id == table_id, TableRow.fence < fence)
                .values(fence=fence))
            return bool(result.rowcount)

    async def fence(self, table_id: str) -> int | None:
        """The table's latest fencing token; None for an unknown table."""
        async with self.engine.connect() as connection:
            value = await connection.scalar(select(TableRow.fence).where(
                TableRow.id == table_id))
            return None if value is None else int(value)

    async def tables_in_play(self) -> dict[str, int]:
        """Every open or running table's id and fencing token."""
        async with self.engine.connect() as connection:
            rows = await connection.execute(select(TableRow.id, TableRow.fence).where(
                TableRow.status.in_(("open", "running"))))
            return {row.id: int(row.fence) for row in rows}

    # -- the action log -------------------------------------------------------------
    async def append_action(self, table_id: str, action: StoredAction,
                            fence: int | None = None) -> None:
        """Append one move; returns once it is committed (raises FencedOut when ``fence``
        is older than the table's).

        Moves from every table are committed together by one writer (group commit), so a
        busy server pays for one transaction per batch, not per move.
        """
        if self._sqlite_log is not None:
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._sqlite_log.append((table_id, action, fence, done))
            await done
            return
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_batches())
        pending: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.put_nowait((table_id, action, fence, pending))
        await pending

    async def _write_batches(self) -> None:
        while True:
            batch = [await self._pending.get()]
            while not self._pending.empty() and len(batch) < BATCH_LIMIT:
                batch.append(self._pending.get_nowait())
            rows = [{"table_id": table_id, "seq": a.seq, "seat": a.seat, "kind": a.kind,
                     "payload": a.payload, "t_ms": a.t_ms, "client_id": a.client_id}
                    for table_id, a, _, _ in batch]
            fences = {table_id: fence for table_id, _, fence, _ in batch if fence is not None}
            try:
                if self.engine.dialect.name == "postgresql":
                    refused = await self._append_batch(rows, fences)
                else:
                    # A Core insert: the hot path skips the ORM's unit of work.
                    async with self.engine.begin() as connection:
                        refused = await self._raise_fences(connection, fences)
                        kept = [row for row in rows if row["table_id"] not in refused]
                        if kept:
                            await connection.execute(insert(ActionRow), kept)
            except Exception:
                # One bad row must not fail the other tables' moves: write each row in its
                # own transaction, so only the rows that fail alone are refused.
                for row, (table_id, _, fence, done) in zip(rows, batch, strict=True):
                    try:
                        async with self.engine.begin() as connection:
                            if await self._raise_fences(connection, {table_id: fence}
                                                        if fence is not None else {}):
                                raise FencedOut(table_id, fence or 0)
                            await connection.execute(insert(ActionRow), [row])
                    except Exception as error:
                        if not done.done():
                            done.set_exception(error)
                    else:
                        if not done.done():
                            done.set_result(None)
            else:
                for table_id, _, fence, done in batch:
                    if not done.done():
                        if table_id in refused:
                            done.set_exception(FencedOut(table_id, fence or 0))
                        else:
                            done.set_result(None)

    async def _append_batch(self, rows: list[dict[str, Any]],
                            fences: dict[str, int]) -> set[str]:
        """:data:`_APPEND_BATCH` on the log's own asyncpg connection (the statement is its
        own transaction); the fenced tables refused. Its own connection, not the pool's:
        checking one out and back through SQLAlchemy cost ~0.7 ms of CPU per batch, more
        than the batch itself (issue 28)."""
        columns = [[row[name] for row in rows]
                   for name in ("table_id", "seq", "seat", "kind", "payload", "t_ms",
                                "client_id")]
        columns[4] = [orjson.dumps(payload).decode() for payload in columns[4]]
        if self._pg_log is None or self._pg_log.is_closed():
            self._pg_log = await asyncpg.connect(self._pg_dsn,
                                                 timeout=POSTGRES_CONNECT_TIMEOUT_S)
            _give_up_when_silent(self._pg_log)
        started = time.perf_counter()
        try:
            written = await self._pg_log.fetch(_APPEND_BATCH, list(fences),
                                               list(fences.values()), *columns)
            self.timings.observe(("append_moves",), time.perf_counter() - started)
        except BaseException:
            # A connection that failed mid-statement is not trusted again (the next batch
            # opens a new one); whether the batch committed, the table reads back.
            self._pg_log.terminate()
            self._pg_log = None
            raise
        return set(fences) - {row[0] for row in written}

    async def _raise_fences(self, connection: AsyncConnection,
                            fences: dict[str, int]) -> set[str]:
        """Raise each table's fence to its token inside the write's transaction (the row
        stays locked until it commits); returns the tables whose fence was newer."""
        if not fences:
            return set()
        if self.engine.dialect.name == "postgresql":
            passed = await connection.execute(_RAISE_FENCES, {
                "ids": list(fences), "fences": list(fences.values())})
            return set(fences) - {row[0] for row in passed}
        refused = set()
        for table_id, fence in fences.items():
            result = await connection.execute(update(TableRow).where(
                TableRow.id == table_id, TableRow.fence <= fence).values(fence=fence))
            if not result.rowcount:
                refused.add(table_id)
        return refused

    async def load_actions(self, table_id: str) -> list[StoredAction]:
        async with self.sessions() as session:
            rows = (await session.scalars(select(ActionRow).where(
                ActionRow.table_id == table_id).order_by(ActionRow.seq))).all()
            return [StoredAction(r.seq, r.seat, r.kind, dict(r.payload), r.t_ms, r.client_id)
                    for r in rows]

    async def archived(self, table_id: str) -> ArchivedGameRow | None:
        """Where a finished game's moves went when they left the live log, if they did."""
        async with self.sessions() as session:
            return await session.get(ArchivedGameRow, table_id)

    # -- the table's talk (server/chat.py) ------------------------------------------
    async def append_chat_line(self, row: ChatLineRow, fence: int | None = None) -> None:
        """Keep one chat line or reaction; returns once it is committed (FencedOut when
        another worker runs the table now)."""
        async with self.sessions.begin() as session:
            await _check_fence(session, row.table_id, fence)
            session.add(row)

    async def load_chat(self, table_id: str) -> list[ChatLineRow]:
        """A table's talk, oldest first."""
        async with self.sessions() as session:
            return list((await session.scalars(select(ChatLineRow).where(
                ChatLineRow.table_id == table_id).order_by(ChatLineRow.n))).all())

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

    async def guided_games(self, profile_id: str) -> dict[str, str]:
        """The games whose guided game the profile started, skipped or finished, and how."""
        async with self.sessions() as session:
            rows = (await session.scalars(select(GuidedGameRow).where(
                GuidedGameRow.player_id == profile_id))).all()
            return {row.game: row.how for row in rows}

    async def mark_guided(self, profile_id: str, game: str, how: str) -> None:
        """Records how the profile went with ``game``'s guided game (the latest word wins)."""
        async with self.sessions.begin() as session:
            await session.merge(GuidedGameRow(player_id=profile_id, game=game, how=how,
                                              at_ms=int(time.time() * 1000)))

    # -- ratings --------------------------------------------------------------------
    async def ratings(self, game: str, player_ids: Sequence[str]) -> dict[str, RatingRow]:
        async with self.sessions() as session:
            rows = (await session.scalars(select(RatingRow).where(
                RatingRow.game == game, RatingRow.player_id.in_(player_ids)))).all()
            return {row.player_id: row for row in rows}

    async def opponents(self, game: str,
                        player_ids: Sequence[str]) -> dict[str, dict[str, int]]:
        """Whom each of ``player_ids`` has met in rated games of ``game``, and how often."""
        async with self.sessions() as session:
            rows = (await session.scalars(select(RatingOpponentRow).where(
                RatingOpponentRow.game == game,
                RatingOpponentRow.player_id.in_(player_ids)))).all()
        met: dict[str, dict[str, int]] = {}
        for row in rows:
            met.setdefault(row.player_id, {})[row.opponent] = row.games
        return met

    async def player_ratings(self, player_id: str) -> list[RatingRow]:
        """A player's rating in every game they have one, by game."""
        async with self.sessions() as session:
            rows = await session.scalars(select(RatingRow).where(
                RatingRow.player_id == player_id).order_by(RatingRow.game))
            return list(rows.all())

    async def rating_history(self, game: str, player_id: str,
                             limit: int) -> list[RatingHistoryRow]:
        """The latest ``limit`` points of a player's rating history in a game, oldest
        first."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(RatingHistoryRow).where(RatingHistoryRow.game == game,
                                               RatingHistoryRow.player_id == player_id)
                .order_by(RatingHistoryRow.games.desc()).limit(limit))
            return list(reversed(rows.all()))

    async def save_ratings(self, rows: Sequence[RatingRow]) -> None:
        async with self.sessions.begin() as session:
            for row in rows:
                await session.merge(row)

    async def leaderboard(self, game: str, limit: int, min_games: int = 0,
                          min_opponents: int = 0) -> list[RatingRow]:
        """The best ``limit`` ratings of a game, by conservative rating (mu - 3 sigma),
        among those resting on ``min_games`` games against ``min_opponents`` opponents."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(RatingRow).where(RatingRow.game == game,
                                        RatingRow.games >= min_games,
                                        RatingRow.opponents >= min_opponents)
                .order_by(_CONSERVATIVE.desc(), RatingRow.player_id).limit(limit))
            return list(rows.all())

    async def leaderboard_place(self, game: str, player_id: str, min_games: int = 0,
                                min_opponents: int = 0) -> tuple[int, RatingRow] | None:
        """A player's rating of a game and rank among the ratings the leaderboard ranks
        (1 + how many of them rate strictly higher), wherever it stands; None if they
        have no rating in that game."""
        async with self.sessions() as session:
            row = await session.get(RatingRow, (game, player_id))
            if row is None:
                return None
            mine = (select(_CONSERVATIVE).where(RatingRow.game == game,
                                                RatingRow.player_id == player_id)
                    .scalar_subquery())
            ahead = await session.scalar(select(func.count()).select_from(RatingRow).where(
                RatingRow.game == game, RatingRow.games >= min_games,
                RatingRow.opponents >= min_opponents, mine < _CONSERVATIVE))
            return int(ahead or 0) + 1, row



async def _check_fence(session: AsyncSession, table_id: str, fence: int | None) -> None:
    if fence is None:
        return
    result = await session.execute(update(TableRow).where(
        TableRow.id == table_id, TableRow.fence <= fence).values(fence=fence))
    if not result.rowcount:  # type: ignore[attr-defined]
        raise FencedOut(table_id, fence)


def _upgrade(connection: Connection) -> None:
    config = Config()
    config.set_main_option("script_location",
                           str(resources.files("twintable.server").joinpath("migrations")))
    config.attributes["connection"] = connection
    before = MigrationContext.configure(connection).get_current_revision()
    command.upgrade(config, "head")
    after = MigrationContext.configure(connection).get_current_revision()
    if before != after:
        log.info("database migrated", extra={"from_revision": before, "to_revision": after})
    else:
        log.info("database schema up to date", extra={"revision": after})


#: How long PostgreSQL may take to accept a connection.
POSTGRES_CONNECT_TIMEOUT_S = 5.0
#: How long data sent to PostgreSQL may go unacknowledged by its machine, or a quiet
#: connection unanswered by keepalive probes, before the connection is given up.
POSTGRES_UNREACHABLE_S = 5


def _tcp_gives_up(dbapi_connection: Any, _record: Any) -> None:
    """The pool's connections give up on a silent network: :func:`_give_up_when_silent`."""
    _give_up_when_silent(dbapi_connection.driver_connection)


def _give_up_when_silent(connection: Any) -> None:
    """A PostgreSQL (asyncpg) connection that a network partition cut (packets dropped, no reset)
    fails within :data:`POSTGRES_UNREACHABLE_S` instead of hanging until TCP gives up
    (about 15 minutes), holding a table's lock: the move is answered ``storage.failed``
    and the next connection is tried. A slow query on a reachable server is unaffected
    (its machine acknowledges what it is sent, and answers the keepalive probes)."""
    import socket

    transport = getattr(connection, "_transport", None)
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return  # a Unix socket: no network between
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    if hasattr(socket, "TCP_USER_TIMEOUT"):  # Linux
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, POSTGRES_UNREACHABLE_S)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, POSTGRES_UNREACHABLE_S)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT,
                        POSTGRES_UNREACHABLE_S * 1000)


#: SQLite's result codes for a database that cannot be used now (busy, locked by another
#: process, not openable, failing disk, full), as against a wrong statement (SQLITE_ERROR).
_SQLITE_UNAVAILABLE = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_CANTOPEN", "SQLITE_IOERR",
                       "SQLITE_FULL")
#: PostgreSQL's SQLSTATE classes for the same: connection exceptions (08), insufficient
#: resources (53: too many connections, disk full), the server shutting down or starting (57P).
_POSTGRES_UNAVAILABLE = ("08", "53", "57P")


def database_out_of_reach(error: BaseException) -> bool:
    """Whether ``error`` says the database cannot be used now (a connection refused, timed
    out, cut or invalidated, the pool exhausted waiting for one, the server busy or going
    down), not that a statement was wrong: the first is worth trying again in a moment, the
    second is a bug. asyncpg's connect raises ``OSError`` unwrapped; a connection the
    server refused (a database not accepting connections, or gone) is a ``DBAPIError`` with
    no statement."""
    if isinstance(error, OSError | PoolTimeout):
        return True
    if not isinstance(error, DBAPIError):
        return False
    if error.connection_invalidated or error.statement is None or isinstance(
            error, InterfaceError):
        return True
    sqlite_name = getattr(error.orig, "sqlite_errorname", None) or ""
    sqlstate = getattr(error.orig, "sqlstate", None) or ""
    return (sqlite_name.startswith(_SQLITE_UNAVAILABLE)
            or sqlstate.startswith(_POSTGRES_UNAVAILABLE))


__all__ = ["FencedOut", "Store", "StoredAction", "database_out_of_reach"]
