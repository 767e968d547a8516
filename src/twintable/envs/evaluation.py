"""How strong a policy is against the project's bots: win rate and mean return, with
intervals, over whole games of any game that has a Gymnasium environment.

:func:`evaluate` plays ``games`` episodes of ``twintable.envs.gym.TwinTableEnv``: the
policy plays one seat, which moves round the table from game to game (game ``i`` seats it
at ``i mod players``), and ``opponents`` play every other seat. Game ``i`` is reset with
seed ``seed + i``, so a run is reproducible and two policies evaluated with the same seed
meet the same deals and the same bots' draws. A tie counts as a shared win (a win share
of ``1 / winners``); the win rate's interval is Wilson's on those shares (exact for games
without ties, an approximation otherwise), the mean return's a normal approximation.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from twintable.bots.registry import bot_factories
from twintable.envs.gym import TwinTableEnv
from twintable.envs.opponents import turn_move
from twintable.sim.stats import mean_interval, wilson_interval

#: A policy: the learner's observation (``observation`` and ``action_mask``) -> an index.
Policy = Callable[[dict[str, npt.NDArray[Any]]], Any]


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The result of :func:`evaluate`; rates are fractions, intervals 95%."""

    games: int
    wins: float
    win_rate: float
    win_interval: tuple[float, float]
    mean_return: float
    return_interval: tuple[float, float]
    #: Win share per seat the policy played: seat -> (games, wins).
    by_seat: dict[int, tuple[int, float]]

    def __str__(self) -> str:
        low, high = self.win_interval
        r_low, r_high = self.return_interval
        return (f"{self.games} games: win rate {self.win_rate:.1%} ({low:.1%}–{high:.1%}), "
                f"mean return {self.mean_return:+.3f} ({r_low:+.3f} to {r_high:+.3f})")


def evaluate(policy: Policy | str, opponents: str | Sequence[str] | None, games: int,
             seed: int = 0, *, game: str, players: int | None = None,
             options: Mapping[str, Any] | None = None, **env_kwargs: Any) -> Evaluation:
    """Play ``games`` games of ``game`` (a game id, any game whose entry declares an
    environment) with ``policy`` on a rotating seat against ``opponents`` (a bot name, or
    one per other seat; None: the game's stand-in bot).

    ``policy`` is a callable from the observation to an action index, or the name of one
    of the game's bots (turn-based games), to measure the project's bots the same way.
    Other keyword arguments go to the environment (``dt``, ``reward``, ``max_ticks``...).
    """
    if games < 1:
        raise ValueError("play at least one game")
    probe = TwinTableEnv(game, players=players, opponents=opponents,
                         options=dict(options or {}), **env_kwargs)
    seats = len(probe.raw.possible_agents)
    probe.close()
    if isinstance(policy, str):
        choose = _bot_policy(policy, game)
    else:
        def choose(env: TwinTableEnv, observation: dict[str, npt.NDArray[Any]]) -> Any:
            return policy(observation)
    shares: list[float] = []
    returns: list[float] = []
    by_seat: dict[int, list[float]] = {}
    for index in range(games):
        seat = index % seats
        env = TwinTableEnv(game, players=players, seat=seat, opponents=opponents,
                           options=dict(options or {}), **env_kwargs)
        observation, _ = env.reset(seed=seed + index)
        total, done = 0.0, False
        while not done:
            action = choose(env, observation)
            observation, reward, terminated, truncated, _ = env.step(action)
            total += float(reward)
            done = terminated or truncated
        outcome = env.game.outcome(env.raw.state)
        winners = outcome.winners if outcome is not None else frozenset()
        share = 1.0 / len(winners) if seat in winners else 0.0
        shares.append(share)
        returns.append(total)
        by_seat.setdefault(seat, []).append(share)
        env.close()
    wins = sum(shares)
    mean, low, high = mean_interval(returns)
    return Evaluation(games=games, wins=wins, win_rate=wins / games,
                      win_interval=wilson_interval(wins, games), mean_return=mean,
                      return_interval=(low, high),
                      by_seat={seat: (len(values), sum(values))
                               for seat, values in sorted(by_seat.items())})


def _bot_policy(name: str, game: str) -> Callable[[TwinTableEnv, Any], int]:
    """A bot of the game as a policy on the learner's seat (it sees only its view)."""
    from twintable.games import default_registry

    factories = bot_factories(default_registry().entry(game))
    if name not in factories:
        raise ValueError(f"unknown bot {name!r} for {game}; choose from "
                         f"{', '.join(sorted(factories))}")
    seated: list[tuple[TwinTableEnv, Any]] = []
    rng = random.Random(0)

    def act(env: TwinTableEnv, observation: dict[str, npt.NDArray[Any]]) -> int:
        if env.realtime:
            raise ValueError("a bot name as the policy needs a turn-based game")
        if not seated or seated[-1][0] is not env:  # a new game: a fresh bot
            seated[:] = [(env, factories[name]())]
        bot = seated[-1][1]
        move = turn_move(env.raw, env.learner, bot, observation["action_mask"], rng)
        mask = observation["action_mask"]
        if move is None:
            if env.wait_index is None or not mask[env.wait_index]:
                raise RuntimeError(f"the {name} bot made no move on its turn")
            return int(env.wait_index)
        return int(env.raw.index_of(move))

    return act


def masked_random(seed: int = 0) -> Policy:
    """A policy that plays uniformly among the legal moves (a baseline)."""
    rng = np.random.default_rng(seed)

    def policy(observation: dict[str, npt.NDArray[Any]]) -> int:
        return int(rng.choice(np.flatnonzero(observation["action_mask"])))

    return policy


__all__ = ["Evaluation", "Policy", "evaluate", "masked_random"]
