"""timo_v0 is Timo's Twist as a PettingZoo AEC environment: PettingZoo's own checks, the
same observations on both engines, refusals that change nothing, no leak of other hands,
the TIMO! race's question order, and score-based rewards."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from tests.games.timo.native import require_native
from twintable.bots.registry import bot_factories
from twintable.envs import IllegalActionError
from twintable.games.timo import TimoGame
from twintable.games.timo import env as timo_v0
from twintable.games.timo.fast import NATIVE
from twintable.games.timo.plugin import entry as timo_entry
from twintable.games.timo.research import codec

ENGINES = [pytest.param(True, id="native"), pytest.param(False, id="reference")]


def engine(native: bool) -> None:
    if native:
        require_native()


@pytest.mark.parametrize("native", ENGINES)
@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_and_seed_tests_pass(native: bool, players: int) -> None:
    engine(native)
    api_test(timo_v0.env(players=players, native=native), num_cycles=200)
    seed_test(lambda: timo_v0.env(players=players, native=native), num_cycles=200)


@pytest.mark.parametrize("options", [{"target": 120}, {"target": 60, "deck": "classic108",
                                                        "stacking": False}])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_both_engines_give_the_same_observations_masks_and_rewards(
        players: int, options: dict[str, Any]) -> None:
    require_native()
    races = 0
    for seed in range(3):
        native = timo_v0.raw_env(players, options, native=True)
        reference = timo_v0.raw_env(players, options, native=False)
        native.reset(seed=seed)
        reference.reset(seed=seed)
        rng = random.Random(seed)
        while native.agents:
            agent = native.agent_selection
            assert reference.agent_selection == agent
            for other in native.agents:
                a, b = native.observe(other), reference.observe(other)
                assert np.array_equal(a["observation"], b["observation"])
                assert np.array_equal(a["action_mask"], b["action_mask"])
            assert native._cumulative_rewards == reference._cumulative_rewards
            if native.terminations[agent]:
                native.step(None)
                reference.step(None)
                continue
            races += native.reacting
            mask = native.observe(agent)["action_mask"]
            index = rng.choice(np.flatnonzero(mask).tolist())
            native.step(index)
            reference.step(index)
        assert native.game.snapshot(native.state) == reference.game.snapshot(reference.state)
    assert races > 0, "random play should open TIMO! races"


@pytest.mark.parametrize("native", ENGINES)
def test_an_illegal_index_is_refused_and_changes_nothing(native: bool) -> None:
    engine(native)
    env = timo_v0.raw_env(3, native=native)
    env.reset(seed=7)
    rng = random.Random(1)
    for _ in range(150):
        agent = env.agent_selection
        observation = env.observe(agent)
        mask = observation["action_mask"]
        before = (env.game.snapshot(env.state), agent, dict(env._cumulative_rewards),
                  list(env._asked))
        for index in [*[i for i in range(codec.N_ACTIONS) if not mask[i]][:20], -1, 999]:
            with pytest.raises(IllegalActionError):
                env.step(index)
            assert (env.game.snapshot(env.state), env.agent_selection,
                    dict(env._cumulative_rewards), list(env._asked)) == before
        with pytest.raises(IllegalActionError):
            env.step(None)
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
        if env.state.over:
            break


@pytest.mark.parametrize("native", ENGINES)
def test_an_observation_shows_nothing_of_the_other_hands(native: bool) -> None:
    """Re-dealing every card the seat cannot see leaves its observation unchanged."""
    engine(native)
    env = timo_v0.raw_env(4, native=native)
    env.reset(seed=3)
    rng = random.Random(3)
    checked = 0
    for _ in range(120):
        for agent in env.possible_agents:
            seat = env.seat(agent)
            seen = env.observe(agent)
            other = env.game.determinize(env.state, seat, random.Random(checked))
            original, env._state = env._state, other
            try:
                assert np.array_equal(env.observe(agent)["observation"], seen["observation"])
                assert np.array_equal(env.observe(agent)["action_mask"], seen["action_mask"])
            finally:
                env._state = original
            checked += 1
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
        if env.state.over:
            break
    assert checked > 100


def test_the_race_order_asks_opponents_from_the_seat_on_turn_then_the_exposed_seat() -> None:
    assert timo_v0.race_order(4, turn=2, exposed=1, direction=1) == [2, 3, 0, 1]
    assert timo_v0.race_order(4, turn=0, exposed=1, direction=-1) == [0, 3, 2, 1]
    # The exposed seat on turn again (a Stop with two players) calls with its move.
    assert timo_v0.race_order(2, turn=0, exposed=0, direction=1) == [1]


def find_race(env: Any, seed: int) -> None:
    """Play random legal moves, never calling TIMO! with a play, until a race opens."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    while not env.reacting:
        mask = env.observe(env.agent_selection)["action_mask"].copy()
        mask[1:codec.BLACK_PLAYS:2] = 0
        mask[codec.BLACK_PLAYS + 1:codec.DRAW_INDEX:2] = 0
        assert not env.state.over
        env.step(rng.choice(np.flatnonzero(mask).tolist()))


