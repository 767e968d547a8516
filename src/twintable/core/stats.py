"""Small statistics shared by the shells that measure games (simulation reports, the
environments' evaluation, benches): intervals, p-values, Holm's correction. Pure math, no I/O."""

from __future__ import annotations

import math


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (sound near 0 and 1, unlike +-2 SE)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[float], z: float = 1.959964) -> tuple[float, float, float]:
    """Mean and its 95% normal-approximation interval."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)


def two_sided_p(mean: float, low: float, high: float, z: float = 1.959964) -> float:
    """The two-sided p-value of "the mean is zero", read back from a normal 95% interval
    (a degenerate interval, every value alike, gives 0 or 1)."""
    standard_error = (high - low) / (2 * z)
    if standard_error <= 0:
        return 1.0 if mean == 0 else 0.0
    return math.erfc(abs(mean) / standard_error / math.sqrt(2))


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment: each p-value scaled for the family it belongs to, so
    that reading every adjusted p below 0.05 as a finding keeps the chance of any false
    finding at 5% however many comparisons a sweep makes."""
    order = sorted(range(len(p_values)), key=p_values.__getitem__)
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
