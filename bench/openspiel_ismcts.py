"""Benchmark: our search bots against OpenSpiel's IS-MCTS, with the same time per move.

Timo's Twist, played as the OpenSpiel game ``python_twintable_timo``
(``twintable.envs.openspiel``) with ``target=1``: one round, the first player to go out
wins; and (``--game twins``) Twins as ``python_twintable_twins`` with ``max_hands=1``:
one hand, most chips wins (a tie shares the win). One seat is our search bot
(``SearchTimoBot``, games/timo/bots.py; ``StrongTwinsBot``, games/twins/bots.py), the
others are OpenSpiel's Python ``ISMCTSBot`` with a random-rollout evaluator; the search
seat moves round the table from game to game, so every seat is played equally often.

Same time per move: each bot gets a wall-clock budget (``--ms``) per decision and
searches in whole iterations until it is spent (our bot: determinizations, each rolling
out every candidate; IS-MCTS: simulations, at least two since its first only expands
the root). The clock starts when the bot is asked and stops when it answers, so whatever
each bot does besides searching is charged to it. A decision with one legal move is
answered at once by both. Equal iterations calibrated to equal time would be the same
thing measured once instead of at every move; a wall-clock budget also follows the
cost of a move as it changes through the round, and the figures printed (time and
iterations per decision) show what each bot did with its budget.

Usage: python bench/openspiel_ismcts.py [--game timo|twins] [--players 2 4]
       [--games 400] [--ms 20] [--seed 1] [--json out.json]
Seeds: game ``i`` deals from engine seed ``seed * 100_000 + i``, and the bots'
generators are seeded from the same numbers (the seed is printed with the results).
Wall-clock budgets make a run depend on the machine's load, so two runs are alike in
distribution, not move for move.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import twintable.envs.openspiel  # noqa: F401  (registers every game's OpenSpiel game)
from twintable.core.stats import mean_interval, wilson_interval
from twintable.core.types import Action
from twintable.games.timo.bots import SearchTimoBot
from twintable.games.timo.research.openspiel import TIMO_NAME
from twintable.games.timo.rules import CALL, CATCH
from twintable.games.timo.views import TimoView
from twintable.games.twins.bots import StrongTwinsBot
from twintable.games.twins.research.openspiel import TWINS_NAME
from twintable.games.twins.rules import BUY_COST, BUY_KIND, PICK_KIND
from twintable.games.twins.state import BUY
from twintable.games.twins.views import TwinsView

UCT_C = 1.4  # UCB1's sqrt(2) for returns in [0, 1] (win shares)


class TimedSearchTimoBot(SearchTimoBot):
    """SearchTimoBot deciding within a wall-clock budget: the C search in batches of
    ``BATCH`` deals (at least one batch), each deal shared by every candidate as in
    ``SearchTimoBot.act``."""

    BATCH = 4

    def __init__(self, budget_s: float):
        super().__init__(native=True)
        self.budget_s = budget_s
        self.iterations: list[int] = []
        self.seconds: list[float] = []

    def act(self, view: TimoView, rng: random.Random) -> Action | None:
        start = time.perf_counter()
        reaction = next((a for a in view.legal if a.kind in (CALL, CATCH)), None)
        if reaction is not None:
            return reaction
        candidates = self._candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        assert self._fast is not None
        engine = self.engine_for(self.game.sample_state(view, rng))
        codes = [self._fast.code_of(action) for action in candidates]
        totals = [0.0] * len(candidates)
        deadline, samples = start + self.budget_s, 0
        while samples == 0 or time.perf_counter() < deadline:
            batch = engine.search(view.turn, codes, self.BATCH, rng.getrandbits(64))
            totals = [total + value for total, value in zip(totals, batch, strict=True)]
            samples += self.BATCH
        self.iterations.append(samples)
        self.seconds.append(time.perf_counter() - start)
        return candidates[max(range(len(candidates)), key=lambda i: totals[i])]


class TimedStrongTwinsBot(StrongTwinsBot):
    """StrongTwinsBot deciding within a wall-clock budget: as many sampled deals as fit
    (at least one), each shared by every candidate as in ``StrongTwinsBot.act``."""

    def __init__(self, budget_s: float):
        super().__init__()
        self.budget_s = budget_s
        self.iterations: list[int] = []
        self.seconds: list[float] = []

    def act(self, view: TwinsView, rng: random.Random) -> Action | None:
        start = time.perf_counter()
        if not view.legal or view.viewer is None:
            return None
        seat = view.viewer
        if view.phase == BUY:
            candidates = [Action(seat, BUY_KIND, {"count": count}) for count in range(3)
                          if BUY_COST[count] <= view.chips[seat]]
        else:
            candidates = [Action(seat, PICK_KIND, {"cards": pair})
                          for pair in self._pick_candidates(view)]
        if len(candidates) == 1:
            return candidates[0]
        totals = [0.0] * len(candidates)
        deadline, samples = start + self.budget_s, 0
        while samples == 0 or time.perf_counter() < deadline:
            world = self.sample_state(view, rng)
            for index, action in enumerate(candidates):
                state = world.clone()
                self.game.apply(state, action)
                totals[index] += self._rollout(state, seat)
            samples += 1
        self.iterations.append(samples)
        self.seconds.append(time.perf_counter() - start)
        return candidates[max(range(len(candidates)), key=lambda i: totals[i])]


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot searching until a wall-clock budget is spent, instead of
    for a fixed number of simulations; otherwise its own ``run_search``."""

    def __init__(self, game: Any, budget_s: float, seed: int):
        self.random_state = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(1, self.random_state)
        super().__init__(game, evaluator, UCT_C, max_simulations=0,
                         random_state=self.random_state)
        self.budget_s = budget_s
        self.iterations: list[int] = []
        self.seconds: list[float] = []
        samples = random.Random(seed)
        self.set_resampler(lambda state, player: state.resample_from_infostate(
            player, samples.random))

    def step(self, state: Any) -> int:
        self._start = time.perf_counter()
        action = int(super().step(state))
        if len(state.legal_actions()) > 1:
            self.seconds.append(time.perf_counter() - self._start)
        return action

    def run_search(self, state: Any) -> list[tuple[int, float]]:
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline, simulations = self._start + self.budget_s, 0
        while simulations < 2 or time.perf_counter() < deadline:
            self.run_simulation(self.sample_root_state(state))
            simulations += 1
        self.iterations.append(simulations)
        policy: list[tuple[int, float]] = self.get_final_policy(state, self._root_node)
        return policy


