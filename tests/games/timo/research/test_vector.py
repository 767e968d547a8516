"""The vector engine plays timo_v0's games: identical seeded games through both, compared
every step (observations, masks, rewards, terminations), with timo_v0 on the reference
rules and the other seats played by the Python twin of the engine's policy."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from tests.games.timo.native import require_native
from twintable.envs import IllegalActionError
from twintable.games.timo import TimoGame
from twintable.games.timo import env as timo_v0
from twintable.games.timo.research import codec
from twintable.games.timo.research.policy import GreedyTimoPolicy, greedy_index


@pytest.fixture(autouse=True)
def native() -> None:
    require_native()


def vector_env(*args: Any, **kwargs: Any) -> Any:
    from twintable.games.timo.research.vector import TimoVectorEnv

    return TimoVectorEnv(*args, **kwargs)


class Mirror:
    """One game of the vector engine replayed through timo_v0 on the Python rules."""

    def __init__(self, game: int, count: int, base: int, players: int,
                 options: dict[str, Any]):
        self.game, self.count, self.base, self.episode = game, count, base, 0
        self.env = timo_v0.raw_env(players, options, native=False)
        self.needs_reset = False
        self.races = 0
        self.start()

    def seed(self) -> int:
        return (self.base + self.game + self.episode * self.count) % 2**64

    def start(self) -> None:
        while True:
            self.env.reset(seed=self.seed())
            self.totals = dict.fromkeys(self.env.possible_agents, 0.0)
            self.advance()
            if not self.env.state.over:
                self.needs_reset = False
                return
            self.episode += 1

    def advance(self) -> None:
        """The other seats play timo_v0's question order with the engine's policy."""
        env = self.env
        while env.agent_selection != "seat_0" and not env.state.over:
            seat = env.seat(env.agent_selection)
            env.step(greedy_index(env.game.view(env.state, seat), env.reacting))
            self.add_rewards()

    def add_rewards(self) -> None:
        # Rewards come only when a round ends, and every seat's at once.
        if any(self.env.rewards.values()) and self.env._rewarded:
            for agent, reward in self.env.rewards.items():
                self.totals[agent] += reward

    def step(self, index: int) -> tuple[dict[str, Any], float, bool]:
        if self.needs_reset:
            self.episode += 1
            self.start()
            return self.env.observe("seat_0"), 0.0, False
        self.env.step(index)
        self.add_rewards()
        self.races += self.env.state.exposed == 0
        self.advance()
        over = self.env.state.over
        self.needs_reset = over
        return self.env.observe("seat_0"), self.env._cumulative_rewards["seat_0"], over


def assert_final_infos(infos: dict[str, Any], game: int, mirror: Mirror) -> None:
    """The infos of a game that just ended are timo_v0's result of the same game."""
    state, env = mirror.env.state, mirror.env
    outcome = TimoGame().outcome(state)
    assert outcome is not None
    assert all(infos[f"_{key}"][game] for key in ("winner", "scores", "returns",
                                                  "episode_return"))
    assert {int(infos["winner"][game])} == set(outcome.winners)
    assert tuple(infos["scores"][game]) == outcome.scores
    # Every seat's return is the sum of its timo_v0 rewards over the game.
    assert infos["returns"][game] == pytest.approx(
        [mirror.totals[agent] for agent in env.possible_agents])
    assert infos["episode_return"][game] == pytest.approx(mirror.totals["seat_0"])


def assert_same(vector: Any, observations: dict[str, Any], game: int,
                expected: dict[str, Any]) -> None:
    assert np.array_equal(observations["observation"][game], expected["observation"])
    assert np.array_equal(observations["action_mask"][game], expected["action_mask"])


@pytest.mark.parametrize(("players", "options", "steps"), [
    (2, {"target": 40}, 250),
    (4, {"target": 60, "deck": "classic108"}, 200),
    (3, {"target": 30, "stacking": False, "draw_when_able": True}, 200),
    (3, {"target": 40, "hand_size": 4}, 200),
])
def test_the_vector_engine_plays_the_same_games_as_timo_v0(
        players: int, options: dict[str, Any], steps: int) -> None:
    count, base = 3, 2**64 - 2
    vector = vector_env(count, players, options, copy=True)
    observations, _ = vector.reset(seed=base)
    mirrors = [Mirror(game, count, base, players, options) for game in range(count)]
    rng = np.random.default_rng(players)
    ends = 0
    for game, mirror in enumerate(mirrors):
        assert_same(vector, observations, game, mirror.env.observe("seat_0"))
    for _ in range(steps):
        masks = observations["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(mask)) if mask.any() else 0
                            for mask in masks])
        # Never calling TIMO! with a play, half the time, so that races happen.
        for game, action in enumerate(actions):
            if action < codec.DRAW_INDEX and action % 2 and rng.random() < 0.5 and \
                    masks[game][action - 1]:
                actions[game] = action - 1
        observations, rewards, terminated, truncated, infos = vector.step(actions)
        assert not truncated.any()
        assert bool(infos) == terminated.any()
        for game, mirror in enumerate(mirrors):
            expected, reward, over = mirror.step(int(actions[game]))
            assert_same(vector, observations, game, expected)
            assert rewards[game] == reward
            assert terminated[game] == over
            assert vector.episode(game)[:2] == (mirror.episode, mirror.seed())
            if over:
                assert_final_infos(infos, game, mirror)
            elif infos:
                assert not infos["_winner"][game] and infos["winner"][game] == -1
            ends += over
    assert ends >= count, "every game should end at least once"
    assert sum(mirror.races for mirror in mirrors) > 0, "the learner should open races"


