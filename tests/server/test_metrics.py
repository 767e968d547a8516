"""The metrics: the action figures, counted in plain numbers on the hot path, read as
prometheus_client's own counter and histogram would have read; a scrape's worker label,
process figures, routes, tables, drains and leases; and who may read them."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

from tests.server.client import app_client, create_table
from tests.server.conftest import services_required
from twintable.server.cluster import Cluster
from twintable.server.metrics import LATENCY_BUCKETS, Metrics, ServerFigures


def test_the_action_figures_read_as_prometheus_clients_own() -> None:
    rng = random.Random(4)
    # Bounds themselves, just either side of them, and beyond the last.
    samples = [*LATENCY_BUCKETS, *(b * 1.0001 for b in LATENCY_BUCKETS), 0.0, 7.0,
               *(rng.expovariate(100) for _ in range(500))]
    answers = [rng.random() < 0.9 for _ in samples]
    ours = Metrics(worker="w1")
    reference = CollectorRegistry()
    counted = Counter("twintable_actions", "Actions submitted, by answer", ["answer"],
                      registry=reference)
    timed = Histogram("twintable_action_seconds",
                      "Time from receiving an action to its answer",
                      buckets=LATENCY_BUCKETS, registry=reference)
    for seconds, accepted in zip(samples, answers, strict=True):
        ours.observe_action(seconds, accepted)
        counted.labels(answer="ack" if accepted else "error").inc()
        timed.observe(seconds)

    def figures(text: bytes) -> dict[str, float]:
        lines = [line.rsplit(" ", 1) for line in text.decode().splitlines()
                 if line.startswith(("twintable_action_seconds", "twintable_actions_total"))]
        # Ours name their worker; the reference names none.
        return {name.replace(',worker="w1"', "").replace('{worker="w1"}', ""):
                round(float(value), 9) for name, value in lines
                if not name.endswith("_created")}  # when each was made: not ours to match

    expected = figures(generate_latest(reference))
    assert figures(ours.render()).items() >= expected.items()
    assert expected['twintable_actions_total{answer="ack"}'] == sum(answers)


def scrape(client: TestClient) -> dict[str, list[Sample]]:
    """``/metrics`` read as Prometheus reads it: each family's samples by family name."""
    response = client.get("/metrics")
    assert response.status_code == 200, response.text
    return {family.name: family.samples
            for family in text_string_to_metric_families(response.text)}


def value(samples: list[Sample], name: str, **labels: str) -> float:
    [found] = [s.value for s in samples
               if s.name == name and labels.items() <= s.labels.items()]
    return found


def test_a_scrape_names_its_worker_and_counts_routes_tables_and_the_process(
        sqlite_url: str) -> None:
    with app_client(sqlite_url, address="127.0.0.1") as client:
        made = create_table(client)
        table_id = made["table"]["id"]
        for _ in range(3):
            assert client.get(f"/api/tables/{table_id}").status_code == 200
        assert client.get("/api/tables/no-such-table").status_code == 404
        families = scrape(client)
    worker = str(os.getpid())
    every = [sample for samples in families.values() for sample in samples]
    assert every and all(sample.labels.get("worker") == worker for sample in every)
    for name in ("process_cpu_seconds", "process_resident_memory_bytes",
                 "process_open_fds"):
        assert value(families[name], name if name != "process_cpu_seconds"
                     else "process_cpu_seconds_total") > 0
    # By the route's template: the table's id and the unknown one count together.
    requests = families["twintable_http_requests"]
    route = "/api/tables/{table_id}"
    assert value(requests, "twintable_http_requests_total", route=route, method="GET",
                 status="200") == 3
    assert value(requests, "twintable_http_requests_total", route=route, method="GET",
                 status="404") == 1
    assert value(requests, "twintable_http_requests_total", route="/api/tables",
                 method="POST", status="201") == 1
    timed = families["twintable_http_request_seconds"]
    assert value(timed, "twintable_http_request_seconds_count", route=route,
                 method="GET") == 4
    assert value(timed, "twintable_http_request_seconds_bucket", route=route,
                 method="GET", le="+Inf") == 4
    assert value(timed, "twintable_http_request_seconds_sum", route=route, method="GET") > 0
    tables = families["twintable_tables"]
    assert [value(tables, "twintable_tables", status=status)
            for status in ("open", "running", "finished")] == [1, 0, 0]
    assert value(families["twintable_db_seconds"], "twintable_db_seconds_count",
                 operation="insert") >= 1
    assert value(families["twintable_worker_info"], "twintable_worker_info",
                 pid=worker) == 1
    assert "twintable_leases_held" not in families  # one process holds no Redis leases


