"""The action figures, counted in plain numbers on the hot path, read as
prometheus_client's own counter and histogram would have read."""

from __future__ import annotations

import random

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from twintable.server.metrics import LATENCY_BUCKETS, Metrics


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
