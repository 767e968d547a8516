"""Benchmark: the vectorised Timo engine's environment steps per second on 2 cores.

A step is one learner decision in one game, with the other seat(s) played inside C and the
learner's observation and mask written into the arrays (twintable.envs.timo_vector).
Actions are random legal indices, drawn in NumPy from the masks (argmax of mask x random
bytes); the figures are given with that choice and for ``step`` alone. Measured with 1
and 2 threads (the second a worker kept alive between steps), pinned to 2 cores, for a
batch that fits the caches (512 games) and a large one (4096: about 10 MB of game
states and arrays). Target: >= 1,000,000 steps/s. The machine may be shared: best of
several runs, with the load average printed before and after.
Usage: python bench/timo_vector.py [--envs N ...] [--seconds S] [--repeats N]
       [--players 2 4]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from twintable.envs.timo_vector import TimoVectorEnv

TARGET = 1_000_000


def rates(envs: int, players: int, threads: int, seconds: float) -> tuple[float, float]:
    """(steps/s of step() alone, steps/s with the random choice of actions)."""
    vector = TimoVectorEnv(envs, players, threads=threads, copy=False)
    observations, _ = vector.reset(seed=0)
    masks = observations["action_mask"]
    noise = np.random.default_rng(0).integers(1, 127, (16, envs, masks.shape[1]),
                                              dtype=np.int8)
    stepping = total = 0.0
    steps = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        began = time.perf_counter()
        actions = np.argmax(masks * noise[rounds % 16], axis=1)
        chosen = time.perf_counter()
        vector.step(actions)
        done = time.perf_counter()
        stepping += done - chosen
        total += done - began
        steps += envs
        rounds += 1
    return steps / stepping, steps / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, nargs="+", default=[512, 4096])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        cores = sorted(os.sched_getaffinity(0))[:2]
        os.sched_setaffinity(0, set(cores))
        print(f"pinned to cores {cores}")
    runs, share = max(1, args.repeats), args.seconds / max(1, args.repeats)
    print(f"load average before: {load_average()}")
    for players in args.players:
        for envs in args.envs:
            print(f"\n{players} players, {envs} games, best of {runs} runs of {share:.1f} s")
            for threads in (1, 2):
                measured = [rates(envs, players, threads, share) for _ in range(runs)]
                alone, chosen = max(m[0] for m in measured), max(m[1] for m in measured)
                print(f"  {threads} thread(s): step() {alone:12,.0f} steps/s "
                      f"({alone / TARGET:4.2f}x target); with the action choice "
                      f"{chosen:12,.0f} ({chosen / TARGET:4.2f}x)")
    print(f"\nload average after: {load_average()}")


def load_average() -> str:
    try:
        with open("/proc/loadavg") as source:
            return " ".join(source.read().split()[:3])
    except OSError:
        return "unknown"

if __name__ == "__main__":
    main()
