"""Summaries of simulated games: win rates with intervals, game lengths, score spreads.

The JSON report keeps one shape for every game (docs/simulation.md documents it).
"""

from __future__ import annotations

import re
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from twintable.sim.runner import GameResult
from twintable.sim.stats import mean_interval, wilson_interval

REPORT_FORMAT = 1
_SEAT_FIGURE = re.compile(r"seat(\d+)_(\w+)")


def build_report(game_id: str, players: int, lineup: Sequence[str], seed: int,
                 options: Mapping[str, Any], results: Sequence[GameResult]) -> dict[str, Any]:
    """Win counts share a tied win equally among the winners."""
    bot_games: dict[str, int] = defaultdict(int)
    bot_wins: dict[str, float] = defaultdict(float)
    bot_scores: dict[str, list[int]] = defaultdict(list)
    seat_wins = [0.0] * players
    stats: dict[str, list[float]] = defaultdict(list)
    for result in results:
        share = 1 / len(result.winners)
        for seat, name in enumerate(result.bots):
            bot_games[name] += 1
            bot_scores[name].append(result.scores[seat])
            if seat in result.winners:
                bot_wins[name] += share
                seat_wins[seat] += share
    # Figures a game reports per seat ("seat2_takes") are summed per bot instead, since
    # seats rotate between games.
    bot_totals: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for result in results:
        for key, value in result.stats.items():
            match = _SEAT_FIGURE.fullmatch(key)
            if match and int(match[1]) < len(result.bots):
                bot_totals[result.bots[int(match[1])]][match[2]] += value
    # A figure missing from a game's stats (a payout that never happened) counts as 0.
    keys = sorted({key for result in results for key in result.stats
                   if not _SEAT_FIGURE.fullmatch(key)})
    for result in results:
        for key in keys:
            stats[key].append(result.stats.get(key, 0.0))
    n = len(results)
    return {
        "format": REPORT_FORMAT,
        "game": game_id,
        "players": players,
        "games": n,
        "seed": seed,
        "lineup": list(lineup),
        "options": {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()},
        "bots": {name: _rate(bot_wins[name], bot_games[name]) | {
                     "scores": _spread(bot_scores[name])}
                 | ({"totals": dict(bot_totals[name])} if name in bot_totals else {})
                 for name in dict.fromkeys(lineup)},
        "seats": [_rate(seat_wins[seat], n) | {"seat": seat} for seat in range(players)],
        "stats": {key: dict(zip(("mean", "low", "high"), _mean_interval(values), strict=True))
                  for key, values in stats.items()},
    }


def _mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% interval; for figures that cannot be negative (counts, times, chips)
    the interval is bounded at 0, where the normal approximation of a rare count (one
    error in four games) would reach below it ("-0.5 to 1.5")."""
    mean, low, high = mean_interval(list(values))
    if values and min(values) >= 0:
        low = max(0.0, low)
    return mean, low, high


def _rate(wins: float, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
    return {"games": games, "wins": round(wins, 3),
            "win_rate": wins / games if games else 0.0, "ci95": [low, high]}


def _spread(values: list[int]) -> dict[str, Any]:
    if not values:
        return {}
    quartiles = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    mean, low, high = _mean_interval([float(v) for v in values])
    return {"mean": mean, "mean_ci95": [low, high], "min": min(values), "p25": quartiles[0],
            "median": quartiles[1], "p75": quartiles[2], "max": max(values)}


def plot_report(report: Mapping[str, Any], results: Sequence[GameResult], path: Path) -> None:
    """Win rate per bot with its interval, and the spread of final scores per bot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(report["bots"])
    rates = [report["bots"][name]["win_rate"] for name in names]
    errors = [[rate - report["bots"][name]["ci95"][0] for name, rate in zip(names, rates,
                                                                             strict=True)],
              [report["bots"][name]["ci95"][1] - rate for name, rate in zip(names, rates,
                                                                             strict=True)]]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.bar(names, rates, yerr=errors, capsize=6, color="#4c78a8")
    left.axhline(1 / report["players"], color="grey", linestyle="--", label="even chance")
    left.set_ylim(0, 1)
    left.set_ylabel("win rate (95% CI)")
    left.set_title(f"{report['game']}: {report['games']} games, {report['players']} players")
    left.legend()
    by_bot: dict[str, list[int]] = defaultdict(list)
    for result in results:
        for seat, name in enumerate(result.bots):
            by_bot[name].append(result.scores[seat])
    right.hist([by_bot[name] for name in names], bins=30, label=names, alpha=0.8)
    right.set_xlabel("final score")
    right.set_ylabel("games")
    right.set_title("final scores")
    right.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
