"""Benchmark: CPU time per full Twins game with two `strong` bots among four players
(the bar for studies: 1 s of CPU a game), with four `heuristic` bots in the same run as
the baseline.

CPU time (``time.process_time``), not wall time: on a shared machine the wall clock
measures the other jobs.
Usage: python bench/sim_strong_twins.py [--games 20] [--players 4]
"""

from __future__ import annotations

import argparse
import time

from twintable.games import default_registry
from twintable.sim.runner import make_bots, play_game


def cpu_per_game(lineup: list[str], games: int) -> float:
    entry = default_registry().entry("twins")
    start = time.process_time()
    for seed in range(games):
        play_game(entry.rules, {}, make_bots(entry, lineup), seed)
    return (time.process_time() - start) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    mixed = [("strong", "heuristic")[seat % 2] for seat in range(args.players)]
    heuristic = cpu_per_game(["heuristic"] * args.players, args.games * 10)
    strong = cpu_per_game(mixed, args.games)
    print(f"{args.players} players: heuristic only {heuristic * 1000:.1f} ms CPU a game; "
          f"{','.join(mixed)} {strong:.3f} s CPU a game ({strong / heuristic:.0f}x); "
          f"bar 1 s: {'met' if strong <= 1 else 'missed'}")


if __name__ == "__main__":
    main()