def test_an_illegal_action_moves_no_game() -> None:
    vector = vector_env(4, 3, {"target": 50}, copy=False)
    observations, _ = vector.reset(seed=9)
    before = {key: value.copy() for key, value in observations.items()}
    actions = np.array([int(np.flatnonzero(mask)[0]) for mask in before["action_mask"]])
    illegal = actions.copy()
    illegal[2] = int(np.flatnonzero(before["action_mask"][2] == 0)[0])
    with pytest.raises(IllegalActionError, match="game 2"):
        vector.step(illegal)
    for key, value in observations.items():
        assert np.array_equal(value, before[key])
    with pytest.raises(IllegalActionError):
        vector.step(actions[:3])
    vector.step(actions)


def test_threads_do_not_change_the_games() -> None:
    count = 300
    results = []
    for threads in (1, 2, 3):  # the worker pool: kept between steps, chunks of 100 games
        vector = vector_env(count, 4, {"target": 80}, threads=threads, copy=True)
        observations, _ = vector.reset(seed=5)
        rng = np.random.default_rng(0)
        trace = []
        for _ in range(60):
            actions = np.array([rng.choice(np.flatnonzero(mask)) if mask.any() else 0
                                for mask in observations["action_mask"]])
            observations, rewards, terminated, _, _ = vector.step(actions)
            trace.append((observations["observation"].copy(), rewards.copy(),
                          terminated.copy()))
        results.append(trace)
    for other in results[1:]:
        for (a, b, c), (x, y, z) in zip(results[0], other, strict=True):
            assert np.array_equal(a, x) and np.array_equal(b, y) and np.array_equal(c, z)


def test_the_python_policy_is_the_engines() -> None:
    from twintable.games.timo.fast import FastTimoGame

    fast, reference = FastTimoGame(), TimoGame()
    policy = GreedyTimoPolicy()
    for seed in range(4):
        env = timo_v0.raw_env(3, {"target": 100})
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.state.over:
            for seat in range(3):
                view = reference.view(fast.to_reference(env.state), seat)
                for reacting in (False, True):
                    if view.legal and (reacting or seat == view.turn):
                        assert env.state.greedy_index(seat, reacting) == \
                            greedy_index(view, reacting)
            assert policy.act(env.game.view(env.state, 0), random.Random(0)) is not None or \
                env.state.turn != 0
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))


def play(vector: Any, seed: int, steps: int) -> list[tuple[Any, ...]]:
    """A seeded run of random legal learner moves: every step's arrays and infos."""
    observations, _ = vector.reset(seed=seed)
    # One generator per game, so that a game's moves do not depend on the others'.
    rngs = [np.random.default_rng([seed, game]) for game in range(vector.num_envs)]
    trace = []
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(mask)) if mask.any() else 0
                            for rng, mask in zip(rngs, observations["action_mask"],
                                                 strict=True)])
        observations, rewards, terminated, _, infos = vector.step(actions)
        trace.append((observations["observation"].copy(), rewards.copy(),
                      terminated.copy(), {k: np.copy(v) for k, v in infos.items()}))
    return trace


def test_opponents_are_chosen_game_by_game() -> None:
    """A game keeps the opponent it was given: in a mixed vector the greedy games are
    those of an all-greedy vector, the random ones those of an all-random vector, and a
    seeded random opponent plays the same game twice."""
    count, steps = 6, 150
    mixed = ["greedy", "random"] * (count // 2)
    runs = {name: play(vector_env(count, 2, {"target": 60}, opponents=name), 3, steps)
            for name in ("greedy", "random")}
    together = play(vector_env(count, 2, {"target": 60}, opponents=mixed), 3, steps)
    again = play(vector_env(count, 2, {"target": 60}, opponents=mixed), 3, steps)
    for mine, other in zip(together, again, strict=True):
        assert all(np.array_equal(a, b) for a, b in zip(mine[:3], other[:3], strict=True))
        assert mine[3].keys() == other[3].keys()
        assert all(np.array_equal(mine[3][key], other[3][key]) for key in mine[3])
    for game, name in enumerate(mixed):
        for mine, alone in zip(together, runs[name], strict=True):
            assert np.array_equal(mine[0][game], alone[0][game])
            assert mine[1][game] == alone[1][game] and mine[2][game] == alone[2][game]
    # The two kinds really differ.
    assert any(not np.array_equal(g[0], r[0]) for g, r in
               zip(runs["greedy"], runs["random"], strict=True))


def test_random_opponents_answer_races_and_end_their_games() -> None:
    """Random opponents play only what they are asked (the engine reports any other
    move), games end with a winner that reached the target, and a random learner wins
    about half of its 2-player games against them but rarely against the greedy one."""
    count = 64
    win_rates = {}
    for name in ("random", "greedy"):
        vector = vector_env(count, 2, {"target": 60}, opponents=name)
        wins = games = 0
        for _, _, _, infos in play(vector, 11, 1500):
            if infos:
                ended = infos["_winner"]
                scores, winner = infos["scores"][ended], infos["winner"][ended]
                assert (scores[np.arange(len(winner)), winner] >= 60).all()
                assert infos["returns"][ended].sum(axis=1) == pytest.approx(0.0)
                wins += int((winner == 0).sum())
                games += int(ended.sum())
        win_rates[name] = wins / games
    assert 0.4 < win_rates["random"] < 0.6
    assert win_rates["greedy"] < 0.2


def test_unknown_opponents_are_refused() -> None:
    with pytest.raises(ValueError, match="timo_selfplay"):
        vector_env(4, 2, opponents="heuristic")
    with pytest.raises(ValueError, match="one opponent per game"):
        vector_env(4, 2, opponents=["random"] * 3)
