"""Benchmark: does Timo's heuristic bot gain from knowing its partner (issue 41)?

Two teams of two play Timo's Twist with the ``teams`` option: one team of partner-aware
heuristic bots (a partner who plays next is no threat, and gets no Stop, +2 or +4 unless
nothing else goes) against one team of the same bots blind to partnerships. Game ``i``
deals from seed ``seed + i`` on the C engine's simulator; the aware team swaps sides
every game, so both teams hold every seat equally often. The aware team's win share
carries its 95% Wilson interval; 50% is no gain.

Adjacent partners (``1,1,2,2``) are where it can matter: with ``alternate`` seats a
partner never plays next, so the two bots play the same moves there (a check the bench
prints too: the share must be about 50%).

    nice -n 10 python bench/timo_partners.py --games 2000
"""

from __future__ import annotations

import argparse
from typing import Any, cast

from twintable.bots.base import Bot
from twintable.core.stats import wilson_interval
from twintable.games.timo.bots import HeuristicTimoBot
from twintable.games.timo.plugin import entry
from twintable.sim.extension import simulation_engine
from twintable.sim.runner import play_game

SEATINGS: dict[str, Any] = {"adjacent": [1, 1, 2, 2], "alternate": "alternate"}


def aware_share(teams: Any, games: int, seed: int, target: int) -> tuple[float, int]:
    """The partner-aware team's wins (a shared win counts as its share) in ``games``."""
    game = simulation_engine(entry())
    options = {"teams": teams, "target": target}
    sides = game.sides(game.new_state(options, 4, 0))
    assert sides is not None
    won = 0.0
    for index in range(games):
        aware_team = index % 2
        # A TimoView bot serves the Bot protocol's View at run time.
        bots = [cast(Bot, HeuristicTimoBot(partner_aware=sides[seat] == aware_team))
                for seat in range(4)]
        result = play_game(game, options, bots, seed + index)
        ours = {seat for seat in range(4) if sides[seat] == aware_team}
        won += len(ours & set(result.winners)) / max(len(result.winners), 1)
    return won, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=100)
    args = parser.parse_args()
    print("| seating | games | aware team's win share | 95% CI |\n|---|---|---|---|")
    for name, teams in SEATINGS.items():
        won, games = aware_share(teams, args.games, args.seed, args.target)
        low, high = wilson_interval(won, games)
        print(f"| {name} | {games} | {won / games:.1%} | {low:.1%}–{high:.1%} |", flush=True)


if __name__ == "__main__":
    main()
