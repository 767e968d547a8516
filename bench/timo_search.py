"""Benchmark: the Timo ``search`` bot against ``heuristic`` (and against the search bot
it replaced, ``search-v1``) in full 2-player games, and its think time per decision
beside ``search-v1``'s on the same decisions.

The target (issue 27): ``search`` wins >= 70% of 2-player games against ``heuristic``
at no more think time than ``search-v1``. Think time is measured on the decisions of a
few games where the bot has a real choice, both bots timed one after the other on each,
and printed as a ratio, which a shared machine's load affects far less than the
milliseconds. Win rates come with 95% Wilson intervals; game ``i`` deals from
``seed + i`` and the seats alternate, so a run replays exactly.

Usage: python bench/timo_search.py [--games 2000] [--v1-games 400] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

from twintable.core.registry import default_registry
from twintable.core.stats import wilson_interval
from twintable.games.timo.bots import HeuristicTimoBot, SearchTimoBot
from twintable.games.timo.research.baseline import RandomRolloutSearchBot
from twintable.games.timo.rules import TimoGame
from twintable.sim.extension import simulation_engine
from twintable.sim.runner import play_game


def _learned() -> object:
    from twintable.games.timo.research.policy import LearnedTimoBot

    return LearnedTimoBot()


BOTS = {"search": SearchTimoBot, "search-v1": RandomRolloutSearchBot,
        "heuristic": HeuristicTimoBot, "learned": _learned}


def think_times(games: int) -> tuple[int, float, float]:
    """Decisions with a choice, and the mean ms of ``search`` and ``search-v1`` on them."""
    game, walker = TimoGame(), HeuristicTimoBot()
    new, old = SearchTimoBot(), RandomRolloutSearchBot()
    spent = {"new": 0.0, "old": 0.0}
    decisions = 0
    for seed in range(games):
        state = game.new_state({}, 2, 10_000 + seed)
        while not game.is_over(state):
            view = game.view(state, state.turn)
            if len(new._candidates(view)) > 1 and not view.exposed >= 0:
                decisions += 1
                for key, bot in (("old", old), ("new", new)):
                    started = time.perf_counter()
                    bot.act(view, random.Random(decisions))
                    spent[key] += time.perf_counter() - started
            game.apply(state, walker.act(view, random.Random(decisions)))
    return decisions, 1000 * spent["new"] / decisions, 1000 * spent["old"] / decisions


def _games(job: tuple[str, str, int, int]) -> float:
    """``job``'s first bot's wins in its games (seats alternating)."""
    first, second, start, count = job
    entry = default_registry().entry("timo")
    game = simulation_engine(entry)
    bots = (BOTS[first](), BOTS[second]())
    wins = 0.0
    for index in range(start, start + count):
        seats = list(bots) if index % 2 == 0 else list(reversed(bots))
        result = play_game(game, {}, seats, index, plan=entry.plan)
        wins += (index % 2 in result.winners) / len(result.winners)
    return wins


def match(first: str, second: str, games: int, seed: int, workers: int) -> None:
    if games <= 0:
        return
    started = time.perf_counter()
    chunk = 50
    jobs = [(first, second, seed + start, min(chunk, games - start))
            for start in range(0, games, chunk)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        wins = sum(pool.map(_games, jobs))
    low, high = wilson_interval(wins, games)
    print(f"{first} vs {second}: {wins:g}/{games} = {wins / games:.1%} "
          f"(95% Wilson {low:.1%}-{high:.1%}), {time.perf_counter() - started:.0f} s",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games against heuristic")
    parser.add_argument("--v1-games", type=int, default=400, help="games against search-v1")
    parser.add_argument("--think-games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    decisions, new_ms, old_ms = think_times(args.think_games)
    print(f"think time on {decisions} decisions with a choice: search {new_ms:.2f} ms, "
          f"search-v1 {old_ms:.2f} ms, ratio {new_ms / old_ms:.2f} (target <= 1.00; "
          f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after)", flush=True)
    match("search", "heuristic", args.games, args.seed, args.workers)
    match("search", "search-v1", args.v1_games, args.seed + 1_000_000, args.workers)


if __name__ == "__main__":
    main()
