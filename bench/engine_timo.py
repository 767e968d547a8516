"""Benchmark: Timo's Twist engine against RLCard's UNO, in one run, on one core.

Installs ``rlcard==1.2.0`` into a throwaway venv (never a dependency of Twin Table),
times RLCard's ``env.run`` loop and its bare game loop, then ours:

- "pipeline": our sim driver, random bots choosing from their seat's view (like env.run);
- "bare": new_state / legal_actions / apply with a random choice (like RLCard's loop).

Ours runs on the engine ``twintable sim`` uses (``simulation_engine(timo_entry())``: the C engine
when it was built) and, for comparison, on the Python rules, which tables use.

RLCard's UNO game is one hand, so the like-for-like figure is our one-round game
(option target=1); complete games to the default 300 points are reported too.
Usage: python bench/engine_timo.py [--seconds S] [--repeats N] [--players 2 4] [--skip-rlcard]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import time
import venv
from pathlib import Path
from typing import Any

from twintable.bots.base import RandomBot
from twintable.core.game import Game
from twintable.games.timo import TimoGame
from twintable.games.timo.plugin import entry as timo_entry
from twintable.sim.extension import simulation_engine
from twintable.sim.runner import play_game

HERE = Path(__file__).resolve().parent
RLCARD_VENV = HERE / ".rlcard-venv"
CORE = 0


def rlcard_rates(players: int, seconds: float) -> dict[str, float]:
    python = RLCARD_VENV / "bin" / "python"
    if not python.exists():
        venv.create(RLCARD_VENV, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "rlcard==1.2.0"],
                       check=True)
    output = subprocess.run([str(python), str(HERE / "rlcard_uno.py"), str(players),
                             str(seconds), str(CORE)], check=True, capture_output=True,
                            text=True).stdout
    rates: dict[str, float] = json.loads(output.strip().splitlines()[-1])
    return rates


def pipeline_rate(game: Game[Any], players: int, target: int,
                  seconds: float) -> tuple[float, float]:
    bots = [RandomBot() for _ in range(players)]
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        result = play_game(game, {"target": target}, bots, seed=games)
        decisions += int(result.stats["turns"])
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def bare_rate(game: Game[Any], players: int, target: int,
              seconds: float) -> tuple[float, float]:
    rng = random.Random(0)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state({"target": target}, players, games)
        while not game.is_over(state):
            acting = game.to_act(state)
            seat = next(iter(acting)) if len(acting) == 1 else rng.choice(sorted(acting))
            game.apply(state, rng.choice(game.legal_actions(state, seat)))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--skip-rlcard", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {CORE})
    rows: list[dict[str, Any]] = []
    for players in args.players:
        row: dict[str, Any] = {"players": players}
        # Best of several short runs, for both engines alike: the machine is shared, and
        # noise only ever slows a run down.
        runs, share = max(1, args.repeats), args.seconds / max(1, args.repeats)
        if not args.skip_rlcard:
            measured = [rlcard_rates(players, share) for _ in range(runs)]
            row["rlcard"] = {key: max(m[key] for m in measured) for key in measured[0]}
        engines = {"sim": simulation_engine(timo_entry()), "python": TimoGame()}
        for name, game in engines.items():
            row[f"{name}_round_pipeline"], row[f"{name}_round_pipeline_decisions"] = max(
                pipeline_rate(game, players, 1, share) for _ in range(runs))
            row[f"{name}_round_bare"], row[f"{name}_round_bare_decisions"] = max(
                bare_rate(game, players, 1, share) for _ in range(runs))
        row["sim_game_pipeline"], _ = max(pipeline_rate(engines["sim"], players, 300, share)
                                          for _ in range(runs))
        rows.append(row)
        sim_name = type(engines["sim"]).__name__
        print(f"\n{players} players, one core, best of {runs} runs of {share:.1f} s")
        for name, label in (("sim", f"{sim_name} (twintable sim)"),
                            ("python", "TimoGame (Python rules)")):
            print(f"  ours, {label}")
            print(f"    one round, bots on views : {row[f'{name}_round_pipeline']:9.0f} games/s "
                  f"({row[f'{name}_round_pipeline_decisions']:.0f} decisions/s)")
            print(f"    one round, bare loop     : {row[f'{name}_round_bare']:9.0f} games/s "
                  f"({row[f'{name}_round_bare_decisions']:.0f} decisions/s)")
        print(f"  ours, {sim_name}, full game to 300, views: "
              f"{row['sim_game_pipeline']:9.1f} games/s")
        if "rlcard" in row:
            rl = row["rlcard"]
            print(f"  RLCard UNO env.run             : {rl['env_run']:9.0f} games/s")
            print(f"  RLCard UNO bare game loop      : {rl['bare']:9.0f} games/s "
                  f"({rl['bare_decisions']:.0f} decisions/s)")
            for name in ("sim", "python"):
                print(f"  {name:6s} ratio ours/env.run (one round, views): "
                      f"{row[f'{name}_round_pipeline'] / rl['env_run']:5.2f}x  (target >= 10x)")
                print(f"  {name:6s} ratio ours/bare    (one round, bare) : "
                      f"{row[f'{name}_round_bare'] / rl['bare']:5.2f}x  (target >= 2x)")
    (HERE / "last_engine_timo.json").write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
