"""Benchmark: simulated 4-player competitive Twin It games per second, on one core.

The discrete-event simulator plays whole games on a virtual clock with four "sharp"
perception bots (they plan from their views, as at a table). Also reported: the same
games with the bots' choices replayed into a bare engine (no views, no planning), and,
as a baseline measured in the same run, the cost of shuffling and dealing the deck
(ratios against it say how far the game is from the cost of its own set-up).
Target: at least 200 simulated games per second.
Usage: python bench/engine_twinit.py [--seconds S] [--repeats N]
"""

from __future__ import annotations

import argparse
import os
import random
import time

from twintable.core.types import Action
from twintable.games.twinit import TwinItGame
from twintable.games.twinit.plugin import entry
from twintable.sim.runner import make_bots, play_game

ENTRY = entry()

PLAYERS = 4
TARGET = 200


def simulated(seconds: float) -> tuple[float, float, float]:
    """Games per second, actions per second and virtual seconds per game."""
    game = TwinItGame()
    games = actions = 0
    virtual = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        result = play_game(game, None, make_bots(ENTRY, ["sharp"] * PLAYERS), games,
                           record=True)
        assert result.actions is not None
        actions += len(result.actions)
        virtual += result.stats["virtual_s"]
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed, virtual / games


def replayed(seconds: float, logs: list[list[Action]]) -> float:
    """The engine alone: recorded games applied again, action by action."""
    game = TwinItGame()
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        index = games % len(logs)
        state = game.new_state(None, PLAYERS, index)
        for action in logs[index]:
            game.apply(state, action)
        games += 1
    return games / (time.perf_counter() - start)


def deal_baseline(seconds: float) -> float:
    rng, deals = random.Random(0), 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        cards = list(range(135))
        rng.shuffle(cards)
        [cards[seat::PLAYERS] for seat in range(PLAYERS)]
        deals += 1
    return deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})
    game = TwinItGame()
    logs = []
    for seed in range(50):
        result = play_game(game, None, make_bots(ENTRY, ["sharp"] * PLAYERS), seed, record=True)
        assert result.actions is not None
        logs.append(result.actions)
    # Best of several short runs: the machine is shared, and noise only ever slows a run.
    runs = max(1, args.repeats)
    share = args.seconds / runs
    deals = max(deal_baseline(share) for _ in range(runs))
    games, actions, virtual = max(simulated(share) for _ in range(runs))
    bare = max(replayed(share, logs) for _ in range(runs))
    print(f"4-player competitive Twin It, sharp bots, one core, best of {runs} runs of "
          f"{share:.1f} s")
    print(f"  baseline: shuffle + deal only : {deals:9.0f} deals/s")
    print(f"  simulated games (bots plan)   : {games:9.1f} games/s ({actions:.0f} actions/s, "
          f"{virtual:.0f} virtual s a game = {games * virtual:.0f}x real time)  "
          f"ratio to deal-only {games / deals:.4f}")
    print(f"  engine alone, replayed logs   : {bare:9.1f} games/s  "
          f"ratio to deal-only {bare / deals:.4f}")
    print(f"  target {TARGET} games/s: simulated {games / TARGET:.2f}x")


if __name__ == "__main__":
    main()
