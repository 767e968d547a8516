"""Per-address limits count an IPv6 client by its /64 (``server/address_groups.py``), and
profiles made from one address group are bounded per minute (``guards.ProfileQuota``)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from twintable.server.address_groups import address_group
from twintable.server.app import create_app
from twintable.server.settings import Settings


@pytest.mark.parametrize(("host", "prefix", "group"), [
    ("203.0.113.7", 64, "203.0.113.7"),
    ("2001:db8:1:2:aaaa::1", 64, "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff:ffff:ffff:ffff", 64, "2001:db8:1:2::/64"),
    ("2001:db8:1:3::1", 64, "2001:db8:1:3::/64"),
    ("2001:db8:1:3::1", 48, "2001:db8:1::/48"),
    ("::ffff:198.51.100.9", 64, "198.51.100.9"),
    ("testclient", 64, "testclient"),
])
def test_addresses_fall_into_their_groups(host: str, prefix: int, group: str) -> None:
    assert address_group(host, prefix) == group


def client_at(db_url: str, host: str, **settings: object) -> TestClient:
    return TestClient(create_app(Settings(db_url=db_url, bot_delay_ms=0, **settings)),
                      client=(host, 40000))  # type: ignore[arg-type]


def test_one_ipv6_network_shares_one_table_limit(sqlite_url: str) -> None:
    """Each table from another address of one /64: the network's share is spent as one
    address's would be; another network has its own."""
    body = {"game": "timo", "players": 2, "display_name": "Ann"}
    with client_at(sqlite_url, "2001:db8:1:2::1", max_open_tables_per_client=3) as first:
        app = first.app
        statuses = []
        for n in range(5):  # more clients of the same running app (no second start)
            each = TestClient(app, client=(f"2001:db8:1:2::{n + 1:x}", 40000))
            statuses.append(each.post("/api/tables", json=body).status_code)
        assert statuses == [201, 201, 201, 429, 429], statuses
        neighbour = TestClient(app, client=("2001:db8:1:3::1", 40000))
        assert neighbour.post("/api/tables", json=body).status_code == 201


def test_profiles_made_from_one_address_are_bounded(sqlite_url: str) -> None:
    with client_at(sqlite_url, "203.0.113.7", profiles_per_minute=3) as client:
        answers = [client.post("/api/profiles", json={"display_name": "Bo"})
                   for _ in range(5)]
        assert [a.status_code for a in answers] == [201, 201, 201, 429, 429]
        refused = answers[-1]
        assert refused.json()["code"] == "profiles.too_many"
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        other = TestClient(client.app, client=("203.0.113.8", 40000))
        assert other.post("/api/profiles", json={"display_name": "Cy"}).status_code == 201
