"""Two workers whose PostgreSQL and Redis traffic crosses real links (network namespaces
and veth pairs, ``tests/server/netns.py``), under network faults: latency and loss to
Redis, a worker cut off from Redis, a worker cut off from PostgreSQL, and a partition
that heals. After each, as in ``test_cluster_faults.py``: every game finished, every
acknowledged move is in the log once and in order, every move a client was shown is the
log's (no table was run by two workers at once), and the clients came back by themselves.

The root network namespace is never touched (no link, no address, no link going down:
the browser tests beside these take any such change for a network change and abort their
page loads); a test checks it during a run, and every test's fixture after it.

Needs root and iproute2; skipped with the reason where namespaces cannot be made, and
failed instead under TWINTABLE_REQUIRE_SERVICES=1 (CI).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from tests.server.conftest import services_required
from tests.server.netns import WORKER_PORT, Place, places, root_network, why_not
from tests.server.test_cluster_faults import (
    LEASE_TTL_MS,
    ONE_ROUND,
    SEVERAL_ROUNDS,
    Client,
    Worker,
    _grep,
    check_logs,
    database,  # noqa: F401  (a fixture)
    open_tables,
    play_all,
    services,  # noqa: F401  (a fixture)
    unfinished,
    workers,
)

pytestmark = pytest.mark.services

REDIS = "redis://127.0.0.1:6379/13"


@pytest.fixture
def network(services: None) -> Iterator[list[Place]]:  # noqa: F811
    """Two namespaces, one per worker."""
    reason = why_not()
    if reason is not None:
        if services_required():
            pytest.fail(f"{reason} (TWINTABLE_REQUIRE_SERVICES=1)")
        pytest.skip(reason)
    before = root_network()
    with places(2) as made:
        yield made
    _left_nothing(before, made)


def _left_nothing(before: tuple[str, str], made: list[Place]) -> None:
    """The root namespace's links and addresses as they were, and no namespace left."""
    assert root_network() == before
    left = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True,
                          check=True).stdout.split()
    assert not {name for place in made for name in (place.namespace, place.hub)} & set(left)


def _addresses(*running: Worker) -> list[str]:
    return [worker.address for worker in running]


def _finished_well(database: str, tables: list[dict[str, object]],  # noqa: F811
                   clients: list[Client]) -> None:
    assert not unfinished(clients), unfinished(clients)
    check_logs(database, tables, clients)  # type: ignore[arg-type]
    assert sum(len(client.acks) for client in clients) > 0


def _taken_over(worker: Worker) -> set[str]:
    """The tables ``worker`` took over still in play, from its log. A table whose last
    move the cut-off worker made before the takeover is taken over only to be closed: its
    person saw the end where they were, with no reason to reconnect (CI once counted one
    such table as stranded)."""
    taken = set()
    for line in worker.log.read_text().splitlines():
        if '"table taken over"' in line and json.loads(line)["in_play"]:
            taken.add(json.loads(line)["table"])
    return taken


def _came_back(clients: list[Client], taken: set[str], cut_off: Worker) -> None:
    """Some tables moved, and every person at one whose socket was at the cut-off worker
    reconnected by themselves (that worker cannot serve them any more). A person whose
    socket was at the taking worker may be served on through the same socket, so only
    whether their game ends (``_finished_well``) is asked of them."""
    assert taken
    moved = [client for client in clients if client.table_id in taken]
    stranded = [client for client in moved if client.addresses[0] == cut_off.address]
    assert moved and all(client.reconnects for client in stranded), [
        (client.table_id, client.addresses[0], client.reconnects) for client in moved]


_PING = """
import socket, sys
with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=2) as sock:
    sock.sendall(b"PING\\r\\n")
    print(sock.recv(100).decode().strip())
"""


def _redis_ping(place: Place) -> str:
    """Redis's answer to PING from inside ``place``, across its link and relay."""
    done = subprocess.run([*place.prefix(), sys.executable, "-c", _PING, place.hosts["redis"],
                           "6379"], capture_output=True, text=True, timeout=20)
    return done.stdout.strip() if done.returncode == 0 else done.stderr.strip()[-200:]


