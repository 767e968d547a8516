"""Benchmark: every game's PettingZoo AEC environment in steps per second, and each one's
ratio to ``timo_v0`` measured in the same run.

The loop is the standard one (``agent_iter``, ``last``, a uniformly random index among the
mask's ones, ``step``) on each game's ``env()`` with its default options and the player
count given, for ``--seconds`` per game split into ``--repeats`` rounds. Each round runs
every game once, one after another, and each game's ratio to ``timo_v0`` is taken within
the round; the median of the rounds' ratios is printed (a shared machine's load drifts
between rounds more than within one), with the best rate seen. An episode that reaches
its default cap is truncated as a learner would see it. Target (issue 41): Twins, Twin It
and Twinz at >= 50% of ``timo_v0``.
Usage: python bench/envs_all.py [--seconds S] [--repeats N] [--games timo twins ...]
       [--profile GAME] (cProfile of one game's loop, the 25 costliest calls)
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
from typing import Any

from twintable.envs import ENV_MODULES, env_module

#: Players per game: a table of four where the game allows it.
PLAYERS = {"timo": 4, "twins": 4, "twinit": 4, "twinz": 4, "tricks": 4}


def aec_rate(env: Any, seconds: float) -> float:
    """Steps per second of the AEC loop with uniformly random legal actions, over whole
    games from seed 0 on, for ``seconds``: the game being played when the time is up stops
    there (a long game, Timo's to 300 points, would otherwise overrun the time it was
    given). envs_timo.py measures with it too."""
    choose = random.Random(0).random
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=games)
        games += 1
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            env.step(int(legal[int(choose() * len(legal))]))
            steps += 1
            if time.perf_counter() - start > seconds:
                break
    return steps / (time.perf_counter() - start)


def make(game: str) -> Any:
    return env_module(game).env(players=PLAYERS.get(game, 4))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", nargs="+", default=sorted(ENV_MODULES))
    parser.add_argument("--profile", metavar="GAME")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(aec_rate, make(args.profile), args.seconds)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return
    runs, share = max(1, args.repeats), args.seconds / max(1, args.repeats)
    games = ["timo", *[game for game in args.games if game != "timo"]]
    envs = {game: make(game) for game in games}
    # Timo's environment runs on its C engine; its Python reference rules, for scale.
    envs["python timo"] = env_module("timo").env(players=PLAYERS["timo"], native=False)
    for env in envs.values():
        aec_rate(env, 0.5)  # warm up: first-use loads (Twinz's word roots) are not steps
    rounds = [{game: aec_rate(env, share) for game, env in envs.items()}
              for _ in range(runs)]
    print(f"AEC env() steps/s, random legal moves, {runs} rounds of {share:.1f} s a game; "
          "ratios: median over the rounds of each round's ratio")
    for game in games:
        best = max(rates[game] for rates in rounds)
        ratio = statistics.median(rates[game] / rates["timo"] for rates in rounds)
        python = statistics.median(rates[game] / rates["python timo"] for rates in rounds)
        print(f"  {game:8s} {PLAYERS.get(game, 4)} players: {best:9.0f} steps/s  "
              f"{ratio:6.1%} of timo_v0  {python:6.1%} of timo_v0 on its Python rules")
    python_best = max(rates["python timo"] for rates in rounds)
    print(f"  timo_v0 on its Python rules (native=False): {python_best:9.0f} steps/s")


if __name__ == "__main__":
    main()
