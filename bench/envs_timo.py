"""Benchmark: timo_v0 (PettingZoo AEC) steps per second against RLCard's UNO ``env.run``.

Both play random legal actions on one core, in one run. RLCard (``rlcard==1.2.0``) runs
in the throwaway venv of engine_timo.py and is never a dependency of Twin Table; its
steps are ``env.run``'s decisions (the env's own timestep count). Ours is the standard
AEC loop (``agent_iter``, ``last``, a random index among the mask's ones, ``step``) over
games to 300 points (envs_all.py's ``aec_rate``: the last game stops where the time runs
out), on ``timo_v0.env()`` (the convention: the raw environment in an
order-enforcing wrapper, ours from envs/fast_wrapper.py), on ``timo_v0.raw_env`` (no
wrapper) and, for comparison, on ``raw_env`` in PettingZoo's own ``OrderEnforcingWrapper``
(whose ``__getattr__`` forwarding is what fast_wrapper.py saves). The random choice is
part of the loop on both sides (RLCard's random agent picks among its legal actions too).
Target: >= 4x RLCard's env.run steps/s. The machine may be shared: best of several runs.
Usage: python bench/envs_timo.py [--seconds S] [--repeats N] [--players 2 4] [--skip-rlcard]
"""

from __future__ import annotations

import argparse
import os

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from engine_timo import CORE, rlcard_rates
from envs_all import aec_rate
from twintable.envs import timo_v0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--skip-rlcard", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {CORE})
    runs, share = max(1, args.repeats), args.seconds / max(1, args.repeats)
    for players in args.players:
        wrapped = max(aec_rate(timo_v0.env(players=players), share) for _ in range(runs))
        raw = max(aec_rate(timo_v0.raw_env(players), share) for _ in range(runs))
        plain = max(aec_rate(OrderEnforcingWrapper(timo_v0.raw_env(players)), share)
                    for _ in range(runs))
        print(f"\n{players} players, one core, best of {runs} runs of {share:.1f} s")
        print(f"  timo_v0.env() (order-enforcing wrapper): {wrapped:9.0f} steps/s")
        print(f"  timo_v0.raw_env                         : {raw:9.0f} steps/s")
        print(f"  raw_env in PettingZoo's own wrapper     : {plain:9.0f} steps/s")
        if not args.skip_rlcard:
            rlcard = max(rlcard_rates(players, share)["env_run_steps"] for _ in range(runs))
            print(f"  RLCard UNO env.run                      : {rlcard:9.0f} steps/s")
            print(f"  ratio env()/RLCard   : {wrapped / rlcard:5.2f}x  (target >= 4x)")
            print(f"  ratio raw_env/RLCard : {raw / rlcard:5.2f}x")


if __name__ == "__main__":
    main()
