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

import multiprocessing
import random
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from twintable.bots.registry import bot_factory
from twintable.bots.user import load_policy
from twintable.core.stats import mean_interval, wilson_interval
from twintable.envs.gym import TwinTableEnv, is_policy
from twintable.envs.opponents import turn_move

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


def evaluate(policy: Policy | str, opponents: Any, games: int, seed: int = 0, *,
             game: str, players: int | None = None,
             options: Mapping[str, Any] | None = None, batch: int = 1, workers: int = 1,
             **env_kwargs: Any) -> Evaluation:
    """Play ``games`` games of ``game`` (a game id, any game whose entry declares an
    environment) with ``policy`` on a rotating seat against ``opponents`` (anything the
    Gymnasium wrapper seats: a bot, a level such as ``"hard"``, a user's agent, a policy;
    or one per other seat; None: the game's stand-in bot).

    ``policy`` is a callable from the observation to an action index, a saved policy
    (``"policy.npz"``, ``"model.zip"``), or anything that names a bot: one of the game's
    bots, a level, ``"module:Class"`` (turn-based games), to measure bots the same way.

    ``batch`` > 1 plays that many games at once and calls the policy once per step with
    the observations stacked (``observation`` ``(k, n)``, ``action_mask`` ``(k, m)``; it
    returns ``k`` indices): a network then runs on a batch, as it does in training.
    ``workers`` > 1 shares the games among that many processes (forked, so a callable
    need not pickle). Results do not depend on either for a deterministic policy: game
    ``i`` has seed ``seed + i`` and seat ``i mod players`` whatever plays it.
    Other keyword arguments go to the environment (``dt``, ``reward``, ``max_ticks``...).
    """
    if games < 1:
        raise ValueError("play at least one game")
    if batch < 1 or workers < 1:
        raise ValueError("batch and workers must be at least 1")
    setup = _Setup(game, players, opponents, dict(options or {}), env_kwargs)
    probe = setup.env(0)
    seats = len(probe.raw.possible_agents)
    probe.close()
    choose = _chooser(policy, game, batch)
    indices = list(range(games))
    if workers == 1 or games < 2:
        played = _play(setup, choose, indices, seed, seats, batch)
    else:
        played = _play_in_processes(setup, choose, indices, seed, seats, batch,
                                    min(workers, games))
    played.sort()
    shares = [share for _, _, share, _ in played]
    returns = [total for _, _, _, total in played]
    by_seat: dict[int, list[float]] = {}
    for _, seat, share, _ in played:
        by_seat.setdefault(seat, []).append(share)
    wins = sum(shares)
    mean, low, high = mean_interval(returns)
    return Evaluation(games=games, wins=wins, win_rate=wins / games,
                      win_interval=wilson_interval(wins, games), mean_return=mean,
                      return_interval=(low, high),
                      by_seat={seat: (len(values), sum(values))
                               for seat, values in sorted(by_seat.items())})


@dataclass(frozen=True, slots=True)
class _Setup:
    game: str
    players: int | None
    opponents: Any
    options: dict[str, Any]
    env_kwargs: dict[str, Any]

    def env(self, seat: int) -> TwinTableEnv:
        return TwinTableEnv(self.game, players=self.players, seat=seat,
                            opponents=self.opponents, options=dict(self.options),
                            **self.env_kwargs)


#: (env, observation) -> index, or with batches (envs, stacked observations) -> indices.
Chooser = Callable[[Any, Any], Any]
#: One played game: (index, seat, win share, return).
Played = tuple[int, int, float, float]


def _chooser(policy: Policy | str, game: str, batch: int) -> Chooser:
    if isinstance(policy, str) and not is_policy(policy):
        if batch > 1:
            raise ValueError("a bot as the policy plays one game at a time: batch=1")
        return _bot_policy(policy, game)
    loaded = load_policy(policy)

    def choose(env: Any, observation: Any) -> Any:
        return loaded(observation)

    return choose


def _share(env: TwinTableEnv) -> float:
    outcome = env.game.outcome(env.raw.state)
    winners = outcome.winners if outcome is not None else frozenset()
    return 1.0 / len(winners) if env.seat in winners else 0.0


def _play(setup: _Setup, choose: Chooser, indices: list[int], seed: int, seats: int,
          batch: int) -> list[Played]:
    """Play the games ``indices``, ``batch`` at a time."""
    played: list[Played] = []
    for start in range(0, len(indices), batch):
        chunk = indices[start:start + batch]
        envs = [setup.env(index % seats) for index in chunk]
        observations = [env.reset(seed=seed + index)[0] for env, index in zip(envs, chunk,
                                                                             strict=True)]
        totals = [0.0] * len(chunk)
        live = list(range(len(chunk)))
        while live:
            if batch == 1:
                actions = [choose(envs[0], observations[0])]
            else:
                stacked = {key: np.stack([observations[i][key] for i in live])
                           for key in observations[live[0]]}
                actions = list(np.asarray(choose([envs[i] for i in live], stacked)
                                          ).reshape(len(live)))
            still = []
            for slot, action in zip(live, actions, strict=True):
                observation, reward, terminated, truncated, _ = envs[slot].step(int(action))
                observations[slot] = observation
                totals[slot] += float(reward)
                if not (terminated or truncated):
                    still.append(slot)
            live = still
        for slot, index in enumerate(chunk):
            played.append((index, index % seats, _share(envs[slot]), totals[slot]))
            envs[slot].close()
    return played


#: What a forked worker plays with (set before the fork, so nothing is pickled).
_FORKED: tuple[_Setup, Chooser, int, int, int] | None = None


def _play_forked(indices: list[int]) -> list[Played]:
    assert _FORKED is not None
    setup, choose, seed, seats, batch = _FORKED
    return _play(setup, choose, indices, seed, seats, batch)


def _play_in_processes(setup: _Setup, choose: Chooser, indices: list[int], seed: int,
                       seats: int, batch: int, workers: int) -> list[Played]:
    global _FORKED
    context = multiprocessing.get_context("fork")
    parts = [indices[worker::workers] for worker in range(workers)]
    _FORKED = (setup, choose, seed, seats, batch)
    try:
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            return [game for part in pool.map(_play_forked, parts) for game in part]
    finally:
        _FORKED = None


def _bot_policy(name: str, game: str) -> Chooser:
    """A bot (a name, a level, ``module:Class``) as a policy on the learner's seat (it
    sees only its view)."""
    from twintable.core.registry import default_registry

    factory = bot_factory(default_registry().entry(game), name)
    seated: list[tuple[TwinTableEnv, Any]] = []
    rng = random.Random(0)

    def act(env: TwinTableEnv, observation: dict[str, npt.NDArray[Any]]) -> int:
        if env.realtime:
            raise ValueError("a bot as the policy needs a turn-based game")
        if not seated or seated[-1][0] is not env:  # a new game: a fresh bot
            seated[:] = [(env, factory())]
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
