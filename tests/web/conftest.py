"""Browser test fixtures: a real `twintable serve` on loopback and Debian's Chromium.

Without Chromium (or Playwright) the browser tests skip, except when
TWINTABLE_REQUIRE_SERVICES=1, where they fail: CI must run them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.client import free_port
from tests.server.test_cluster_faults import ONE_MACHINE

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    db = tmp_path_factory.mktemp("web") / "twintable.sqlite3"
    # Its log goes to a file, read back when it fails to start: a pipe nobody reads would
    # block the server in a write once 64 KiB of warnings filled it (a whole browser run
    # logs nothing at this level today, so this is a guard, not a mended stall).
    log = db.with_suffix(".log")
    process = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db",
         f"sqlite:///{db}", "--bot-delay-ms", "40", "--realtime-bot-pace", "0.15",
         "--log-level", "warning", *ONE_MACHINE],
        stdout=subprocess.DEVNULL, stderr=log.open("ab"))
    url = f"http://127.0.0.1:{port}"
    wait_until_up(process, url, log)
    yield url
    process.terminate()
    process.wait(timeout=15)


def serve_on(port: int, db: Path) -> subprocess.Popen[bytes]:
    """A `twintable serve` of a test's own (to kill and restart), once it answers."""
    log = db.with_suffix(".log")  # a file, not a pipe nobody drains while it serves
    process = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db",
         f"sqlite:///{db}", "--bot-delay-ms", "40", "--log-level", "warning", *ONE_MACHINE],
        stdout=subprocess.DEVNULL, stderr=log.open("ab"))
    wait_until_up(process, f"http://127.0.0.1:{port}", log)
    return process


def wait_until_up(process: subprocess.Popen[bytes], url: str, log: Path) -> None:
    """Wait until the server at ``url`` answers its health check.

    A start is slow on a loaded machine (a restart replays its tables; beside stress-ng a
    plain start took over 10 s, and a fixed number of tries then handed the tests a
    server not yet listening: "connection refused"): wait while the server lives, fail
    as soon as it exits, and never go on without an answer."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1):
                return
        except OSError:
            if process.poll() is not None:
                error = log.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"the server exited at start: {error}") from None
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not answer in 90 s")


# Per module, not per session: Playwright's sync API keeps an event loop running in the
# main thread while it is open, and tests of other folders that call asyncio.run may run
# in the same process between two browser modules (pytest -n).
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    required = os.environ.get("TWINTABLE_REQUIRE_SERVICES") == "1"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if required:
            raise
        pytest.skip("Playwright is not installed (pip install -e '.[test]')")
    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        if required:
            pytest.fail("Chromium is missing: apt-get install -y chromium")
        pytest.skip("Debian's Chromium is not installed (apt-get install -y chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


class Tab:
    """One browser page that records console errors and uncaught exceptions."""

    def __init__(self, page: Any, base: str):
        self.page = page
        self.base = base
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.set_default_timeout(15_000)

    def go(self, path: str = "/") -> None:
        self.page.goto(self.base + path)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    # Kept on the item so that a tab's teardown knows whether its test failed.
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def _record_failure(tab: Tab, request: pytest.FixtureRequest,
                    folders: pytest.TempPathFactory) -> None:
    """What the page looked like when its test failed: a screenshot and the page's text,
    in a folder of pytest's temporary ones (kept for the last runs), named in the
    report."""
    folder = folders.mktemp(re.sub(r"[^\w-]", "_", request.node.name)[:60])
    try:
        tab.page.screenshot(path=str(folder / "failed.png"), full_page=True)
        (folder / "failed.txt").write_text(
            f"{tab.page.url}\n\n{tab.page.locator('body').inner_text(timeout=5_000)}\n\n"
            f"console errors: {tab.errors}\n")
    except Exception as error:  # the page itself may be what broke
        (folder / "failed.txt").write_text(f"could not record the page: {error}\n")
    print(f"the page at the failure: {folder}")


def _open_tab(browser: Any, base: str, width: int, height: int,
              request: pytest.FixtureRequest | None = None, bypass_csp: bool = True,
              service_workers: str = "block") -> Iterator[Tab]:
    """A page in a fresh browser context; it must end without console errors.

    Tests poll the page with string predicates, which Playwright evaluates like eval():
    the server's Content-Security-Policy forbids that, so test pages bypass it, except
    ``strict_tab``, which checks that the client itself runs under the policy."""
    # The app's service worker answers the client's files from its cache, where a test's
    # page.route() never sees them: off, except for the tests of the worker itself.
    context = browser.new_context(viewport={"width": width, "height": height},
                                  bypass_csp=bypass_csp, service_workers=service_workers)
    opened = Tab(context.new_page(), base)
    # Asked for now: a fixture cannot be taken up for the first time in a teardown.
    folders = request.getfixturevalue("tmp_path_factory") if request is not None else None
    yield opened
    called = getattr(request.node, "report_call", None) if request is not None else None
    if request is not None and folders is not None and called is not None and called.failed:
        _record_failure(opened, request, folders)
    context.close()
    assert opened.errors == [], opened.errors


@pytest.fixture
def tab(browser: Any, server_url: str, request: pytest.FixtureRequest) -> Iterator[Tab]:
    yield from _open_tab(browser, server_url, 1200, 900, request)


@pytest.fixture
def installed_tab(browser: Any, server_url: str, request: pytest.FixtureRequest
                  ) -> Iterator[Tab]:
    """A page whose service worker runs (the app's shell kept offline)."""
    yield from _open_tab(browser, server_url, 1200, 900, request, service_workers="allow")


@pytest.fixture
def second_tab(browser: Any, server_url: str, request: pytest.FixtureRequest
               ) -> Iterator[Tab]:
    """A second person, on a phone-sized screen."""
    yield from _open_tab(browser, server_url, 390, 844, request)


@pytest.fixture
def strict_tab(browser: Any, server_url: str, request: pytest.FixtureRequest
               ) -> Iterator[Tab]:
    """A page under the server's Content-Security-Policy: a violation is a console error."""
    yield from _open_tab(browser, server_url, 1200, 900, request, bypass_csp=False)
