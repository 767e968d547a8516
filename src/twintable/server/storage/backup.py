"""Backups of a Twin Table database and their restore: SQLite through its online backup
API, PostgreSQL through ``pg_dump`` and ``pg_restore``.

SQLite runs in WAL mode: a committed move may sit in ``<db>-wal`` until a checkpoint
copies it into the database file, so a copy of the file alone can miss every move and
even every table. The backup API reads the database as a connection sees it (file and
WAL together), in one read transaction, which a running server's writes do not disturb.
A restore writes through the same API into the target database, so SQLite itself deals
with the target's own WAL, and it is refused while a server holds the target.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import create_async_engine

from twintable.server.storage.ownership import (
    DatabaseBusy,
    claim_sqlite,
    release_sqlite,
    sqlite_path,
)

#: Tables every Twin Table database has had since its first migration.
_CORE_TABLES = frozenset({"alembic_version", "tables", "seats", "actions"})


class BackupRefused(RuntimeError):
    """A backup or restore that cannot be done; the message is one line for people."""


@dataclass(slots=True, frozen=True)
class DatabaseSummary:
    """What a Twin Table SQLite database holds, to tell people what was copied."""

    revision: str
    tables: int
    moves: int


def _known_revisions() -> set[str]:
    config = Config()
    config.set_main_option("script_location",
                           str(resources.files("twintable.server").joinpath("migrations")))
    return {script.revision for script in ScriptDirectory.from_config(config).walk_revisions()}


def summarize(connection: sqlite3.Connection, what: str) -> DatabaseSummary:
    """Check that ``connection`` holds a whole Twin Table database this version can run
    (its tables, a schema revision it knows, SQLite's own quick check), or raise
    BackupRefused saying what ``what`` is instead."""
    try:
        names = {row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = _CORE_TABLES - names
        if missing:
            raise BackupRefused(f"{what} is not a Twin Table database (no "
                                f"{', '.join(sorted(missing))} table)")
        found = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        if found is None or found[0] not in _known_revisions():
            raise BackupRefused(f"{what} has schema revision {found[0] if found else 'none'},"
                                " which this version of Twin Table does not know (a newer "
                                "version made it?)")
        check = connection.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            raise BackupRefused(f"{what} is damaged: {check[0] if check else 'no answer'}")
        tables = connection.execute("SELECT count(*) FROM tables").fetchone()[0]
        moves = connection.execute("SELECT count(*) FROM actions").fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise BackupRefused(f"{what} is not a Twin Table database ({error})") from None
    return DatabaseSummary(str(found[0]), int(tables), int(moves))


@contextlib.contextmanager
def _opened(path: Path, what: str) -> Iterator[sqlite3.Connection]:
    if not path.is_file():
        raise BackupRefused(f"{what} {path} does not exist")
    try:
        connection = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error as error:
        raise BackupRefused(f"cannot open {what} {path}: {error}") from None
    try:
        yield connection
    finally:
        connection.close()


def _sqlite_file(db_url: str) -> Path:
    path = sqlite_path(db_url)
    if path is None:
        raise BackupRefused(f"{db_url} is not a SQLite database file")
    return path


def backup_sqlite(db_url: str, target: Path) -> DatabaseSummary:
    """Copy the live SQLite database at ``db_url`` into one self-contained file at
    ``target`` (replaced whole once the copy is complete and checked), even while a
    server is writing to it."""
    source_path = _sqlite_file(db_url)
    if target.is_dir():
        raise BackupRefused(f"{target} is a directory; name the backup file")
    if not target.parent.is_dir():
        raise BackupRefused(f"no directory {target.parent}")
    if target.resolve() == source_path:
        raise BackupRefused("the backup file is the database itself")
    partial = target.with_name(target.name + ".partial")
    with _opened(source_path, "the database") as source:
        summarize(source, f"the database {source_path}")
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        try:
            with contextlib.closing(sqlite3.connect(partial, isolation_level=None)) as copy:
                # All pages in one step: one read transaction, so one consistent state
                # however many moves the server commits meanwhile.
                source.backup(copy)
                # One file to move about: no -wal beside the backup.
                copy.execute("PRAGMA journal_mode=DELETE")
                summary = summarize(copy, "the backup just written")
        except sqlite3.Error as error:
            with contextlib.suppress(FileNotFoundError):
                partial.unlink()
            raise BackupRefused(f"cannot write {target}: {error}") from None
    _fsync(partial)
    os.replace(partial, target)
    return summary


def restore_sqlite(backup: Path, db_url: str, replace: bool) -> DatabaseSummary:
    """Make the SQLite database at ``db_url`` a copy of the backup file ``backup``.

    Refused while a server runs on it (it holds the database's lock: :func:`claim_sqlite`,
    which this holds meanwhile so no server starts half way), when ``backup`` is not a
    Twin Table database, and over a database that holds tables unless ``replace``."""
    target = _sqlite_file(db_url)
    if target == backup.resolve():
        raise BackupRefused("the backup file is the database itself")
    with _opened(backup, "the backup") as source:
        summary = summarize(source, f"the backup {backup}")
        try:
            claim_sqlite(db_url)
        except DatabaseBusy as busy:
            raise BackupRefused(f"{busy}; stop it before a restore") from None
        try:
            with contextlib.closing(sqlite3.connect(target, isolation_level=None)) as live:
                held = live.execute("SELECT count(*) FROM sqlite_master "
                                    "WHERE type = 'table' AND name = 'tables'").fetchone()[0]
                if held and not replace:
                    tables = live.execute("SELECT count(*) FROM tables").fetchone()[0]
                    raise BackupRefused(f"{target} already holds a Twin Table database "
                                        f"({tables} tables); give --replace to overwrite it")
                source.backup(live)
                live.execute("PRAGMA journal_mode=WAL")
                summarize(live, f"the restored database {target}")
        except sqlite3.Error as error:
            raise BackupRefused(f"cannot restore into {target}: {error}") from None
        finally:
            release_sqlite(db_url)
    return summary


def _fsync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


# -- PostgreSQL -------------------------------------------------------------------------
@dataclass(slots=True, frozen=True)
class PostgresCommand:
    """A ``pg_dump`` or ``pg_restore`` run: its arguments (never the password) and the
    environment it needs (the URL's password, when the URL has one, as ``PGPASSWORD``:
    in the child's environment only, never on a command line)."""

    argv: list[str]
    env: dict[str, str]

    def shown(self) -> str:
        return subprocess.list2cmdline(self.argv)


def _connection_args(url: URL) -> list[str]:
    args = []
    if url.host:
        args += ["--host", url.host]
    if url.port:
        args += ["--port", str(url.port)]
    if url.username:
        args += ["--username", url.username]
    return [*args, "--no-password"]


def _postgres_url(db_url: str) -> URL:
    url = make_url(db_url)
    if not url.drivername.startswith("postgresql") or not url.database:
        raise BackupRefused(f"{url.render_as_string()} is not a PostgreSQL database URL")
    return url


def _password_env(url: URL) -> dict[str, str]:
    return {"PGPASSWORD": url.password} if url.password else {}


def pg_dump_command(db_url: str, target: Path) -> PostgresCommand:
    """``pg_dump`` in its custom format (compressed, restorable table by table)."""
    url = _postgres_url(db_url)
    return PostgresCommand(["pg_dump", "--format=custom", "--no-owner", *_connection_args(url),
                            "--file", str(target), "--dbname", str(url.database)],
                           _password_env(url))


def pg_restore_command(backup: Path, db_url: str) -> PostgresCommand:
    """``pg_restore`` dropping what the dump holds before recreating it, all or nothing."""
    url = _postgres_url(db_url)
    return PostgresCommand(["pg_restore", "--clean", "--if-exists", "--no-owner",
                            "--single-transaction", "--exit-on-error",
                            *_connection_args(url), "--dbname", str(url.database),
                            str(backup)], _password_env(url))


def run_postgres(command: PostgresCommand) -> None:
    """Run a PostgreSQL client; BackupRefused with its last error line when it fails."""
    if shutil.which(command.argv[0]) is None:
        raise BackupRefused(f"{command.argv[0]} is not installed (Debian: postgresql-client);"
                            f" the command is: {command.shown()}")
    done = subprocess.run(command.argv, env={**os.environ, **command.env},
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        said = [line for line in done.stderr.splitlines() if line.strip()]
        raise BackupRefused(f"{command.argv[0]} failed: {said[-1] if said else done.returncode}")


def check_postgres_dump(backup: Path) -> None:
    """Refuse a file that is not a ``pg_dump`` archive of a Twin Table database."""
    if not backup.is_file():
        raise BackupRefused(f"the backup {backup} does not exist")
    if shutil.which("pg_restore") is None:
        raise BackupRefused("pg_restore is not installed (Debian: postgresql-client)")
    listed = subprocess.run(["pg_restore", "--list", str(backup)], capture_output=True,
                            text=True, check=False)
    if listed.returncode != 0:
        raise BackupRefused(f"the backup {backup} is not a pg_dump archive (pg_dump -Fc)")
    # A table's line: "215; 1259 16390 TABLE public actions postgres".
    tables = set()
    for line in listed.stdout.splitlines():
        words = line.split()
        if "TABLE" in words and "DATA" not in words and words.index("TABLE") + 2 < len(words):
            tables.add(words[words.index("TABLE") + 2])
    missing = _CORE_TABLES - tables
    if missing:
        raise BackupRefused(f"the backup {backup} is not of a Twin Table database (no "
                            f"{', '.join(sorted(missing))} table)")


async def other_sessions(db_url: str) -> int:
    """How many other sessions are connected to the PostgreSQL database at ``db_url``: a
    restore drops its tables, which a running server would be using."""
    engine = create_async_engine(db_url)
    try:
        async with engine.connect() as connection:
            count = await connection.scalar(text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid()"))
    except Exception as error:
        raise BackupRefused(f"cannot reach {_postgres_url(db_url).render_as_string()}: "
                            f"{str(error).splitlines()[0] if str(error) else error!r}"
                            ) from None
    finally:
        await engine.dispose()
    return int(count or 0)