def play(game: Any, players: int, index: int, seed: int,
         search: TimedSearchTimoBot | TimedStrongTwinsBot,
         opponents: dict[int, TimedISMCTSBot]) -> float:
    """One game; returns the search seat's share of the win."""
    engine_seed = seed * 100_000 + index
    state = game.new_initial_state(seed=engine_seed)
    rules = game.rules
    search_seat = index % players
    rng = random.Random(engine_seed)
    while not state.is_terminal():
        seat = state.current_player()
        if seat == search_seat:
            action = search.act(rules.view(state.engine, seat), rng)
            assert action is not None
            state.apply_action(rules.id_of(action))
        else:
            state.apply_action(opponents[seat].step(state))
    return float(state.returns()[search_seat])


def run(game_id: str, players: int, games: int, ms: float, seed: int) -> dict[str, Any]:
    budget_s = ms / 1000
    search: TimedSearchTimoBot | TimedStrongTwinsBot
    if game_id == "timo":
        game = pyspiel.load_game(TIMO_NAME, {"players": players, "target": 1})
        search = TimedSearchTimoBot(budget_s)
    else:
        game = pyspiel.load_game(TWINS_NAME, {"players": players, "max_hands": 1})
        search = TimedStrongTwinsBot(budget_s)
    opponents = {seat: TimedISMCTSBot(game, budget_s, seed * 1000 + seat)
                 for seat in range(players)}
    wins = 0.0
    started = time.perf_counter()
    for index in range(games):
        wins += play(game, players, index, seed, search, opponents)
        if (index + 1) % max(1, games // 10) == 0:
            print(f"  {players}p: {index + 1}/{games} games, search won {wins:g}, "
                  f"{time.perf_counter() - started:.0f} s", flush=True)
    low, high = wilson_interval(wins, games)
    ismcts_seconds = [s for bot in opponents.values() for s in bot.seconds]
    ismcts_iterations = [i for bot in opponents.values() for i in bot.iterations]
    return {
        "game": game_id, "players": players, "games": games, "ms_per_move": ms, "seed": seed,
        "search_wins": wins, "search_win_rate": wins / games, "wilson95": [low, high],
        "fair_share": 1 / players,
        "search_ms_per_decision": 1000 * mean_interval(search.seconds)[0],
        "search_samples_per_decision": mean_interval(
            [float(i) for i in search.iterations])[0],
        "ismcts_ms_per_decision": 1000 * mean_interval(ismcts_seconds)[0],
        "ismcts_simulations_per_decision": mean_interval(
            [float(i) for i in ismcts_iterations])[0],
        "decisions": {"search": len(search.seconds), "ismcts": len(ismcts_seconds)},
        "seconds": time.perf_counter() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=["timo", "twins"], default="timo")
    parser.add_argument("--players", type=int, nargs="+", default=None,
                        help="default: 2 4 for Timo's Twist, 3 4 for Twins")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--ms", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    bot, what = (("SearchTimoBot", "one-round Timo's Twist") if args.game == "timo"
                 else ("StrongTwinsBot", "one-hand Twins"))
    print(f"{bot} vs OpenSpiel ISMCTSBot (random rollouts, uct_c={UCT_C}), "
          f"{args.ms:g} ms per decision, {what}, seed {args.seed}")
    results = []
    for players in args.players or ([2, 4] if args.game == "timo" else [3, 4]):
        result = run(args.game, players, args.games, args.ms, args.seed)
        results.append(result)
        low, high = result["wilson95"]
        print(f"{players} players, {result['games']} games: {bot} won "
              f"{result['search_win_rate']:.1%} (95% Wilson {low:.1%}-{high:.1%}; fair share "
              f"{result['fair_share']:.0%}); per decision: search "
              f"{result['search_ms_per_decision']:.1f} ms, "
              f"{result['search_samples_per_decision']:.1f} sampled deals; "
              f"IS-MCTS {result['ismcts_ms_per_decision']:.1f} ms, "
              f"{result['ismcts_simulations_per_decision']:.1f} simulations "
              f"({result['seconds']:.0f} s)", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(results, file, indent=2)


if __name__ == "__main__":
    main()
