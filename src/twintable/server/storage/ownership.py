"""Who runs which tables: one server per SQLite file, one server per table on PostgreSQL.

Two servers replaying and writing the same tables corrupt their logs (both append move
n+1). On SQLite the whole database belongs to one server: it holds an exclusive lock on
a file beside the database for as long as it runs, and a second server is refused with
a one-line message naming the first. On PostgreSQL several servers may share one
database, so ownership is per table: a server runs a table only while it holds the
table's session-level advisory lock (released by PostgreSQL itself when the server's
connection ends, however the server died). Scaling out across workers builds on this.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import sys
from pathlib import Path
from typing import IO

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine


class DatabaseBusy(RuntimeError):
    """Another running server holds this SQLite database."""


#: Locks this process holds, by database path: a process claims a file once however
#: many apps it creates (tests make several in turn).
_held: dict[Path, IO[str]] = {}


def sqlite_path(url: str) -> Path | None:
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).resolve()


def claim_sqlite(url: str) -> None:
    """Hold the database's lock file for the life of this process, or raise DatabaseBusy
    naming the process that holds it."""
    path = sqlite_path(url)
    if path is None or path in _held:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    lock_path = path.with_name(path.name + ".lock")
    handle = lock_path.open("a+", encoding="utf-8")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise DatabaseBusy(f"{path} is in use by another Twin Table server ({holder}); "
                           "stop it or give this one another --db") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"pid {os.getpid()}: {' '.join(sys.argv)[:200]}")
    handle.flush()
    _held[path] = handle


def release_sqlite(url: str) -> None:
    path = sqlite_path(url)
    handle = _held.pop(path, None) if path is not None else None
    if handle is not None:
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()


def _lock_key(table_id: str) -> int:
    """A table's advisory-lock key: 63 bits of its id's SHA-256 (stable across processes)."""
    return int.from_bytes(hashlib.sha256(table_id.encode()).digest()[:8], "big") >> 1


class TableLeases:
    """Per-table ownership on PostgreSQL through session-level advisory locks, held on one
    connection of this server's own. On SQLite every table belongs to the one server."""

    def __init__(self, engine: AsyncEngine):
        self.engine = engine
        self.shared = engine.dialect.name == "postgresql"
        self._connection: AsyncConnection | None = None

    async def acquire(self, table_id: str) -> bool:
        """True when this server may run the table (and now holds it)."""
        if not self.shared:
            return True
        if self._connection is None:
            self._connection = await self.engine.connect()
        result = await self._connection.execute(
            text("SELECT pg_try_advisory_lock(:key)"), {"key": _lock_key(table_id)})
        await self._connection.commit()
        return bool(result.scalar())

    async def release(self, table_id: str) -> None:
        if self._connection is not None:
            await self._connection.execute(text("SELECT pg_advisory_unlock(:key)"),
                                           {"key": _lock_key(table_id)})
            await self._connection.commit()

    async def close(self) -> None:
        if self._connection is not None:
            # Given back before the connection goes: PostgreSQL frees a closed session's
            # locks only once its backend has ended, which a server started right after
            # this one (a restart) could beat, and then it would not run the tables.
            with contextlib.suppress(Exception):  # a database gone frees them anyway
                await self._connection.execute(text("SELECT pg_advisory_unlock_all()"))
                await self._connection.commit()
            await self._connection.close()
            self._connection = None