def _worker_answers(port: int) -> str:
    """What a server in a place answers on 127.0.0.1:``port`` (its relay), within 10 s."""
    deadline = time.monotonic() + 10
    while True:
        try:
            return httpx2.get(f"http://127.0.0.1:{port}/", timeout=2).text
        except httpx2.HTTPError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_the_root_namespace_is_untouched(services: None, tmp_path: Path) -> None:  # noqa: F811
    """Places made, used through every relay, cut, healed and removed: the root
    namespace's links and addresses never change."""
    reason = why_not()
    if reason is not None:
        if services_required():
            pytest.fail(f"{reason} (TWINTABLE_REQUIRE_SERVICES=1)")
        pytest.skip(reason)
    before = root_network()
    with places(2) as made:
        assert root_network() == before  # every place up
        (tmp_path / "index.html").write_text("in the namespace")
        server = subprocess.Popen(
            [*made[1].prefix(), sys.executable, "-m", "http.server", "--bind",
             made[1].address, "--directory", str(tmp_path), str(WORKER_PORT)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            assert _worker_answers(made[1].client_port) == "in the namespace"
        finally:
            server.terminate()
            server.wait(10)
        assert [_redis_ping(place) for place in made] == ["+PONG", "+PONG"]
        made[0].cut("redis")
        made[1].cut("postgres")
        assert root_network() == before  # links cut
        assert _redis_ping(made[0]) != "+PONG"  # the cut is real
        assert _redis_ping(made[1]) == "+PONG"  # and only that link's
        made[0].heal("redis")
        made[1].heal("postgres")
        assert _redis_ping(made[0]) == "+PONG"
    _left_nothing(before, made)


def test_latency_and_loss_between_a_worker_and_redis(
        database: str, network: list[Place], tmp_path: Path) -> None:  # noqa: F811
    near = network[0]
    with workers(database, REDIS, tmp_path, places=network) as (first, second):
        # The network turns bad once the platform runs (the workers started on a good
        # one: a start-up of hundreds of round trips at 200 ms each is not the scenario).
        near.impair("redis", one_way_s=0.1, loss=0.05)  # 200 ms round trip, 5 % lost
        tables = open_tables([first, second], 8, people=4, target=ONE_ROUND)
        clients = asyncio.run(play_all(tables, _addresses(first, second), 45))
    impaired = near.impairments["redis"]
    assert impaired.chunks > 100 and impaired.lost > 0, impaired
    _finished_well(database, tables, clients)


def test_a_worker_cut_off_from_redis_is_fenced_and_taken_over(
        database: str, network: list[Place], tmp_path: Path) -> None:  # noqa: F811
    with workers(database, REDIS, tmp_path, places=network) as (first, second):
        tables = open_tables([first, second], 8, people=8, target=SEVERAL_ROUNDS)

        async def cut_first() -> None:
            await asyncio.sleep(1.0)
            network[0].cut("redis")
            await asyncio.sleep(4 * LEASE_TTL_MS / 1000)  # its leases lapse
            network[0].heal("redis")

        clients = asyncio.run(play_all(tables, _addresses(first, second), 50, cut_first(),
                                       held=4))
        # The other worker took the tables over; the cut-off one stopped writing them.
        assert _grep(second, "table taken over") > 0
        assert _grep(first, "write refused") + _grep(first, "table lease lost") > 0
        # And it stopped at once: a table's first refused write drops it (its bots do not
        # try again and again while the lease, out of reach, is being given back).
        assert _grep(first, "write refused") <= len(tables)
        taken = _taken_over(second)
    _came_back(clients, taken, first)
    _finished_well(database, tables, clients)


def test_a_worker_cut_off_from_postgres(
        database: str, network: list[Place], tmp_path: Path) -> None:  # noqa: F811
    with workers(database, REDIS, tmp_path, places=network) as (first, second):
        tables = open_tables([first, second], 8, people=4, target=SEVERAL_ROUNDS)

        said: list[str] = []
        lookups: list[tuple[int, str | None]] = []

        async def cut_first() -> None:
            await asyncio.sleep(1.0)
            network[0].cut("postgres")
            # Past the 5 s in which a connection to an unreachable database is given up.
            cut_until = asyncio.get_running_loop().time() + 7.0
            async with httpx2.AsyncClient(timeout=5) as http:
                while asyncio.get_running_loop().time() < cut_until:
                    with contextlib.suppress(httpx2.HTTPError):
                        ready = await http.get(f"{first.base}/readyz")
                        said.append(ready.json().get("code", "ready"))
                    # A request that needs the database is told it is out of reach (503),
                    # not answered with a bare 500.
                    with contextlib.suppress(httpx2.HTTPError):
                        looked_up = await http.get(f"{first.base}/api/tables/no-such-table")
                        lookups.append((looked_up.status_code, looked_up.json().get("code")))
                    await asyncio.sleep(0.5)
                network[0].heal("postgres")
                # Ready again as soon as the network is back: nothing it kept from the
                # cut (a pooled connection, say) fails the first request after it.
                healed = await http.get(f"{first.base}/readyz")
                said.append(f"healed: {healed.json().get('code', 'ready')}")

        clients = asyncio.run(play_all(tables, _addresses(first, second), 50, cut_first()))
        # The cut-off worker said so while it lasted, and serves again since.
        assert "storage.down" in said, said
        assert said[-1] == "healed: ready", said
        assert (503, "storage.down") in lookups, lookups
        assert {status for status, _ in lookups} <= {503, 404}, lookups
        assert [first.readiness(), second.readiness()] == ["ready", "ready"]
    _finished_well(database, tables, clients)


def test_a_partition_heals(database: str, network: list[Place], tmp_path: Path) -> None:  # noqa: F811
    """The first worker loses both services past its leases, the second takes over; once
    the partition heals, the first serves again: a table made on it plays to the end."""
    with workers(database, REDIS, tmp_path, places=network) as (first, second):
        tables = open_tables([first, second], 8, people=8, target=SEVERAL_ROUNDS)

        async def partition() -> None:
            await asyncio.sleep(1.0)
            for service in ("redis", "postgres"):
                network[0].cut(service)
            await asyncio.sleep(4 * LEASE_TTL_MS / 1000)
            for service in ("redis", "postgres"):
                network[0].heal(service)

        clients = asyncio.run(play_all(tables, _addresses(first, second), 50, partition(),
                                       held=4))
        _came_back(clients, _taken_over(second), first)
        _finished_well(database, tables, clients)
        # Healed: both serve, and tables made through the first play to the end.
        assert [first.readiness(), second.readiness()] == ["ready", "ready"]
        after = open_tables([first, first], 4, people=2, target=ONE_ROUND)
        again = asyncio.run(play_all(after, _addresses(first, second), 30))
    _finished_well(database, after, again)
