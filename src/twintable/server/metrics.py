"""Prometheus figures of one worker process: its tables and connections, actions and
their latency, HTTP requests by route, database and Redis latency, table leases, drains,
and the process itself (CPU, memory, descriptors, the garbage collector).

Every series carries a ``worker`` label (the worker's cluster id, or its pid when it
runs alone): under ``serve --workers N`` the shared port answers with whichever worker
the kernel gave the connection to, so a scrape must say whose figures it read
(docs/deploy.md, "Observability", says how to scrape each worker).

What changes often is counted in plain numbers and handed to Prometheus when it reads
them (:class:`Timings`, :class:`Counts`, :class:`ActionFigures`): prometheus_client's own
counter and histogram take a lock for each figure they change, a few microseconds each.
Everything here is counted on the event loop only.
"""

from __future__ import annotations

import os
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

#: The action latency histogram's upper bounds, in seconds.
LATENCY_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
#: An HTTP request's time, from its head read to its answer sent.
HTTP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: A round trip to the database or to Redis.
SERVICE_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                   2.5, 5.0)
#: A drain: bounded by ``serve --drain-timeout`` (10 s by default).
DRAIN_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
#: The statuses a table in memory is counted under (abandoned ones leave at once).
TABLE_STATUSES = ("open", "running", "finished")


def _cumulative(bounds: tuple[float, ...], in_bucket: list[int]) -> list[tuple[str, float]]:
    """Prometheus's buckets (each counts what is at most its bound) from counts of what
    fell in each bucket alone."""
    total = 0
    buckets: list[tuple[str, float]] = []
    for bound, count in zip((*map(str, bounds), "+Inf"), in_bucket, strict=True):
        total += count
        buckets.append((bound, total))
    return buckets


class ActionFigures(Collector):
    """Actions answered, by answer, and their latency: every move is counted (issue 28's
    hot path), in plain numbers."""

    def __init__(self, buckets: tuple[float, ...] = LATENCY_BUCKETS):
        self.bounds = buckets
        self.in_bucket = [0] * (len(buckets) + 1)
        """Actions per latency bucket (a bound holds what is at most it); the last,
        beyond every bound."""
        self.seconds = 0.0
        self.acked = self.refused = 0

    def observe(self, seconds: float, accepted: bool) -> None:
        self.in_bucket[bisect_left(self.bounds, seconds)] += 1
        self.seconds += seconds
        if accepted:
            self.acked += 1
        else:
            self.refused += 1

    def collect(self) -> Iterator[Metric]:
        answers = CounterMetricFamily("twintable_actions", "Actions submitted, by answer",
                                      labels=["answer"])
        answers.add_metric(["ack"], self.acked)
        answers.add_metric(["error"], self.refused)
        yield answers
        yield HistogramMetricFamily(
            "twintable_action_seconds", "Time from receiving an action to its answer",
            buckets=_cumulative(self.bounds, self.in_bucket), sum_value=self.seconds)


@dataclass
class _Histogram:
    in_bucket: list[int]
    seconds: float = 0.0


class Timings(Collector):
    """A histogram of durations by labels, in plain numbers."""

    def __init__(self, name: str, documentation: str, labels: tuple[str, ...],
                 buckets: tuple[float, ...]):
        self.name, self.documentation = name, documentation
        self.labels, self.bounds = labels, buckets
        self.by: dict[tuple[str, ...], _Histogram] = {}

    def observe(self, labels: tuple[str, ...], seconds: float) -> None:
        histogram = self.by.get(labels)
        if histogram is None:
            histogram = self.by[labels] = _Histogram([0] * (len(self.bounds) + 1))
        histogram.in_bucket[bisect_left(self.bounds, seconds)] += 1
        histogram.seconds += seconds

    def collect(self) -> Iterator[Metric]:
        family = HistogramMetricFamily(self.name, self.documentation,
                                       labels=list(self.labels))
        for labels, histogram in sorted(self.by.items()):
            family.add_metric(list(labels), _cumulative(self.bounds, histogram.in_bucket),
                              histogram.seconds)
        yield family


class Counts(Collector):
    """A counter by labels, in plain numbers."""

    def __init__(self, name: str, documentation: str, labels: tuple[str, ...]):
        self.name, self.documentation, self.labels = name, documentation, labels
        self.by: dict[tuple[str, ...], int] = {}

    def add(self, labels: tuple[str, ...], count: int = 1) -> None:
        self.by[labels] = self.by.get(labels, 0) + count

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(self.name, self.documentation, labels=list(self.labels))
        for labels, count in sorted(self.by.items()):
            family.add_metric(list(labels), count)
        yield family


def database_timings() -> Timings:
    return Timings("twintable_db_seconds",
                   "Database statements and move-log commits, by operation",
                   ("operation",), SERVICE_BUCKETS)


