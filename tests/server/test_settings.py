"""The rules a deployment follows, in the settings (``serve`` only reads its options and
starts the processes): each refusal is one line naming the rule."""

from __future__ import annotations

import socket

import pytest

from twintable.server.settings import Settings, SettingsError, deployment

PG = "postgresql://u:hunter2@127.0.0.1/test"


@pytest.mark.parametrize(("options", "said"), [
    ({"db": "nonsense://x"}, "--db takes a SQLite or PostgreSQL URL"),
    ({"db": "sqlite:///x.sqlite3", "redis": "redis://127.0.0.1:6379/0"}, "need PostgreSQL"),
    ({"workers": 2, "db": PG}, "need Redis"),
    ({"workers": 0}, "1 or more"),
    ({"workers": 2, "advertise_url": "/w1"}, "port of its own"),
    ({"workers": 2, "worker_ports": "many"}, "range of ports"),
    ({"workers": 2, "worker_ports": "9000-8000"}, "no such range"),
    ({"metrics_from": ["10.0.0.0/8", "nowhere"]}, "--metrics-from takes"),
    ({"public_url": "play.example.org"}, "--public-url takes"),
])
def test_each_rule_refuses_in_one_line(options: dict[str, object], said: str) -> None:
    with pytest.raises(SettingsError) as refused:
        deployment(**options)  # type: ignore[arg-type]
    assert said in str(refused.value) and "\n" not in str(refused.value)
    assert "hunter2" not in str(refused.value)


def test_several_workers_get_ports_of_their_own_and_a_banner_without_password() -> None:
    deployed = deployment(port=8100, workers=3, db=PG, redis="redis://:pw@127.0.0.1/0",
                          messages_per_address=10.0, tables_per_address=7)
    settings = deployed.settings
    assert deployed.ports == [8100, 8101, 8102, 8103]
    assert settings.db_url.startswith("postgresql+asyncpg://")
    assert (settings.max_open_tables_per_client, settings.client_message_burst) == (7, 20)
    assert "hunter2" not in deployed.banner() and "pw@" not in deployed.banner()
    assert "3 workers, their own ports 8101-8103" in deployed.banner()
    # Without an address of its own to send clients to, they go through Redis: said.
    spread = deployment(host="0.0.0.0", workers=2, db=PG, redis="redis://127.0.0.1/0")
    assert spread.settings.public_url is None and spread.warnings


def test_a_taken_port_is_refused_before_anything_starts() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(SettingsError, match=f"cannot listen on 127.0.0.1:{port}"):
            deployment(port=port, db="sqlite:///unused.sqlite3").check_reachable()


def test_settings_made_elsewhere_follow_the_same_rules() -> None:
    with pytest.raises(SettingsError, match="need PostgreSQL"):
        Settings(db_url="sqlite+aiosqlite:///x", redis_url="redis://r/0").validate()
    Settings(db_url="sqlite+aiosqlite:///x").validate()
