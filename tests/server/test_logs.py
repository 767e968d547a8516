"""The logs: one JSON object per line with a millisecond timestamp, the request id of the
HTTP request being served (a trusted proxy's kept, anyone else's replaced), uvicorn's
own lines in the same format from a real ``twintable serve``, the supervising parent's
too (a worker's death), and a burst of one warning collapsed into a few lines and a
count."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.server.client import app_client, free_port, free_port_run
from tests.server.test_cluster_faults import (
    database,  # noqa: F401 (a fixture)
    services,  # noqa: F401 (a fixture)
)
from tests.server.test_cluster_serve import children
from twintable.server.logs import JsonFormatter, RepeatedWarnings

#: ISO 8601, UTC, milliseconds.
MS_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00")


@pytest.fixture
def app_lines() -> Iterator[io.StringIO]:
    """What the app's loggers write while the test runs, formatted as served."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("twintable")
    saved = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield stream
    logger.removeHandler(handler)
    logger.setLevel(saved)


def records(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


@pytest.mark.parametrize(("address", "given", "kept"), [
    ("10.0.0.2", "edge-7f3a", True),  # the trusted proxy
    ("203.0.113.9", "edge-7f3a", False),  # anyone else
    ("10.0.0.2", "bad id\nforged line", False),  # not plain text
    ("10.0.0.2", None, False),
])
def test_a_requests_lines_carry_its_id_and_a_millisecond_timestamp(
        sqlite_url: str, app_lines: io.StringIO, address: str, given: str | None,
        kept: bool) -> None:
    with app_client(sqlite_url, address=address, trusted_proxies=["10.0.0.0/24"]) as client:
        body = {"game": "timo", "players": 2, "display_name": "Ann"}
        response = client.post("/api/tables", json=body,
                               headers={"X-Request-ID": given} if given else {})
        assert response.status_code == 201, response.text
        ident = response.headers["x-request-id"]
        other = client.get("/healthz").headers["x-request-id"]
    assert (ident == given) is kept
    assert re.fullmatch(r"[A-Za-z0-9._:+=-]{1,128}", ident) and other != ident
    [created] = [r for r in records(app_lines) if r["message"] == "table created"]
    assert created["request_id"] == ident
    assert created["table"] == response.json()["table"]["id"]
    assert MS_TIMESTAMP.fullmatch(created["time"]), created["time"]
    assert created["level"] == "info" and created["logger"] == "twintable.server"
    # Lines logged outside any request (the start) carry no request's id.
    [started] = [r for r in records(app_lines) if r["message"] == "worker started"]
    assert "request_id" not in started


def test_uvicorns_lines_and_the_apps_are_one_json_stream(tmp_path: Path) -> None:
    port = free_port()
    errors = tmp_path / "stderr.log"
    with errors.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db",
             f"sqlite:///{tmp_path / 'tt.sqlite3'}", "--log-level", "info"],
            stdout=subprocess.DEVNULL, stderr=sink)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    answer = httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                    break
                except httpx2.HTTPError:
                    assert time.monotonic() < deadline, errors.read_text()
                    time.sleep(0.1)
            ident = answer.headers["x-request-id"]
            # Loopback, but the request came through a proxy.
            proxied = httpx2.get(f"http://127.0.0.1:{port}/metrics",
                                 headers={"X-Forwarded-For": "203.0.113.9"})
            assert proxied.status_code == 403
        finally:
            process.terminate()
            process.wait(timeout=20)
    lines = errors.read_text().splitlines()
    parsed = [json.loads(line) for line in lines]  # every line, or this fails
    assert all(MS_TIMESTAMP.fullmatch(r["time"]) for r in parsed)
    [access] = [r for r in parsed
                if r["logger"] == "uvicorn.access" and r.get("path") == "/healthz"]
    assert access["request_id"] == ident
    assert access["status"] == 200 and access["method"] == "GET"
    assert access["client"].startswith("127.0.0.1:")
    messages = {(r["logger"], r["message"].split(" [")[0]) for r in parsed}
    assert ("uvicorn.error", "Started server process") in messages
    assert ("twintable.storage", "database migrated") in messages
    assert ("twintable.server", "worker started") in messages
    assert ("twintable.server", "worker stopped") in messages


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_of_one_warning_collapses_into_a_few_lines_and_a_count() -> None:
    clock = Clock()
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RepeatedWarnings(burst=3, every_s=10.0, clock=clock))
    logger = logging.getLogger("test_logs.burst")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        for n in range(200):  # an outage: the same warning with a different error each
            logger.warning("could not renew table leases", extra={"error": f"#{n}"})
            logger.info("a move")  # information is never dropped
            clock.now += 0.001
        logger.warning("another warning")
        clock.now += 10.0
        logger.warning("could not renew table leases", extra={"error": "#200"})
        # A minute more of it, once a second: one line every ten seconds.
        for n in range(201, 261):
            clock.now += 1.0
            logger.warning("could not renew table leases", extra={"error": f"#{n}"})
    finally:
        logger.removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    renewals = [line for line in lines if line["message"] == "could not renew table leases"]
    assert [line["error"] for line in renewals][:4] == ["#0", "#1", "#2", "#200"]
    assert [line.get("dropped") for line in renewals][:4] == [None, None, None, 197]
    assert 6 <= len(renewals) - 4 <= 7  # the minute after: every ten seconds
    assert all(line["dropped"] == 9 for line in renewals[5:])
    assert sum(line["message"] == "a move" for line in lines) == 200
    assert sum(line["message"] == "another warning" for line in lines) == 1


def test_the_supervisors_lines_are_json_and_name_a_dead_worker(
        database: str, tmp_path: Path) -> None:  # noqa: F811
    port = free_port_run(3)
    errors = tmp_path / "stderr.log"
    with errors.open("wb") as sink:
        parent = subprocess.Popen(
            [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db",
             database, "--redis", "redis://127.0.0.1:6379/0", "--redis-prefix",
             f"tt-logs-{time.time_ns()}:", "--workers", "2", "--log-level", "info"],
            stdout=subprocess.DEVNULL, stderr=sink)
        try:
            deadline = time.monotonic() + 60
            while len([line for line in errors.read_text().splitlines()
                       if '"worker started"' in line]) < 2:
                assert parent.poll() is None and time.monotonic() < deadline, \
                    errors.read_text()[-2000:]
                time.sleep(0.2)
            workers = {json.loads(line)["pid"] for line in errors.read_text().splitlines()
                       if '"worker started"' in line}
            victim = min(workers & set(children(parent.pid)))  # (not multiprocessing's own)
            os.kill(victim, signal.SIGKILL)
            while '"worker died"' not in errors.read_text():
                assert time.monotonic() < deadline, errors.read_text()[-2000:]
                time.sleep(0.1)
        finally:
            parent.terminate()
            parent.wait(timeout=30)
    parsed = [json.loads(line) for line in errors.read_text().splitlines()]
    [died] = [r for r in parsed if r["message"] == "worker died"]
    assert died["level"] == "error" and died["pid"] == victim
    assert MS_TIMESTAMP.fullmatch(died["time"])
    started = [r for r in parsed if r["message"] == "worker started"]
    assert len({r["worker"] for r in started}) >= 2 and all(r["pid"] for r in started)
