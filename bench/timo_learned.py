"""Benchmark: the shipped learned Timo bot (``learned``) against ``heuristic``, against
``search-v1`` (the ``search`` bot the issue's target names: the one before its rollouts
moved into C) and against today's ``search``, in full 2-player games (to 300 points),
seats alternating game by game.

Targets (issue 27): >= 65% against ``heuristic`` and >= 55% against ``search-v1``, the
lower bounds of the 95% Wilson intervals above 50%. Game ``i`` deals from ``seed + i``,
so a run replays exactly.

Usage: python bench/timo_learned.py [--games 2000] [--search-games 400] [--seed 1]
"""

from __future__ import annotations

import argparse
import os

from timo_search import match  # bench/ is the script's directory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000,
                        help="games against heuristic and against search-v1")
    parser.add_argument("--search-games", type=int, default=400,
                        help="games against today's search")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    match("learned", "heuristic", args.games, args.seed, args.workers)
    match("learned", "search-v1", args.games, args.seed + 1_000_000, args.workers)
    match("learned", "search", args.search_games, args.seed + 2_000_000, args.workers)


if __name__ == "__main__":
    main()
