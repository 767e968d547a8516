"""``twintable backup``, ``restore`` and ``archive``: an operator's copies of the database
and its retention. The work is done in :mod:`twintable.server.storage.backup` and
:mod:`twintable.server.storage.archive`; this module reads the command line and tells
the outcome in a line or two. The storage modules are imported by the commands that use
them: importing them costs every other command of the CLI most of a second."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    from twintable.server.storage.backup import DatabaseSummary, PostgresCommand

console = Console()

DbOption = Annotated[str | None, typer.Option(
    "--db", envvar="TWINTABLE_DB_URL",
    help="Database URL, as `serve --db` takes it, or from TWINTABLE_DB_URL as serve reads "
         "it (default: the SQLite database in your data directory, the one `serve` uses "
         "without --db).")]


def _refused(message: str) -> typer.Exit:
    console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(1)


def _database(db: str | None) -> str:
    from twintable.server.settings import async_db_url, default_db_url

    return async_db_url(db) if db else default_db_url()


def _told(summary: DatabaseSummary) -> str:
    return (f"{summary.tables} tables, {summary.moves} moves, schema revision "
            f"{summary.revision}")


def _run_postgres(command: PostgresCommand) -> None:
    from twintable.server.storage.backup import run_postgres

    console.print(f"running: {escape(command.shown())}", soft_wrap=True)
    run_postgres(command)


def backup(
    path: Annotated[Path, typer.Argument(help="The backup file to write (replaced whole "
                                              "once the new copy is complete).")],
    db: DbOption = None,
) -> None:
    """Copy the database to a file, safely while a server is running (SQLite: its online
    backup API; PostgreSQL: pg_dump -Fc)."""
    from twintable.server.storage.backup import BackupRefused, backup_sqlite, pg_dump_command

    url = _database(db)
    try:
        if url.startswith("postgresql"):
            _run_postgres(pg_dump_command(url, path))
            console.print(f"backup written to {escape(str(path))}", soft_wrap=True)
            return
        summary = backup_sqlite(url, path)
    except BackupRefused as refused:
        raise _refused(str(refused)) from None
    console.print(f"backup written to {escape(str(path))}: {_told(summary)}", soft_wrap=True)


def restore(
    path: Annotated[Path, typer.Argument(help="A backup file written by `twintable backup`.")],
    db: DbOption = None,
    replace: Annotated[bool, typer.Option(
        "--replace", help="Overwrite a database that already holds tables.")] = False,
) -> None:
    """Put a backup in place of the database. Stop its server first: a restore is refused
    while one runs on it."""
    from twintable.server.storage.backup import (
        BackupRefused,
        check_postgres_dump,
        other_sessions,
        pg_restore_command,
        restore_sqlite,
    )

    url = _database(db)
    try:
        if url.startswith("postgresql"):
            check_postgres_dump(path)
            others = asyncio.run(other_sessions(url))
            if others:
                raise BackupRefused(f"{others} other sessions are connected to this database "
                                    "(a running server?); stop them before a restore")
            _run_postgres(pg_restore_command(path, url))
            console.print(f"restored {escape(str(path))}", soft_wrap=True)
            return
        summary = restore_sqlite(path, url, replace)
    except BackupRefused as refused:
        raise _refused(str(refused)) from None
    console.print(f"restored {escape(str(path))}: {_told(summary)}", soft_wrap=True)


def archive(
    older_than: Annotated[float, typer.Option(
        "--older-than", metavar="DAYS", min=0,
        help="Archive finished games whose last move is older than this many days.")],
    to: Annotated[Path | None, typer.Option(
        "--to", metavar="DIR",
        help="The archive folder, which the server reads archived replays from "
             "(default: TWINTABLE_ARCHIVE_DIR, or beside a SQLite database "
             "<name>-archive/).")] = None,
    db: DbOption = None,
) -> None:
    """Move finished games' moves out of the live database into compressed monthly
    archive files; their replays are still served, read from the archive."""
    from twintable.server.storage.archive import (
        ArchiveError,
        archive_finished,
        default_archive_dir,
    )

    url = _database(db)
    folder = to or (Path(os.environ["TWINTABLE_ARCHIVE_DIR"])
                    if os.environ.get("TWINTABLE_ARCHIVE_DIR") else default_archive_dir(url))
    if folder is None:
        raise _refused("with PostgreSQL, name the archive folder: --to DIR (and give the "
                       "servers the same folder in TWINTABLE_ARCHIVE_DIR)")
    if folder.exists() and not folder.is_dir():
        raise _refused(f"{folder} is not a directory")
    cutoff_ms = int((time.time() - older_than * 86_400) * 1000)
    try:
        run = asyncio.run(archive_finished(url, folder, cutoff_ms))
    except ArchiveError as error:
        raise _refused(str(error)) from None
    rate = run.games / run.seconds if run.seconds else 0.0
    console.print(f"archived {run.games} finished games ({run.moves} moves) into "
                  f"{len(run.files)} files in {escape(str(folder))} in {run.seconds:.2f} s "
                  f"({rate:,.0f} games/s)", soft_wrap=True)
