"""Benchmark: CPU time per full Twins game with two `strong` bots among four players
(the bar for studies: 1 s of CPU a game), with four `heuristic` bots in the same run as
the baseline.

CPU time (``time.process_time``), not wall time: on a shared machine the wall clock
measures the other jobs.
``--versus N`` also plays N four-player games of two of today's ``strong`` bots against
two with 12 deals a decision (the bot before issue 27's second round: its rollouts make
the same decisions), seats alternating, and prints today's pair's win share with its 95%
Wilson interval (game ``i`` deals from seed ``1 + i``).

Usage: python bench/sim_strong_twins.py [--games 20] [--players 4] [--versus 400]
"""

from __future__ import annotations

import argparse
import time

from twintable.core.registry import default_registry
from twintable.core.stats import wilson_interval
from twintable.games.twins.bots import StrongTwinsBot
from twintable.sim.runner import make_bots, play_game


def cpu_per_game(lineup: list[str], games: int) -> float:
    entry = default_registry().entry("twins")
    start = time.process_time()
    for seed in range(games):
        play_game(entry.rules, {}, make_bots(entry, lineup), seed)
    return (time.process_time() - start) / games


def versus_twelve_deals(games: int) -> None:
    """Today's strong pair against a pair dealing 12 times a decision, seats alternating."""
    rules = default_registry().entry("twins").rules
    today, before = StrongTwinsBot(), StrongTwinsBot(samples=12)
    wins = 0.0
    for index in range(games):
        bots = [today, before, today, before] if index % 2 == 0 else [before, today, before,
                                                                       today]
        result = play_game(rules, {}, bots, 1 + index)
        mine = {0, 2} if index % 2 == 0 else {1, 3}
        wins += len(mine & set(result.winners)) / len(result.winners)
    low, high = wilson_interval(wins, games)
    print(f"strong ({today.samples} deals) pair vs a 12-deal pair: {wins / games:.1%} "
          f"(95% Wilson {low:.1%}-{high:.1%}) of {games} four-player games")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--versus", type=int, default=0,
                        help="games of today's strong pair against a 12-deal pair")
    args = parser.parse_args()
    mixed = [("strong", "heuristic")[seat % 2] for seat in range(args.players)]
    heuristic = cpu_per_game(["heuristic"] * args.players, args.games * 10)
    strong = cpu_per_game(mixed, args.games)
    print(f"{args.players} players: heuristic only {heuristic * 1000:.1f} ms CPU a game; "
          f"{','.join(mixed)} {strong:.3f} s CPU a game ({strong / heuristic:.0f}x); "
          f"bar 1 s: {'met' if strong <= 1 else 'missed'}")
    if args.versus:
        versus_twelve_deals(args.versus)


if __name__ == "__main__":
    main()