@pytest.mark.parametrize("native", ENGINES)
def test_a_race_asks_each_seat_once_and_the_first_catch_wins(native: bool) -> None:
    engine(native)
    env = timo_v0.raw_env(4, native=native)
    find_race(env, 11)
    state = env.state
    exposed, turn = state.exposed, state.turn
    order = timo_v0.race_order(4, turn, exposed, state.direction)
    assert env.agent_selection == f"seat_{order[0]}"
    first_mask = env.observe(env.agent_selection)["action_mask"]
    assert np.flatnonzero(first_mask).tolist() == [codec.CATCH_INDEX, codec.WAIT_INDEX]
    assert env.observe(env.agent_selection)["observation"][codec.REACTING] == 1
    env.step(codec.WAIT_INDEX)
    assert env.agent_selection == f"seat_{order[1]}"
    cards = len(env.game.view(env.state, exposed).hand)
    env.step(codec.CATCH_INDEX)
    assert len(env.game.view(env.state, exposed).hand) == cards + 2
    assert env.state.exposed == -1 and not env.reacting
    assert env.agent_selection == f"seat_{turn}"


@pytest.mark.parametrize("native", ENGINES)
def test_a_late_call_works_when_every_opponent_waits(native: bool) -> None:
    engine(native)
    env = timo_v0.raw_env(3, native=native)
    find_race(env, 5)
    exposed, turn = env.state.exposed, env.state.turn
    while env.agent_selection != f"seat_{exposed}" and env.reacting:
        env.step(codec.WAIT_INDEX)
    if exposed == turn:
        assert not env.reacting
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask[codec.CALL_INDEX] == 1
    env.step(codec.CALL_INDEX)
    assert env.state.exposed == -1
    assert len(env.game.view(env.state, exposed).hand) == 1
    assert env.agent_selection == f"seat_{turn}"


@pytest.mark.parametrize("native", ENGINES)
def test_rewards_are_zero_sum_and_add_up_to_the_final_scores(native: bool) -> None:
    engine(native)
    env = timo_v0.raw_env(3, {"target": 150}, native=native)
    env.reset(seed=21)
    rng = random.Random(21)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while not env.state.over:
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
        assert sum(env.rewards.values()) == pytest.approx(0.0)
        for agent, reward in env.rewards.items():
            totals[agent] += reward
    outcome = env.game.outcome(env.state)
    assert outcome is not None
    scores = outcome.scores
    mean = sum(scores) / 3
    for seat, agent in enumerate(env.possible_agents):
        assert totals[agent] == pytest.approx((scores[seat] - mean) / 100)
    assert max(scores) >= 150 and all(env.terminations.values())


@pytest.mark.parametrize("native", ENGINES)
def test_a_seed_deals_the_engines_own_game(native: bool) -> None:
    engine(native)
    env = timo_v0.raw_env(4, {"deck": "classic108"}, native=native)
    env.reset(seed=2024)
    reference = TimoGame()
    assert env.game.snapshot(env.state) == reference.snapshot(
        reference.new_state({"deck": "classic108"}, 4, 2024))
    assert env.agent_selection == f"seat_{env.state.turn}"


