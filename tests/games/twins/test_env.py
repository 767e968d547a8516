"""Twins as a PettingZoo environment: PettingZoo's own tests, the action and observation
encodings against the engine, refused actions, rewards, and no leak of hidden cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)

from twintable.envs import IllegalActionError
from twintable.envs.penalty import IllegalActionPenalty
from twintable.games.twins import env as twins_v0
from twintable.games.twins.state import PICK

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def random_legal(mask: np.ndarray, rng: random.Random) -> int:
    return rng.choice(np.flatnonzero(mask).tolist())


@pytest.mark.parametrize("players", [3, 6])
def test_pettingzoo_api_test(players: int) -> None:
    api_test(twins_v0.env(players=players), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: twins_v0.env(players=4), num_cycles=200)


@pytest.mark.parametrize("players", [3, 5])
def test_pettingzoo_parallel_api_test(players: int) -> None:
    parallel_api_test(twins_v0.parallel_env(players=players), num_cycles=200)


def test_pettingzoo_parallel_seed_test_with_the_penalty_wrapper() -> None:
    # parallel_seed_test samples without masks; the wrapper ends the episode instead.
    parallel_seed_test(lambda: IllegalActionPenalty(twins_v0.parallel_env(players=4)))


def test_same_seed_same_game_in_the_parallel_form() -> None:
    runs = []
    for _ in range(2):
        env = twins_v0.parallel_env(players=4)
        observations, _ = env.reset(seed=7)
        rng = random.Random(3)
        trace = []
        while env.agents:
            actions = {agent: random_legal(observations[agent]["action_mask"], rng)
                       for agent in env.agents}
            observations, rewards, *_ = env.step(actions)
            trace.append((sorted(actions.items()), sorted(rewards.items())))
        runs.append((trace, env.game.snapshot(env.state)))
    assert runs[0] == runs[1]


def test_every_legal_move_has_an_index_and_the_mask_is_exactly_them() -> None:
    raw = twins_v0.raw_env(players=4)
    raw.reset(seed=3)
    rng = random.Random(1)
    while not raw.game.is_over(raw.state):
        agent = raw.agent_selection
        seat = raw.seat(agent)
        legal = raw.game.legal_actions(raw.state, seat)
        mask = raw.observe(agent)["action_mask"]
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(raw.index_of(a) for a in legal)
        for action in legal:
            assert raw.action_of(raw.index_of(action), agent).key() == action.key()
        raw.step(random_legal(mask, rng))


def test_an_illegal_index_raises_and_changes_nothing() -> None:
    env = twins_v0.env(players=3)
    env.reset(seed=5)
    raw = env.unwrapped
    before = raw.game.snapshot(raw.state)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = [index for index in (twins_v0.WAIT, 1, 3, 500, twins_v0.N_ACTIONS - 1)
               if not mask[index]]
    assert illegal
    for index in [*illegal, twins_v0.N_ACTIONS, -1, None]:
        with pytest.raises(IllegalActionError):
            env.step(index)
        assert raw.game.snapshot(raw.state) == before
    assert isinstance(IllegalActionError("x"), ValueError)


def test_parallel_refuses_the_whole_step_when_one_action_is_illegal() -> None:
    env = twins_v0.parallel_env(players=3)
    observations, _ = env.reset(seed=2)
    rng = random.Random(0)
    while env.game.to_act(env.state) and env.state.phase != PICK:
        env.step({agent: random_legal(observations[agent]["action_mask"], rng)
                  for agent in env.agents})
        observations = {agent: env.table.observe(env.seat(agent), True)
                        for agent in env.agents}
    before = env.game.snapshot(env.state)
    actions = {agent: random_legal(observations[agent]["action_mask"], rng)
               for agent in env.agents}
    last = env.agents[-1]
    actions[last] = twins_v0.WAIT  # a seat that must pick may not wait
    with pytest.raises(IllegalActionError):
        env.step(actions)
    assert env.game.snapshot(env.state) == before
    with pytest.raises(IllegalActionError):
        env.step({"seat_9": 0})


def test_a_parallel_step_plays_a_whole_round_and_waiting_seats_may_only_wait() -> None:
    env = twins_v0.parallel_env(players=4)
    observations, _ = env.reset(seed=11)
    buyer = env.state.buyer
    for agent in env.agents:
        mask = observations[agent]["action_mask"]
        if env.seat(agent) == buyer:
            assert not mask[twins_v0.WAIT] and mask[1:4].any()
        else:
            assert np.flatnonzero(mask).tolist() == [twins_v0.WAIT]
    rng = random.Random(4)
    while env.state.phase != PICK:
        observations, *_ = env.step({agent: random_legal(observations[agent]["action_mask"],
                                                         rng) for agent in env.agents})
    assert env.state.round_no == 1
    observations, *_ = env.step({agent: random_legal(observations[agent]["action_mask"], rng)
                                 for agent in env.agents})
    assert env.state.round_no == 2 and len(env.state.played) == 4


@pytest.mark.parametrize("reward", ["win", "score"])
def test_rewards_received_sum_to_the_outcome(reward: str) -> None:
    env = twins_v0.env(players=4, reward=reward)
    env.reset(seed=8)
    rng = random.Random(6)
    received = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(100_000):
        observation, gained, terminated, truncated, _ = env.last()
        received[agent] += gained
        env.step(None if terminated or truncated else
                 random_legal(observation["action_mask"], rng))
    outcome = env.unwrapped.game.outcome(env.unwrapped.state)
    assert outcome is not None
    for seat, agent in enumerate(env.possible_agents):
        expected = ((outcome.scores[seat] - 12) / 12 if reward == "score"
                    else 1.0 if seat in outcome.winners else -1.0)
        assert received[agent] == pytest.approx(expected)


def test_the_observation_encodes_the_view() -> None:
    raw = twins_v0.raw_env(players=5)
    raw.reset(seed=4)
    rng = random.Random(9)
    where = twins_v0.OBSERVATION.slices
    for _ in range(30):
        agent = raw.agent_selection
        seat = raw.seat(agent)
        view = raw.game.view(raw.state, seat)
        observation = raw.observe(agent)["observation"]
        assert np.flatnonzero(observation[where["hand"]]).tolist() == sorted(view.hand)
        chips = observation[where["chips"]] * 12 * 5
        assert [round(chips[(other - seat) % 5]) for other in range(5)] == list(view.chips)
        assert observation[where["present"]].tolist() == [1, 1, 1, 1, 1, 0]
        assert raw.observation_space(agent).contains(raw.observe(agent))
        raw.step(random_legal(raw.observe(agent)["action_mask"], rng))


def observations_of(raw: Any, seat: int, state: Any) -> np.ndarray:
    return twins_v0.encode(raw.game.view(state, seat))


def test_fuzzed_games_never_show_another_seats_hidden_cards() -> None:
    """Each seat's observation is the same after everything it cannot see is re-dealt,
    and no card hidden in another hand (or picked, unrevealed) is marked anywhere."""
    where = twins_v0.OBSERVATION.slices
    for seed in range(4):
        players = 3 + seed
        raw = twins_v0.raw_env(players=players)
        raw.reset(seed=seed)
        rng = random.Random(seed)
        game = raw.game
        while not game.is_over(raw.state):
            state = raw.state
            for seat in range(players):
                observation = observations_of(raw, seat, state)
                shuffled = game.determinize(state, seat, random.Random(rng.random()))
                assert np.array_equal(observation, observations_of(raw, seat, shuffled))
                hidden = {card for other in range(players) if other != seat
                          for card in state.hands[other]}
                shown = set(np.flatnonzero(observation[where["hand"]]).tolist())
                shown |= set(np.flatnonzero(observation[where["my_pick"]]).tolist())
                assert not shown & hidden
            raw.step(random_legal(raw.observe(raw.agent_selection)["action_mask"], rng))


def test_options_reach_the_engine_and_bad_arguments_are_refused() -> None:
    env = twins_v0.env(players=3, options={"max_hands": 1})
    env.reset(seed=1)
    rng = random.Random(1)
    steps = 0
    for _agent in env.agent_iter(10_000):
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else
                 random_legal(observation["action_mask"], rng))
        steps += 1
    assert env.unwrapped.state.hand_no == 1 and steps < 40
    with pytest.raises(ValueError):
        twins_v0.env(players=3, reward="chips")
    with pytest.raises(ValueError):
        twins_v0.env(players=3, render_mode="rgb_array")
    with pytest.raises(Exception, match="players"):
        twins_v0.env(players=2)


def test_render_shows_the_public_table() -> None:
    env = twins_v0.env(players=3, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "seat_2: 12 chips, 8 cards" in text and "round 0 (buy)" in text


def test_the_documented_sizes_hold() -> None:
    assert (twins_v0.N_ACTIONS, twins_v0.OBSERVATION.size) == (1774, 549)
    assert twins_v0.__doc__ is not None and "549 float32" in twins_v0.__doc__
