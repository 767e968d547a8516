"""Benchmark: the shipped learned Timo bot (``learned``) against ``heuristic`` and
``search`` in full 2-player games (to 300 points), seats alternating game by game.

Win rates are printed with 95% Wilson intervals. Game ``i`` of a pairing deals from
``seed + i`` (``sim.runner.run_games``), so a run replays exactly.

Usage: python bench/timo_learned.py [--games 400] [--search-games 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

from twintable.sim.runner import run_games
from twintable.sim.stats import wilson_interval


def match(opponent: str, games: int, seed: int) -> None:
    if games <= 0:
        return
    started, wins = time.perf_counter(), 0.0
    for chunk in run_games("timo", {}, ("learned", opponent), games, seed, workers=1):
        for result in chunk:
            won = [seat for seat in result.winners if result.bots[seat] == "learned"]
            wins += len(won) / len(result.winners)
    low, high = wilson_interval(wins, games)
    print(f"learned vs {opponent}: {wins:g}/{games} = {wins / games:.1%} "
          f"(95% Wilson {low:.1%}-{high:.1%}), {time.perf_counter() - started:.0f} s",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games against heuristic")
    parser.add_argument("--search-games", type=int, default=200,
                        help="games against search")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    match("heuristic", args.games, args.seed)
    match("search", args.search_games, args.seed + 1_000_000)


if __name__ == "__main__":
    main()
