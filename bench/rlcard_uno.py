"""RLCard's UNO with random agents, timed; run by engine_timo.py inside a throwaway venv.

Prints one JSON line: games per second for ``env.run`` and for the bare game loop, and
``env.run``'s steps (decisions) per second, counted by the environment's own timestep.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time


def main() -> None:
    import rlcard
    from rlcard.agents import RandomAgent
    from rlcard.games.uno.game import UnoGame

    players, seconds = int(sys.argv[1]), float(sys.argv[2])
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {int(sys.argv[3])})
    env = rlcard.make("uno", config={"game_num_players": players, "seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(players)])
    games, first_step = 0, env.timestep  # the env counts its steps over its whole life
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.run(is_training=False)
        games += 1
    elapsed = time.perf_counter() - start
    env_rate, env_steps = games / elapsed, (env.timestep - first_step) / elapsed

    rng = random.Random(0)
    game = UnoGame(num_players=players)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    print(json.dumps({"env_run": env_rate, "env_run_steps": env_steps, "bare": games / elapsed,
                      "bare_decisions": decisions / elapsed}))


if __name__ == "__main__":
    main()
