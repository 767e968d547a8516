"""Twin Tricks as a PettingZoo environment: PettingZoo's own tests, the mask against the
engine, refused actions, rewards, and observations that hide the others' cards."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test
from twintable.envs import IllegalActionError

from twintable_tricks import env as tricks_env

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test(players: int) -> None:
    api_test(tricks_env.env(players=players), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: tricks_env.env(players=3), num_cycles=200)


def test_the_mask_is_exactly_the_legal_moves_and_a_game_ends_with_win_rewards() -> None:
    raw = tricks_env.raw_env(players=3, options={"target": 4})
    raw.reset(seed=3)
    rng = random.Random(1)
    totals = dict.fromkeys(raw.possible_agents, 0.0)
    while not raw.game.is_over(raw.state):
        agent = raw.agent_selection
        legal = raw.game.legal_actions(raw.state, raw.seat(agent))
        mask = raw.observe(agent)["action_mask"]
        assert np.flatnonzero(mask).tolist() == sorted(raw.index_of(a) for a in legal)
        raw.step(rng.choice(np.flatnonzero(mask).tolist()))
        for name, reward in raw.rewards.items():
            totals[name] += reward
    outcome = raw.game.outcome(raw.state)
    assert outcome is not None
    assert totals == {agent: 1.0 if seat in outcome.winners else -1.0
                      for seat, agent in enumerate(raw.possible_agents)}


def test_an_illegal_index_is_refused_and_changes_nothing() -> None:
    raw = tricks_env.raw_env(players=2)
    raw.reset(seed=5)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = raw.game.snapshot(raw.state)
    for index in (illegal, 40, -1, None):
        with pytest.raises(IllegalActionError):
            raw.step(index)
    assert raw.game.snapshot(raw.state) == before


def test_an_observation_is_the_same_when_the_others_hands_are_redealt() -> None:
    raw = tricks_env.raw_env(players=4)
    raw.reset(seed=9)
    for _ in range(6):
        raw.step(int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])[0]))
    for seat in range(4):
        view = raw.game.view(raw.state, seat)
        redealt = raw.game.determinize(raw.state, seat, random.Random(seat))
        assert redealt.hands != raw.state.hands
        assert (tricks_env.encode(view) == tricks_env.encode(
            raw.game.view(redealt, seat))).all()


def test_score_rewards_add_up_to_the_points_scored() -> None:
    raw = tricks_env.raw_env(players=2, options={"target": 7}, reward="score")
    raw.reset(seed=2)
    totals = dict.fromkeys(raw.possible_agents, 0.0)
    while not raw.game.is_over(raw.state):
        raw.step(int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])[-1]))
        for name, reward in raw.rewards.items():
            totals[name] += reward
    assert [round(totals[agent] * 6) for agent in raw.possible_agents] == raw.state.scores


def test_twin_tables_gymnasium_wrapper_seats_the_learner_against_the_bot() -> None:
    """Twin Table's generic single-agent wrapper finds the environment through the entry."""
    from gymnasium.utils.env_checker import check_env
    from twintable.envs.gym import TwinTableEnv

    check_env(TwinTableEnv("tricks", players=2, illegal_action="penalty"))
    env = TwinTableEnv("tricks", players=3, opponents="heuristic", options={"target": 3})
    _, info = env.reset(seed=1)
    rng = random.Random(2)
    rewards, done = [], False
    while not done:
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        _, reward, terminated, truncated, info = env.step(action)
        rewards.append(float(reward))
        done = terminated or truncated
    assert rewards[-1] in (1.0, -1.0) and set(rewards[:-1]) <= {0.0}
    assert env.game.is_over(env.raw.state)


def test_evaluate_measures_a_policy_and_the_games_own_bot_from_its_entry() -> None:
    """``twintable.envs.evaluate`` plays any game with an environment; a bot name as the
    policy is looked up through the game's entry."""
    from twintable.envs import evaluate
    from twintable.envs.evaluation import masked_random

    strong = evaluate("heuristic", "random", 24, seed=0, game="tricks", players=2,
                      options={"target": 5})
    weak = evaluate(masked_random(0), "heuristic", 24, seed=0, game="tricks", players=2,
                    options={"target": 5})
    assert {seat: games for seat, (games, _) in strong.by_seat.items()} == {0: 12, 1: 12}
    assert strong.win_rate > 0.5 > weak.win_rate
    with pytest.raises(ValueError, match="unknown bot"):
        evaluate("search", "random", 1, game="tricks", players=2)
