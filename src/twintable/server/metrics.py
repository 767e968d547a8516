"""Prometheus figures: tables, connections, actions and their latency."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, generate_latest
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

#: The action latency histogram's upper bounds, in seconds.
LATENCY_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class ActionFigures(Collector):
    """Actions answered, by answer, and their latency, counted in plain numbers and
    handed to Prometheus when it reads them: every move is counted (issue 28's hot
    path), and prometheus_client's own counter and histogram take a lock for each
    figure they change, a few microseconds a move. Counted on the event loop only."""

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
        cumulative, buckets = 0, []
        for bound, count in zip((*map(str, self.bounds), "+Inf"), self.in_bucket,
                                strict=True):
            cumulative += count
            buckets.append((bound, cumulative))
        yield HistogramMetricFamily(
            "twintable_action_seconds", "Time from receiving an action to its answer",
            buckets=buckets, sum_value=self.seconds)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.tables = Gauge("twintable_tables", "Tables in memory by status", ["status"],
                            registry=self.registry)
        self.connections = Gauge("twintable_connections", "Open WebSocket connections",
                                 registry=self.registry)
        self.bus_resets = Counter(
            "twintable_bus_resets", "Times messages between workers may have been lost and "
            "the forwarded clients were reset, by why", ["reason"], registry=self.registry)
        self.actions = ActionFigures()
        self.registry.register(self.actions)

    def observe_action(self, seconds: float, accepted: bool) -> None:
        self.actions.observe(seconds, accepted)

    def render(self, table_statuses: list[str], connections: int) -> bytes:
        for status in ("open", "running", "finished"):
            self.tables.labels(status=status).set(table_statuses.count(status))
        self.connections.set(connections)
        return generate_latest(self.registry)
