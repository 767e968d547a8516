"""Where clients are sent (``server/public.py``): built from the configuration alone."""

from __future__ import annotations

import pytest

from twintable.server.public import (
    check_advertise_url,
    check_public_url,
    default_public_url,
    worker_url,
)


def test_the_default_public_address_is_the_one_listened_on_unless_it_is_every_one() -> None:
    assert default_public_url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert default_public_url("::1", 8000) == "http://[::1]:8000"
    assert default_public_url("play.example.org", 80) == "http://play.example.org:80"
    assert default_public_url("0.0.0.0", 8000) is None
    assert default_public_url("::", 8000) is None


@pytest.mark.parametrize(("public", "advertise", "port", "sent_to"), [
    ("http://127.0.0.1:8000", None, 8001, "ws://127.0.0.1:8001"),
    ("https://play.example.org", None, 8001, "wss://play.example.org:8001"),
    ("http://[::1]:8000", None, 8002, "ws://[::1]:8002"),
    ("http://127.0.0.1:8100", "/w1", None, "ws://127.0.0.1:8100/w1"),
    ("https://play.example.org", "/w2/", None, "wss://play.example.org/w2"),
    ("https://play.example.org", "wss://w1.example.org/", 8001, "wss://w1.example.org"),
    (None, "wss://w1.example.org", None, "wss://w1.example.org"),
    (None, "/w1", None, None),
    (None, None, 8001, None),
    ("http://127.0.0.1:8000", None, None, None),
])
def test_a_workers_address_comes_from_its_configuration(
        public: str | None, advertise: str | None, port: int | None,
        sent_to: str | None) -> None:
    assert worker_url(public, advertise, port) == sent_to


@pytest.mark.parametrize("bad", ["play.example.org", "ftp://x", "http://", "http://0.0.0.0:80",
                                 "http://h:99999", "ws://play.example.org"])
def test_a_public_url_is_an_http_address_people_open(bad: str) -> None:
    with pytest.raises(ValueError):
        check_public_url(bad)
    assert check_public_url("https://play.example.org/") == "https://play.example.org"


@pytest.mark.parametrize("bad", ["w1", "//evil.example/w1", "http://w1.example.org",
                                 "ws://", "wss://h:99999"])
def test_an_advertised_address_is_a_path_or_a_websocket_url(bad: str) -> None:
    with pytest.raises(ValueError):
        check_advertise_url(bad)
