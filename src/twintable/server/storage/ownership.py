"""Who runs which tables: one server per SQLite file, one server per table on PostgreSQL.

Two servers replaying and writing the same tables corrupt their logs (both append move
n+1). On SQLite the whole database belongs to one server: it holds an exclusive lock on
the database file itself (its inode, whatever path names it) for as long as it runs,
and a second server is refused with a one-line message naming the first. On PostgreSQL
several servers may share one database, so ownership is per table: a server runs a table
only while it holds the table's session-level advisory lock (released by PostgreSQL
itself when the server's connection ends, however the server died). Scaling out across
workers builds on this.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import sys
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine


class DatabaseBusy(RuntimeError):
    """Another running server holds this SQLite database."""


#: Locks this process holds, by the database file's (device, inode): a process claims a
#: file once however many apps it creates (tests make several in turn), whatever path
#: names it.
_held: dict[tuple[int, int], tuple[int, Path]] = {}
#: The same locks by the path each was claimed with, for :func:`release_sqlite`.
_claimed: dict[Path, tuple[int, int]] = {}


def sqlite_path(url: str) -> Path | None:
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).resolve()


def claim_sqlite(url: str) -> None:
    """Hold an exclusive lock on the database file itself for the life of this process,
    or raise DatabaseBusy naming the process that holds it.

    The lock is ``flock`` on the file (its inode): another path to the same file (a
    hard link, a symbolic link, a bind mount) meets the same lock. SQLite locks byte
    ranges with ``fcntl``, which ``flock`` neither takes nor waits for on a local file
    system. Who holds it is written beside the path it was claimed with, for the
    message."""
    path = sqlite_path(url)
    if path is None or path in _claimed:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    # An empty file is an empty database to SQLite: creating it here changes nothing.
    descriptor = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
    stat = os.fstat(descriptor)
    inode = (stat.st_dev, stat.st_ino)
    if inode in _held:  # this process holds it under another name
        os.close(descriptor)
        _claimed[path] = inode
        return
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(descriptor)
        raise DatabaseBusy(f"{path} is in use by another Twin Table server "
                           f"({_holder(path)}); stop it or give this one another --db"
                           ) from None
    note = _note_path(path)
    with contextlib.suppress(OSError):  # the note is for people; the lock is the rule
        note.write_text(f"pid {os.getpid()}: {' '.join(sys.argv)[:200]}", encoding="utf-8")
    _held[inode] = (descriptor, note)
    _claimed[path] = inode


def _note_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def _holder(path: Path) -> str:
    """Who holds the database, as its holder wrote beside the path (a hard link
    elsewhere has no note: then just another process)."""
    try:
        return _note_path(path).read_text(encoding="utf-8").strip() or "another process"
    except OSError:
        return "another process"


def release_sqlite(url: str) -> None:
    path = sqlite_path(url)
    inode = _claimed.pop(path, None) if path is not None else None
    if inode is None or inode in _claimed.values():
        return  # not claimed here, or still claimed under another name
    held = _held.pop(inode, None)
    if held is not None:
        descriptor, note = held
        with contextlib.suppress(OSError):
            note.unlink()
        fcntl.flock(descriptor, fcntl.LOCK_UN)
        os.close(descriptor)


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
