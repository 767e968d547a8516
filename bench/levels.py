"""Benchmark: does each bot level beat the one below it, and how does a person fare?

Levels (Beginner, Easy, Medium, Hard, Expert) promise strength: each level a game
offers should win at least 55% of games against the level just below it. For every
game and every pair of neighbouring levels the bench plays ``--games`` games on the
simulator's virtual clock (``sim.runner.run_games``: game ``i`` deals from seed
``seed + i`` and the lineup turns one seat a game, so both levels sit in every seat).
At two seats the levels face each other; a game for three or more sits them on
alternate seats (``lower, upper, lower, upper``). The upper level's win share counts a
shared win as a share; the interval is the 95% Wilson interval.

``--person`` plays Twin It against a scripted person instead (``games/twinit/bots.py:
ScriptedPerson``): someone who takes a pair a fixed reaction time (0.8, 1.5, 2.5 s)
after it appears, give or take 20%, never grabs a look-alike, flips their own pile in
about 0.7 s, and searches a crowded table no slower than an empty one. Each person
plays every level one against one; the target
(issue 39) is a 1.5 s person winning about 80% against Beginner, 50% against Easy and
25% against Medium.

Each row is printed as soon as it is measured, then the whole table. Usage::

    nice -n 10 python bench/levels.py timo twins twinit twinz --games 400 --workers 2
    nice -n 10 python bench/levels.py timo --upper expert --games 200
    nice -n 10 python bench/levels.py --person --games 300 --workers 2
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import pairwise
from typing import Any

from twintable.bots.registry import level_bots
from twintable.core.registry import default_registry
from twintable.core.stats import wilson_interval
from twintable.games.twinit.bots import ScriptedPerson
from twintable.sim.runner import play_realtime_game, run_games, seat_bots

#: The bar a level must clear against the level below it.
STEP = 0.55
#: Reaction times of the scripted people (ms).
PEOPLE = (800, 1500, 2500)
#: Options each game is benched at: Timo to 100 points (as its ladder), the rest as
#: people play them.
OPTIONS: dict[str, dict[str, Any]] = {"timo": {"target": 100}}


def table_size(game: str) -> int:
    """Two seats where the game allows it, else four (the levels on alternate seats)."""
    rules = default_registry().entry(game).rules
    return max(2, rules.min_players) if rules.min_players <= 2 else 4


def upper_share(results: Sequence[Any], lineup: Sequence[str], upper: str, seed: int
                ) -> float:
    """The upper level's wins, a shared win counting as its share."""
    won = 0.0
    for result in results:
        seats = seat_bots(lineup, result.seed - seed)
        mine = {seat for seat, bot in enumerate(seats) if bot == upper}
        won += len(mine & set(result.winners)) / max(len(result.winners), 1)
    return won


def steps(game: str, games: int, seed: int, workers: int,
          uppers: Sequence[str] = (), seats: int | None = None) -> list[tuple[str, ...]]:
    """One row per pair of neighbouring levels of ``game`` (those whose upper level is
    one of ``uppers``, if given), each printed as soon as it is measured."""
    entry = default_registry().entry(game)
    levels = list(level_bots(entry).items())
    players = seats or table_size(game)
    rows = []
    for (low_level, low_bot), (up_level, up_bot) in pairwise(levels):
        if uppers and up_level not in uppers:
            continue
        lineup = [(low_bot, up_bot)[seat % 2] for seat in range(players)]
        started = time.monotonic()
        results = [r for chunk in run_games(game, OPTIONS.get(game, {}), lineup, games, seed,
                                            workers=workers) for r in chunk]
        won = upper_share(results, lineup, up_bot, seed)
        low, high = wilson_interval(won, games)
        rows.append((game, str(players), f"{low_level} ({low_bot})", f"{up_level} ({up_bot})",
                     str(games), f"{won / games:.1%}", f"{low:.1%}-{high:.1%}",
                     "yes" if low >= 0.5 and won / games >= STEP else "NO",
                     f"{time.monotonic() - started:.0f}"))
        print("  ".join(rows[-1]), flush=True)
    return rows


def _person_games(job: tuple[int, str, int, int]) -> float:
    """The person's wins in ``count`` games against ``bot``, seats alternating."""
    reaction, bot, first, count = job
    entry = default_registry().entry("twinit")
    factories = {name: level.make for level in entry.bots for name in (level.name,
                                                                      *level.aliases)}
    won = 0.0
    for index in range(first, first + count):
        person, rival = ScriptedPerson(reaction), factories[bot]()
        seats = [person, rival] if index % 2 == 0 else [rival, person]
        result = play_realtime_game(entry.rules, {}, seats, 1 + index, plan_move=entry.plan)
        mine = 0 if index % 2 == 0 else 1
        won += (mine in result.winners) / max(len(result.winners), 1)
    return won


def person_matrix(games: int, workers: int) -> list[tuple[str, ...]]:
    entry = default_registry().entry("twinit")
    rows = []
    chunk = 20
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for reaction in PEOPLE:
            for level, bot in level_bots(entry).items():
                jobs = [(reaction, bot, first, min(chunk, games - first))
                        for first in range(0, games, chunk)]
                won = sum(pool.map(_person_games, jobs))
                low, high = wilson_interval(won, games)
                rows.append((f"{reaction / 1000:.1f} s", f"{level} ({bot})", str(games),
                             f"{won / games:.1%}", f"{low:.1%}-{high:.1%}"))
    return rows


def show(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows,
                                                                       strict=True)]
    for row in (header, *rows):
        print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths,
                                                                      strict=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games_ids", nargs="*", metavar="GAME",
                        help="games to bench (default: every game with two levels or more)")
    parser.add_argument("--games", type=int, default=400, help="games per pair of levels")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seats", type=int, help="table size (default: 2 where allowed, else 4)")
    parser.add_argument("--upper", default="",
                        help="only the steps up to these levels, comma-separated (expert,hard)")
    parser.add_argument("--person", action="store_true",
                        help="Twin It: scripted people against every level instead")
    args = parser.parse_args()
    if args.person:
        show(("person", "level (bot)", "games", "person wins", "95% interval"),
             person_matrix(args.games, args.workers))
        return
    registry = default_registry()
    chosen = args.games_ids or [entry.id for entry in registry.entries()
                                if len(level_bots(entry)) > 1]
    uppers = [level for level in args.upper.split(",") if level]
    rows = [row for game in chosen for row in steps(game, args.games, args.seed,
                                                    args.workers, uppers, args.seats)]
    print()
    show(("game", "seats", "lower", "upper", "games", "upper wins", "95% interval",
          ">=55%", "s"), rows)


if __name__ == "__main__":
    main()
