"""A request that needs a service out of reach is answered 503 with the error shape and
``/readyz``'s code (``server/outages.py``); what is a bug, not an outage, stays a 500.
Which database errors are outages (``storage.store.database_out_of_reach``) is checked on
errors the drivers really raise."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from redis.exceptions import ConnectionError as RedisConnectionError
from sqlalchemy import create_engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import create_async_engine

from tests.server.client import free_port
from tests.server.conftest import _admin, fresh_postgres, require_postgres
from twintable.server.app import create_app
from twintable.server.settings import Settings
from twintable.server.storage.store import Store, database_out_of_reach


def _raised(url: str, statement: str = "SELECT 1") -> BaseException:
    """What running ``statement`` on ``url`` raised: SQLite through its plain driver (the
    error is the same as through aiosqlite, whose thread would outlive a failed connect)."""
    async def on_postgres() -> None:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as connection:
                await connection.exec_driver_sql(statement)
        finally:
            await engine.dispose()

    try:
        if url.startswith("postgresql"):
            asyncio.run(on_postgres())
        else:
            with create_engine(url).connect() as connection:
                connection.exec_driver_sql(statement)
    except Exception as error:
        return error
    raise AssertionError(f"{statement} on {url} did not fail")


def test_a_refused_postgres_connection_is_an_outage() -> None:
    error = _raised(f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/x")
    assert isinstance(error, OSError)
    assert database_out_of_reach(error)


def test_a_postgres_database_that_refuses_connections_is_an_outage() -> None:
    require_postgres()
    with fresh_postgres() as url:
        name = url.rsplit("/", 1)[1]
        _admin(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        try:
            error = _raised(url)
        finally:
            _admin(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
    assert isinstance(error, DBAPIError) and not isinstance(error, OSError)
    assert database_out_of_reach(error)


def test_a_sqlite_file_that_cannot_be_opened_is_an_outage(tmp_path: Path) -> None:
    assert database_out_of_reach(_raised(f"sqlite:///{tmp_path / 'gone' / 'db.sqlite3'}"))


def test_a_locked_sqlite_database_is_an_outage(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x INTEGER)")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        engine = create_engine(f"sqlite:///{path}", connect_args={"timeout": 0})
        with pytest.raises(DBAPIError) as raised, engine.connect() as connection:
            connection.exec_driver_sql("INSERT INTO t VALUES (1)")
        engine.dispose()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert database_out_of_reach(raised.value)


def test_a_wrong_statement_is_not_an_outage() -> None:
    error = _raised("sqlite:///:memory:", "INSERT INTO nothing VALUES (1)")
    assert isinstance(error, DBAPIError)
    assert not database_out_of_reach(error)
    assert not database_out_of_reach(ValueError("not a database error"))


def test_a_connection_the_pool_invalidated_is_an_outage() -> None:
    cut = DBAPIError("SELECT 1", {}, Exception("connection was closed in the middle of "
                                                "operation"), connection_invalidated=True)
    assert database_out_of_reach(cut)


def test_an_exhausted_pool_is_an_outage(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}", pool_size=1,
                           max_overflow=0, pool_timeout=0.1)
    with engine.connect(), pytest.raises(Exception) as raised, engine.connect():
        pass
    engine.dispose()
    assert database_out_of_reach(raised.value)


@pytest.fixture
def client(sqlite_url: str) -> TestClient:
    return TestClient(create_app(Settings(db_url=sqlite_url)), raise_server_exceptions=False)


def _looking_up_fails_with(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    async def load_table(self: Store, table_id: str) -> None:
        raise error

    monkeypatch.setattr(Store, "load_table", load_table)


def test_a_request_that_finds_the_database_out_of_reach_is_told_so(
        client: TestClient, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    with client:
        _looking_up_fails_with(monkeypatch, ConnectionRefusedError(111, "Connection refused"))
        answer = client.get("/api/tables/0123456789abcdef")
    assert answer.status_code == 503
    assert answer.json()["code"] == "storage.down"
    assert answer.headers["Retry-After"] == "2"
    assert any(record.getMessage() == "a request found a service out of reach"
               for record in caplog.records)


def test_a_request_that_finds_redis_out_of_reach_is_told_so(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    with client:
        _looking_up_fails_with(monkeypatch, RedisConnectionError("Connection refused"))
        answer = client.get("/api/tables/0123456789abcdef")
    assert (answer.status_code, answer.json()["code"]) == (503, "cluster.down")


def test_a_bug_in_a_statement_stays_a_server_error(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = DBAPIError("SELECT nothing", {}, sqlite3.OperationalError("no such table"))
    with client:
        _looking_up_fails_with(monkeypatch, wrong)
        answer = client.get("/api/tables/0123456789abcdef")
    assert answer.status_code == 500


def test_connections_postgres_closed_in_the_pool_fail_no_request() -> None:
    """A PostgreSQL restart or failover closes every pooled connection; the request after
    it gets a new one, not the first refusal."""
    require_postgres()
    with fresh_postgres() as url, TestClient(create_app(Settings(db_url=url))) as client:
        assert client.post("/api/profiles", json={"display_name": "Ann"}).status_code == 201
        name = url.rsplit("/", 1)[1]
        _admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
               f"WHERE datname = '{name}' AND pid <> pg_backend_pid()")
        answer = client.post("/api/profiles", json={"display_name": "Bo"})
        assert answer.status_code == 201, answer.text
