"""The browser client on several workers (`serve --workers 2`, PostgreSQL and Redis): a
table page whose socket reached the other worker is sent to its table's worker's own
port, under the server's Content-Security-Policy, and plays there to the end."""

from __future__ import annotations

import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.server.client import free_port
from tests.server.conftest import POSTGRES_URL
from tests.server.test_cluster_faults import (
    Worker,
    _admin,
    services,  # noqa: F401 (a fixture)
)
from tests.web.conftest import _open_tab
from tests.web.play import create_table, play_to_results

pytestmark = pytest.mark.services


def _admin_elsewhere(sql: str) -> None:
    # Playwright's sync API keeps an event loop running in this thread: the database is
    # made and dropped from another one (asyncio.run needs a thread without a loop).
    with ThreadPoolExecutor(1) as pool:
        pool.submit(_admin, sql).result()


@pytest.fixture
def two_workers(services: None, tmp_path: Path) -> Iterator[tuple[str, list[int]]]:  # noqa: F811
    """`serve --workers 2` on a database of its own: its URL and the workers' own ports."""
    name = f"tt_web_cluster_{secrets.token_hex(4)}"
    _admin_elsewhere(f"CREATE DATABASE {name}")
    port = free_port()
    log = tmp_path / "serve.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve", "--workers", "2", "--port",
         str(port), "--db", POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}", "--redis",
         "redis://127.0.0.1:6379/13", "--redis-prefix", f"tt-web-{secrets.token_hex(4)}:",
         "--bot-delay-ms", "40", "--log-level", "warning"],
        stdout=log.open("wb"), stderr=subprocess.STDOUT)
    own_ports = [port + 1, port + 2]
    server = Worker(port, log, process)
    try:
        deadline = time.monotonic() + 40
        while not all(Worker(own, log, process).ready() for own in own_ports):
            assert process.poll() is None, log.read_text()[-2000:]
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.2)
        yield server.base, own_ports
    finally:
        server.stop()
        _admin_elsewhere(f"DROP DATABASE {name} WITH (FORCE)")


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
    # Two tables: the second is made on the other worker (it runs fewer), so its page is
    # sent there; the first one's is served where it is.
    tables = []
    for _ in range(2):
        before = len(sockets)
        table_id = create_table(tab, "timo", 2, {"target": "1"})
        tab.page.click("#start")
        tab.page.wait_for_selector("#board > *")
        tables.append([url.removesuffix(f"/ws/tables/{table_id}") for url in sockets[before:]])
    assert tables == [[first], [first, second]]
    play_to_results(tab, "timo")
    assert tab.page.locator("#results").is_visible()
    next(opened, None)  # closes the page, checking it logged no error
