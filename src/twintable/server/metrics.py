"""Prometheus figures: tables, connections, actions and their latency."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.tables = Gauge("twintable_tables", "Tables in memory by status", ["status"],
                            registry=self.registry)
        self.connections = Gauge("twintable_connections", "Open WebSocket connections",
                                 registry=self.registry)
        self.actions = Counter("twintable_actions", "Actions submitted, by answer",
                               ["answer"], registry=self.registry)
        self.bus_resets = Counter(
            "twintable_bus_resets", "Times messages between workers may have been lost and "
            "the forwarded clients were reset, by why", ["reason"], registry=self.registry)
        self.latency = Histogram(
            "twintable_action_seconds", "Time from receiving an action to its answer",
            buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=self.registry)

    def observe_action(self, seconds: float, accepted: bool) -> None:
        self.actions.labels(answer="ack" if accepted else "error").inc()
        self.latency.observe(seconds)

    def render(self, table_statuses: list[str], connections: int) -> bytes:
        for status in ("open", "running", "finished"):
            self.tables.labels(status=status).set(table_statuses.count(status))
        self.connections.set(connections)
        return generate_latest(self.registry)
