"""The browser client on several workers (PostgreSQL and Redis): a table page connects
straight to its table's worker's own port, as the lobby named it (`Joined.socket`), under
the server's Content-Security-Policy, and plays there to the end; a page given an address
it cannot reach is served through the shared one instead."""

from __future__ import annotations

import secrets
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.server.client import free_port, free_port_run
from tests.server.conftest import fresh_postgres
from tests.server.test_cluster_faults import (
    Worker,
    services,  # noqa: F401 (a fixture)
)
from tests.web.conftest import _open_tab
from tests.web.play import create_table, play_to_results

pytestmark = pytest.mark.services


def elsewhere(call: Callable[..., Any], *args: Any) -> Any:
    """``call`` in another thread: Playwright's sync API keeps an event loop running in
    this one, and the database is made and dropped with asyncio.run."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call, *args).result()


@pytest.fixture
def database(services: None) -> Iterator[str]:  # noqa: F811
    """A PostgreSQL database of this test's own."""
    made = fresh_postgres()
    url: str = elsewhere(made.__enter__)
    try:
        yield url
    finally:
        elsewhere(made.__exit__, None, None, None)


def serve(database: str, prefix: str, log: Path, *options: str) -> Worker:
    """`twintable serve` on a free port of one platform (``prefix`` in Redis)."""
    port = free_port_run(3)  # the shared port, then one of its own per worker
    process = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db",
         database, "--redis", "redis://127.0.0.1:6379/13", "--redis-prefix", prefix,
         "--bot-delay-ms", "40", "--log-level", "warning", *options],
        stdout=log.open("wb"), stderr=subprocess.STDOUT)
    return Worker(port, log, process)


def wait_until_ready(*servers: Worker) -> None:
    deadline = time.monotonic() + 40
    while not all(server.ready() for server in servers):
        for server in servers:
            assert server.process.poll() is None, server.log.read_text()[-2000:]
        assert time.monotonic() < deadline, "the workers did not start"
        time.sleep(0.2)


@pytest.fixture
def two_workers(database: str, tmp_path: Path) -> Iterator[tuple[str, list[int]]]:
    """`serve --workers 2`: its URL and the workers' own ports."""
    server = serve(database, f"tt-web-{secrets.token_hex(4)}:", tmp_path / "serve.log",
                   "--workers", "2")
    own_ports = [server.port + 1, server.port + 2]
    try:
        wait_until_ready(*(Worker(own, server.log, server.process) for own in own_ports))
        yield server.base, own_ports
    finally:
        server.stop()


def test_a_table_page_is_sent_to_its_worker_and_plays_there(
        browser: Any, two_workers: tuple[str, list[int]]) -> None:
    _, own_ports = two_workers
    # The page is loaded from the first worker's own port, so its sockets land there
    # (from the shared port the kernel picks a worker); under the server's own
    # Content-Security-Policy: a blocked socket is a console error.
    first, second = (f"ws://127.0.0.1:{own}" for own in own_ports)
    opened = _open_tab(browser, f"http://127.0.0.1:{own_ports[0]}", 1200, 900,
                       bypass_csp=False)
    tab = next(opened)
    sockets: list[str] = []
    tab.page.on("websocket", lambda ws: sockets.append(ws.url))
    # Two tables: the second is made on the other worker (it runs fewer), and its page
    # connects there at once, not through a redirect from the worker it was loaded from.
    tables = []
    for _ in range(2):
        before = len(sockets)
        table_id = create_table(tab, "timo", 2, {"target": "1"})
        tab.page.click("#start")
        tab.page.wait_for_selector("#board > *")
        tables.append([url.removesuffix(f"/ws/tables/{table_id}") for url in sockets[before:]])
    assert tables == [[first], [second]]
    # Loaded again, the page goes straight to the table's worker once more.
    before = len(sockets)
    tab.page.reload()
    tab.page.wait_for_selector("#board > *")
    assert [url.removesuffix(f"/ws/tables/{table_id}") for url in sockets[before:]] == [second]
    play_to_results(tab, "timo")
    assert tab.page.locator("#results").is_visible()
    next(opened, None)  # closes the page, checking it logged no error


def test_a_page_sent_where_it_cannot_connect_is_served_through_the_shared_address(
        browser: Any, database: str, tmp_path: Path) -> None:
    # Worker "away" advertises an address where nothing listens (a proxy misconfigured).
    prefix, nowhere = f"tt-web-{secrets.token_hex(4)}:", free_port()
    away = serve(database, prefix, tmp_path / "away.log", "--advertise-url",
                 f"ws://127.0.0.1:{nowhere}")
    here = serve(database, prefix, tmp_path / "here.log")
    try:
        wait_until_ready(away, here)
        # "here" already runs a table, so the page's table is made on "away".
        made = httpx2.post(f"{here.base}/api/tables", json={"game": "timo", "players": 2,
                                                            "display_name": "Bo"})
        assert made.status_code == 201, made.text
        opened = _open_tab(browser, here.base, 1200, 900)
        tab = next(opened)
        sockets: list[str] = []
        tab.page.on("websocket", lambda ws: sockets.append(ws.url))
        table_id = create_table(tab, "timo", 2, {"target": "1"})
        tab.page.click("#start")
        tab.page.wait_for_selector("#board > *")
        shared = f"ws://127.0.0.1:{here.port}/ws/tables/{table_id}"
        assert sockets[:2] == [f"ws://127.0.0.1:{nowhere}/ws/tables/{table_id}", shared]
        play_to_results(tab, "timo")
        # The one console error allowed: the browser's word on the address it could not
        # reach.
        tab.errors = [error for error in tab.errors if f":{nowhere}/" not in error]
        next(opened, None)
    finally:
        here.stop()
        away.stop()