def test_a_drain_is_counted_and_timed(sqlite_url: str) -> None:
    with app_client(sqlite_url, address="127.0.0.1") as client:
        create_table(client)
        server = client.app.state.server  # type: ignore[attr-defined]
        client.portal.call(server.drain, 5.0)  # type: ignore[union-attr]
        families = scrape(client)
    assert value(families["twintable_draining"], "twintable_draining") == 1
    drains = families["twintable_drain_seconds"]
    assert value(drains, "twintable_drain_seconds_count", outcome="done") == 1
    assert 0 < value(drains, "twintable_drain_seconds_sum", outcome="done") < 5


@pytest.mark.parametrize(("address", "headers", "settings", "status"), [
    ("127.0.0.1", {}, {}, 200),
    ("::1", {}, {}, 200),
    ("203.0.113.9", {}, {}, 403),
    ("testclient", {}, {}, 403),
    # A proxy on this machine forwarding someone else's request.
    ("127.0.0.1", {"X-Forwarded-For": "203.0.113.9"}, {}, 403),
    ("127.0.0.1", {"X-Real-IP": "203.0.113.9"}, {}, 403),
    ("203.0.113.9", {}, {"metrics_from": ["203.0.113.0/24"]}, 200),
    ("198.51.100.1", {}, {"metrics_from": ["203.0.113.0/24"]}, 403),
    ("203.0.113.9", {}, {"public_metrics": True}, 200),
])
def test_metrics_are_this_machines_unless_the_operator_says_otherwise(
        sqlite_url: str, address: str, headers: dict[str, str], settings: dict[str, Any],
        status: int) -> None:
    with app_client(sqlite_url, address=address, **settings) as client:
        response = client.get("/metrics", headers=headers)
    assert response.status_code == status, response.text
    if status == 403:
        assert response.json()["code"] == "metrics.private"
        assert "twintable_" not in response.text


def test_a_worker_counts_the_leases_it_gains_and_loses_and_times_redis() -> None:
    require_redis()

    async def run() -> tuple[int, int, int, set[str]]:
        cluster = Cluster("redis://127.0.0.1:6379/13", prefix=f"tt-lease-{time.time_ns()}:",
                          lease_ttl_ms=300)
        await cluster.start()
        try:
            assert await cluster.acquire("t1") is not None
            assert await cluster.acquire("t2") is not None
            await cluster.redis.delete(cluster._lease_key("t1"))  # as if it expired
            for _ in range(100):
                if cluster.leases_lost:
                    break
                await asyncio.sleep(0.05)
            return (len(cluster.held), cluster.leases_gained, cluster.leases_lost,
                    {labels[0] for labels in cluster.timings.by})
        finally:
            await cluster.close()

    held, gained, lost, operations = asyncio.run(run())
    assert (held, gained, lost) == (1, 2, 1)
    assert {"acquire", "renew", "heartbeat"} <= operations

    metrics = Metrics(worker="w1")
    metrics.watch(lambda: ServerFigures(leases=(held, gained, lost)))
    families = {f.name: f.samples
                for f in text_string_to_metric_families(metrics.render().decode())}
    assert value(families["twintable_leases_held"], "twintable_leases_held",
                 worker="w1") == 1
    assert value(families["twintable_leases_gained"], "twintable_leases_gained_total") == 2
    assert value(families["twintable_leases_lost"], "twintable_leases_lost_total") == 1


def require_redis() -> None:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        if services_required():
            pytest.fail("Redis at 127.0.0.1:6379 unreachable (TWINTABLE_REQUIRE_SERVICES=1)")
        pytest.skip("Redis at 127.0.0.1:6379 unreachable")
