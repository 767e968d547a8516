"""The app opens again without the network (issue #39: installable, its shell cached by a
service worker): the page and this install's files come from the browser's cache, and
the page says the server is out of reach instead of the browser's own error page."""

from __future__ import annotations

import pytest

from tests.web.conftest import Tab

pytestmark = pytest.mark.browser


def test_the_shell_opens_offline_once_visited(installed_tab: Tab) -> None:
    tab = installed_tab
    tab.go("/")
    tab.page.wait_for_selector("#create")
    # Installed once it has kept the shell, and in charge of the page.
    tab.page.evaluate("() => navigator.serviceWorker.ready")
    tab.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    tab.page.context.set_offline(True)
    try:
        tab.page.reload()
        # The page and its scripts came from the cache: the app ran (its header is in the
        # page's language) and says what it could not reach.
        tab.page.wait_for_selector("header .brand")
        tab.page.wait_for_function("() => document.querySelector('main').textContent.length > 0")
        assert tab.page.evaluate("() => document.documentElement.lang") == "en"
    finally:
        tab.page.context.set_offline(False)
    # The requests it could not make while offline, as the browser logs them.
    tab.errors[:] = [e for e in tab.errors if "ERR_INTERNET_DISCONNECTED" not in e
                     and "Failed to fetch" not in e and "Failed to load" not in e]
