"""Measure the Twin It bot levels and write docs/figures/twinit_levels.json.

Three measurements, each on the virtual clock with seats rotating every game:
- per level, four bots of that level at one competitive table: mean time from a pair
  appearing to the claim, error rate (errors / (takes + errors)), takes per game;
- a 4-player win-rate matrix: two bots of level A against two of level B;
- per level, three bots playing cooperative time attack: points and the French level.
Usage: python scripts/twinit_figures.py [--games N] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from twintable.core.stats import mean_interval, wilson_interval
from twintable.games.twinit.bots import LEVELS
from twintable.games.twinit.views import level_for
from twintable.sim.runner import GameResult, run_games


def play(options: dict[str, Any], lineup: list[str], games: int, seed: int) -> list[GameResult]:
    results: list[GameResult] = []
    for chunk in run_games("twinit", options, lineup, games, seed):
        results.extend(chunk)
    return results


def level_figures(level: str, games: int) -> dict[str, Any]:
    results = play({"mode": "competitive"}, [level] * 4, games, 1)
    claims = sum(r.stats[f"seat{s}_claims"] for r in results for s in range(4))
    claim_ms = sum(r.stats[f"seat{s}_claim_ms"] for r in results for s in range(4))
    takes = sum(r.stats["takes"] for r in results)
    errors = sum(r.stats["errors"] for r in results)
    minutes = sum(r.stats["virtual_s"] for r in results) / 60
    return {"level": level, "games": games, "mean_claim_s": claim_ms / claims / 1000,
            "error_rate": errors / (takes + errors), "errors_per_player_minute":
            errors / minutes / 4, "takes_per_game": takes / games,
            "game_s": mean_interval([r.stats["virtual_s"] for r in results])}


def matrix(games: int) -> dict[str, dict[str, Any]]:
    names = list(LEVELS)
    table: dict[str, dict[str, Any]] = defaultdict(dict)
    for a in names:
        for b in names:
            if a == b:
                continue
            results = play({"mode": "competitive"}, [a, b, a, b], games, 7)
            # The share of games one of the two A bots won (even chance: 50%).
            wins = sum(sum(1 for s in r.winners if r.bots[s] == a) / len(r.winners)
                       for r in results)
            low, high = wilson_interval(wins, games)
            table[a][b] = {"win_rate": wins / games, "ci95": [low, high]}
    return table


def coop(level: str, games: int) -> dict[str, Any]:
    results = play({"mode": "coop"}, [level] * 3, games, 3)
    points = [r.stats["points"] for r in results]
    mean, low, high = mean_interval(points)
    return {"level": level, "players": 3, "games": games, "points": [mean, low, high],
            "verdict": level_for(round(mean), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--out", type=Path, default=Path("docs/figures/twinit_levels.json"))
    args = parser.parse_args()
    report = {
        "levels": [level_figures(level, args.games) for level in LEVELS],
        "matrix": matrix(args.games),
        "coop": [coop(level, max(50, args.games // 4)) for level in LEVELS],
    }
    args.out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
