"""Server test fixtures: an app on a fresh database (SQLite, and PostgreSQL when it runs)."""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

POSTGRES_URL = os.environ.get("TWINTABLE_TEST_POSTGRES",
                              "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


def services_required() -> bool:
    return os.environ.get("TWINTABLE_REQUIRE_SERVICES") == "1"


def postgres_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=1):
            return True
    except OSError:
        return False


def _admin(sql: str) -> None:
    import asyncio

    from sqlalchemy.ext.asyncio import create_async_engine

    async def run() -> None:
        engine = create_async_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
        async with engine.connect() as connection:
            await connection.exec_driver_sql(sql)
        await engine.dispose()

    asyncio.run(run())


@contextmanager
def fresh_postgres() -> Iterator[str]:
    """A new, empty PostgreSQL database for one test (dropped after it), so tests running
    side by side (pytest -n) never share tables."""
    name = f"tt_{secrets.token_hex(6)}"
    _admin(f"CREATE DATABASE {name}")
    try:
        yield POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        _admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def require_postgres() -> None:
    if not postgres_reachable():
        if services_required():
            pytest.fail("PostgreSQL at 127.0.0.1:5432 is required "
                        "(TWINTABLE_REQUIRE_SERVICES=1) but unreachable")
        pytest.skip("PostgreSQL at 127.0.0.1:5432 is unreachable")


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL for one test: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'twintable.sqlite3'}"
        return
    require_postgres()
    with fresh_postgres() as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'twintable.sqlite3'}"