@pytest.mark.parametrize("native", ENGINES)
def test_the_projects_bots_play_seats_through_action_of_and_index_of(native: bool) -> None:
    engine(native)
    env = timo_v0.raw_env(3, {"target": 100}, native=native)
    env.reset(seed=4)
    bots = [bot_factories(timo_entry())[name]() for name in ("random", "heuristic", "random")]
    rng = random.Random(4)
    while not env.state.over:
        seat = env.seat(env.agent_selection)
        action = bots[seat].act(env.game.view(env.state, seat), rng)
        index = env.index_of(action)
        if env.reacting and action is not None and action.kind not in ("call_timo", "catch"):
            index = codec.WAIT_INDEX  # a bot's turn move is not an answer to the race
        if index != codec.WAIT_INDEX:
            assert env.action_of(index) == action
        env.step(index)
    assert env.game.outcome(env.state) is not None


def test_the_native_flag_is_honoured() -> None:
    assert timo_v0.raw_env(2, native=False).native is False
    assert timo_v0.raw_env(2).native is NATIVE


def test_render_shows_no_hand() -> None:
    env = timo_v0.raw_env(2, render_mode="ansi", native=False)
    env.reset(seed=1)
    text = env.render()
    assert text is not None and "seat_0: 7 cards" in text


def outcome_of(call: Any) -> tuple[str, str]:
    """What ``call()`` did: ("ok", repr of the result) or (error type, message)."""
    try:
        result = call()
    except (AttributeError, AssertionError, ValueError) as error:
        return type(error).__name__, str(error)
    return "ok", type(result).__name__


def order_misuses(env: Any) -> list[tuple[str, str]]:
    """A wrapped env's answers to everything PettingZoo's order checks guard, before and
    after reset, and to an agent_iter loop that does not step."""
    answers = [outcome_of(lambda name=name: getattr(env, name)) for name in (
        "rewards", "terminations", "truncations", "infos", "agent_selection", "agents",
        "num_agents")]
    answers += [outcome_of(call) for call in (
        lambda: env.last(), lambda: env.step(0), lambda: env.observe("seat_0"),
        lambda: env.agent_iter(), lambda: env.render(), lambda: env._cumulative_rewards,
        lambda: env._asked, lambda: env.possible_agents)]
    env.reset(seed=3)
    answers += [outcome_of(lambda name=name: getattr(env, name)) for name in (
        "rewards", "terminations", "agent_selection", "agents", "num_agents",
        "_cumulative_rewards")]
    answers.append(outcome_of(lambda: env.last()[1:]))

    def loop_without_step() -> None:
        for _agent in env.agent_iter():
            env.last()

    answers.append(outcome_of(loop_without_step))
    env.reset(seed=3)
    answers.append(outcome_of(lambda: env.step(999)))
    answers.append((str(env.agent_selection), str(env._cumulative_rewards)))
    return answers


def test_the_fast_order_wrapper_refuses_exactly_what_pettingzoos_refuses() -> None:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    from twintable.envs.fast_wrapper import FastOrderEnforcingWrapper

    fast = timo_v0.env(players=2, render_mode="ansi")
    assert isinstance(fast, OrderEnforcingWrapper)
    assert isinstance(fast, FastOrderEnforcingWrapper)
    original = OrderEnforcingWrapper(timo_v0.raw_env(2, render_mode="ansi"))
    expected = order_misuses(original)
    assert ("AttributeError", "rewards cannot be accessed before reset") in expected
    assert ("AssertionError", "reset() needs to be called before step.") in expected
    assert any("need to call step() or reset()" in message for _, message in expected)
    assert order_misuses(fast) == expected


def test_the_fast_order_wrapper_plays_the_same_games_as_pettingzoos() -> None:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    def play(env: Any) -> list[Any]:
        env.reset(seed=8)
        rng, seen = random.Random(8), []
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            seen.append((agent, observation["observation"].tolist(), reward, terminated,
                         truncated, info, env.num_agents, dict(env.rewards)))
            mask = observation["action_mask"]
            env.step(None if terminated or truncated
                     else rng.choice(np.flatnonzero(mask).tolist()))
        return seen

    assert play(timo_v0.env(3, {"target": 80})) == play(
        OrderEnforcingWrapper(timo_v0.raw_env(3, {"target": 80})))