def redis_timings() -> Timings:
    return Timings("twintable_redis_seconds",
                   "Redis round trips (leases, heartbeats, the bus, calls to other "
                   "workers), by operation", ("operation",), SERVICE_BUCKETS)


@dataclass
class ServerFigures:
    """What the game server holds at the moment it is read (at each scrape)."""

    tables: dict[str, int] = field(default_factory=dict)
    """Tables in memory by status."""
    connections: int = 0
    draining: bool = False
    leases: tuple[int, int, int] | None = None
    """Several workers: table leases held now, gained and lost since the start."""


class _ServerState(Collector):
    """The figures of :class:`ServerFigures`, read from the server at each scrape."""

    def __init__(self, read: Callable[[], ServerFigures]):
        self.read = read

    def collect(self) -> Iterator[Metric]:
        now = self.read()
        tables = GaugeMetricFamily("twintable_tables", "Tables in memory by status",
                                   labels=["status"])
        for status in (*TABLE_STATUSES, *sorted(set(now.tables) - set(TABLE_STATUSES))):
            tables.add_metric([status], now.tables.get(status, 0))
        yield tables
        yield GaugeMetricFamily("twintable_connections", "Open WebSocket connections",
                                value=now.connections)
        yield GaugeMetricFamily("twintable_draining",
                                "1 once this worker stops taking tables (a drain, "
                                "a stop), else 0",
                                value=int(now.draining))
        if now.leases is not None:
            held, gained, lost = now.leases
            yield GaugeMetricFamily("twintable_leases_held", "Table leases this worker holds",
                                    value=held)
            yield CounterMetricFamily("twintable_leases_gained",
                                      "Table leases this worker was granted (a new table "
                                      "or one taken over)", value=gained)
            yield CounterMetricFamily("twintable_leases_lost",
                                      "Table leases this worker lost before giving them "
                                      "back (another worker may run the table now)",
                                      value=lost)


class _WorkerLabelled(Collector):
    """A registry's figures with a ``worker`` label on every series."""

    def __init__(self, registry: CollectorRegistry, worker: Callable[[], str]):
        self.registry, self.worker = registry, worker

    def collect(self) -> Iterable[Metric]:
        worker = self.worker()
        for metric in self.registry.collect():
            labelled = Metric(metric.name, metric.documentation, metric.type, metric.unit)
            labelled.samples = [sample._replace(labels={**sample.labels, "worker": worker})
                                for sample in metric.samples]
            yield labelled


class Metrics:
    """One worker's figures (see the module)."""

    def __init__(self, worker: str | None = None) -> None:
        self.worker = worker or str(os.getpid())
        """This worker's name in every series: the cluster's worker id, or the pid."""
        self.registry = CollectorRegistry(auto_describe=False)
        ProcessCollector(registry=self.registry)
        GCCollector(registry=self.registry)
        self.bus_resets = Counter(
            "twintable_bus_resets", "Times messages between workers may have been lost and "
            "the forwarded clients were reset, by why", ["reason"], registry=self.registry)
        self.actions = ActionFigures()
        self.http_requests = Counts("twintable_http_requests",
                                    "HTTP requests answered, by route template, method and "
                                    "status", ("route", "method", "status"))
        self.http_seconds = Timings("twintable_http_request_seconds",
                                    "Time to answer an HTTP request, by route template and "
                                    "method", ("route", "method"), HTTP_BUCKETS)
        self.db = database_timings()
        self.redis = redis_timings()
        self.drains = Timings("twintable_drain_seconds",
                              "Drains (SIGTERM) and how long each took, by outcome",
                              ("outcome",), DRAIN_BUCKETS)
        for collector in (_WorkerInfo(), self.actions, self.http_requests,
                          self.http_seconds, self.db, self.redis, self.drains):
            self.registry.register(collector)
        self._state: _ServerState | None = None
        self._labelled = _WorkerLabelled(self.registry, lambda: self.worker)

    def watch(self, read: Callable[[], ServerFigures]) -> None:
        """Read the server's tables, connections and leases with ``read`` at each scrape."""
        if self._state is not None:
            self.registry.unregister(self._state)
        self._state = _ServerState(read)
        self.registry.register(self._state)

    def observe_action(self, seconds: float, accepted: bool) -> None:
        self.actions.observe(seconds, accepted)

    def observe_request(self, route: str, method: str, status: int, seconds: float) -> None:
        self.http_requests.add((route, method, str(status)))
        self.http_seconds.observe((route, method), seconds)

    def render(self) -> bytes:
        """The text a scrape reads."""
        return generate_latest(self._labelled)


class _WorkerInfo(Collector):
    def collect(self) -> Iterator[Metric]:
        info = GaugeMetricFamily("twintable_worker_info", "This worker's process id (1)",
                                 labels=["pid"])
        info.add_metric([str(os.getpid())], 1)
        yield info
