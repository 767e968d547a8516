"""Server test fixtures: an app on a fresh database (SQLite, and PostgreSQL when it runs)."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
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


def reset_postgres() -> None:
    """Drop every table in the test database so migrations start from nothing."""
    import asyncio

    from sqlalchemy.ext.asyncio import create_async_engine

    async def reset() -> None:
        engine = create_async_engine(POSTGRES_URL)
        async with engine.begin() as connection:
            await connection.exec_driver_sql("DROP SCHEMA public CASCADE")
            await connection.exec_driver_sql("CREATE SCHEMA public")
        await engine.dispose()

    asyncio.run(reset())


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL for one test: a new SQLite file, or the emptied PostgreSQL `test`."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'twintable.sqlite3'}"
        return
    if not postgres_reachable():
        if services_required():
            pytest.fail("PostgreSQL at 127.0.0.1:5432 is required "
                        "(TWINTABLE_REQUIRE_SERVICES=1) but unreachable")
        pytest.skip("PostgreSQL at 127.0.0.1:5432 is unreachable")
    reset_postgres()
    yield POSTGRES_URL


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'twintable.sqlite3'}"
