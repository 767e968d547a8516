"""Twin It in discrete time: PettingZoo's own tests in every mode, the clock and its
timers, races inside a tick, refused actions, rewards, and no leak of hidden faces."""

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
from twintable.games.twinit import env as twinit_v0

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

MODES = [("competitive", 3, {}), ("team", 4, {}), ("coop", 2, {"duration_s": 10}),
         ("timeattack", 2, {"duration_s": 10, "rounds": 2}),
         ("competitive", 2, {"edition": "ko", "taboo": [0]})]


def random_legal(mask: np.ndarray, rng: random.Random) -> int:
    return rng.choice(np.flatnonzero(mask).tolist())


def options_for(mode: str, extra: dict[str, Any]) -> dict[str, Any]:
    return {"mode": mode, **extra}


@pytest.mark.parametrize(("mode", "players", "extra"), MODES)
def test_pettingzoo_api_and_seed_tests(mode: str, players: int,
                                       extra: dict[str, Any]) -> None:
    options = options_for(mode, extra)
    api_test(twinit_v0.env(players=players, options=options), num_cycles=120)
    seed_test(lambda: twinit_v0.env(players=players, options=options), num_cycles=60)


@pytest.mark.parametrize(("mode", "players", "extra"), MODES[:3])
def test_pettingzoo_parallel_tests(mode: str, players: int, extra: dict[str, Any]) -> None:
    options = options_for(mode, extra)
    parallel_api_test(twinit_v0.parallel_env(players=players, options=options),
                      num_cycles=120)
    parallel_seed_test(lambda: IllegalActionPenalty(
        twinit_v0.parallel_env(players=players, options=options)))


def play_out(env: Any, seed: int, max_ticks: int = 20_000) -> list[float]:
    """A random-legal AEC game to its end; the rewards each agent received, in seat order."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    received = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_ticks * len(env.possible_agents)):
        observation, gained, terminated, truncated, _ = env.last()
        received[agent] += gained
        env.step(None if terminated or truncated else
                 random_legal(observation["action_mask"], rng))
    return [received[agent] for agent in env.possible_agents]


TIME_ATTACK = {"mode": "timeattack", "duration_s": 10, "rounds": 1}


def test_a_whole_game_ends_and_score_rewards_add_up_to_the_final_scores() -> None:
    env = twinit_v0.env(players=2, options=TIME_ATTACK, dt=250)
    received = play_out(env, seed=3)
    raw = env.unwrapped
    outcome = raw.game.outcome(raw.state)
    assert outcome is not None and raw.now_ms == 10_250
    assert received == [float(score) for score in outcome.scores]


def test_score_rewards_follow_the_sets_in_competitive_play() -> None:
    env = twinit_v0.env(players=3, max_ticks=150)
    received = play_out(env, seed=7)
    state = env.unwrapped.state
    assert env.unwrapped.truncated and state.takes != [0, 0, 0]
    assert received == [float(len(state.sets[seat])) for seat in range(3)]


def test_win_rewards() -> None:
    env = twinit_v0.env(players=2, options=TIME_ATTACK, dt=250, reward="win")
    received = play_out(env, seed=5)
    outcome = env.unwrapped.game.outcome(env.unwrapped.state)
    assert outcome is not None
    assert received == [1.0 if seat in outcome.winners else -1.0 for seat in range(2)]


def test_the_clock_moves_by_dt_a_tick_and_the_order_rotates() -> None:
    env = twinit_v0.env(players=3, dt=250)
    env.reset(seed=1)
    raw = env.unwrapped
    seen = []
    for _ in range(9):
        seen.append((raw.now_ms, env.agent_selection))
        env.step(twinit_v0.WAIT)
    assert seen == [(0, "seat_0"), (0, "seat_1"), (0, "seat_2"),
                    (250, "seat_1"), (250, "seat_2"), (250, "seat_0"),
                    (500, "seat_2"), (500, "seat_0"), (500, "seat_1")]


def touch_index(place: str) -> int:
    return twinit_v0.TOUCH_BASE + twinit_v0.PLACE_INDEX[place]


def test_a_lone_hand_lifts_after_hold_ms_on_the_virtual_clock() -> None:
    env = twinit_v0.env(players=2, options={"hold_ms": 1000}, dt=100)
    env.reset(seed=2)
    raw = env.unwrapped
    assert env.agent_selection == "seat_0"
    env.step(touch_index("p1"))
    assert [hand.ref for hand in raw.state.hands.values()] == ["p1"]
    mask = env.observe("seat_1")["action_mask"]
    assert not mask[touch_index("p1")], "a covered card cannot be touched"
    lifted_at = None
    while raw.state.hands:
        env.step(twinit_v0.WAIT)
        lifted_at = raw.now_ms
    assert lifted_at == 1000


def test_an_illegal_index_raises_and_changes_nothing() -> None:
    env = twinit_v0.env(players=2)
    env.reset(seed=4)
    raw = env.unwrapped
    before = raw.game.snapshot(raw.state)
    mask = env.observe(env.agent_selection)["action_mask"]
    for index in [twinit_v0.START_INDEX, touch_index("c3"), twinit_v0.TURN_BASE,
                  twinit_v0.N_ACTIONS, -1, None]:
        if index is not None and 0 <= index < len(mask):
            assert not mask[index]
        with pytest.raises(IllegalActionError):
            env.step(index)
        assert raw.game.snapshot(raw.state) == before and raw.now_ms == 0


def test_masks_are_the_engines_legal_moves_and_indices_round_trip() -> None:
    raw = twinit_v0.raw_env(players=2, options={"mode": "timeattack", "duration_s": 10})
    raw.reset(seed=6)
    rng = random.Random(2)
    for _ in range(200):
        if raw.game.is_over(raw.state):
            break
        agent = raw.agent_selection
        seat = raw.seat(agent)
        mask = raw.observe(agent)["action_mask"]
        legal = raw.game.legal_actions(raw.state, seat)
        if raw.now_ms == raw.state.clock:
            expected = {raw.index_of(action) for action in legal} | {twinit_v0.WAIT}
            assert set(np.flatnonzero(mask).tolist()) == expected
        moves = raw.table.legal(seat)
        assert all(raw.index_of(action) == index for index, action in moves.items())
        if moves:
            index = rng.choice(sorted(moves))
            # Played moves are stamped with the tick's time.
            assert raw.action_of(index, agent) == moves[index].at(raw.now_ms)
        raw.step(random_legal(mask, rng))


def test_parallel_races_inside_a_tick_are_refused_not_raised() -> None:
    env = twinit_v0.parallel_env(players=2)
    observations, _ = env.reset(seed=8)
    index = touch_index("p0")
    assert observations["seat_0"]["action_mask"][index]
    assert observations["seat_1"]["action_mask"][index]
    before = env.game.snapshot(env.state)
    with pytest.raises(IllegalActionError):
        env.step({"seat_0": index, "seat_1": twinit_v0.START_INDEX})
    assert env.game.snapshot(env.state) == before
    _, _, _, _, infos = env.step({"seat_0": index, "seat_1": index})
    # Tick 0 plays seat_0 first: its hand is on p0, seat_1's touch lost the race.
    assert [(hand.seat, hand.ref) for hand in env.state.hands.values()] == [(0, "p0")]
    assert infos == {"seat_0": {}, "seat_1": {"refused": True}}
    assert env.now_ms == 100


def test_coop_ends_when_the_time_runs_out_and_max_ticks_truncates() -> None:
    env = twinit_v0.parallel_env(players=1, options={"mode": "coop", "duration_s": 10},
                                 dt=500)
    env.reset(seed=1)
    env.step({"seat_0": twinit_v0.START_INDEX})
    ticks = 1
    while env.agents:
        _, _, terminations, truncations, _ = env.step({})
        ticks += 1
    assert terminations == {"seat_0": True} and truncations == {"seat_0": False}
    assert env.now_ms == 10_000 and ticks == 20
    short = twinit_v0.parallel_env(players=2, max_ticks=5)
    short.reset(seed=1)
    for _ in range(5):
        _, _, terminations, truncations, _ = short.step({})
    assert truncations == {"seat_0": True, "seat_1": True} and not any(terminations.values())
    assert short.agents == []


def test_the_observation_encodes_the_view() -> None:
    raw = twinit_v0.raw_env(players=4, options={"mode": "team"})
    raw.reset(seed=3)
    where = twinit_v0.OBSERVATION.slices
    raw.step(touch_index("p2"))  # seat_0 puts a hand on seat_2's top
    agent = raw.agent_selection  # seat_1, on the other team (seats alternate)
    observation = raw.observe(agent)["observation"]
    table = raw.game.view(raw.state, 1).public
    for place, picture in table.visible:
        assert observation[where["picture"]][twinit_v0.PLACE_INDEX[place]] == picture + 1
    p2 = twinit_v0.PLACE_INDEX["p2"]
    assert observation[where["rival_hand"]][p2] == 1
    assert observation[where["ally_hand"]][p2] == observation[where["my_hand"]][p2] == 0
    teammate = raw.observe("seat_2")["observation"]
    assert teammate[where["ally_hand"]][p2] == 1 and teammate[where["rival_hand"]][p2] == 0
    assert observation[where["allies"]].tolist() == [0, 1, 0, 1, 0, 0]
    assert observation[where["me"]].tolist() == [0, 1, 0, 0, 0, 0]
    assert observation[where["mode"]].tolist() == [0, 1, 0, 0]
    assert raw.observation_space(agent).contains(raw.observe(agent))


@pytest.mark.parametrize(("mode", "players", "extra"), MODES[:2] + MODES[4:])
def test_fuzzed_games_never_show_hidden_faces(mode: str, players: int,
                                              extra: dict[str, Any]) -> None:
    """A seat's observation is the same after everything nobody sees is re-dealt, and
    every picture it shows is one that lies face up where everyone can see it."""
    raw = twinit_v0.raw_env(players=players, options=options_for(mode, extra))
    raw.reset(seed=12)
    rng = random.Random(12)
    game, where = raw.game, twinit_v0.OBSERVATION.slices
    for step in range(400):
        if game.is_over(raw.state):
            break
        agent = raw.agent_selection
        observation = raw.observe(agent)["observation"]
        if step % 5 == 0:
            state, seat = raw.state, raw.seat(agent)
            shuffled = game.determinize(state, seat, random.Random(step))
            view = game.view(shuffled, seat)
            table = view.public._replace(now_ms=raw.now_ms)
            again = twinit_v0.encode(table, seat, view.recent_touches, raw.now_ms)
            assert np.array_equal(observation, again)
            visible = {picture for _, picture in game.view(state, seat).public.visible}
            shown = observation[where["picture"]]
            assert {int(p) - 1 for p in shown[shown > 0]} <= visible
        raw.step(random_legal(raw.observe(agent)["action_mask"], rng))


def test_the_documented_sizes_hold() -> None:
    assert (len(twinit_v0.PLACES), twinit_v0.N_ACTIONS, twinit_v0.OBSERVATION.size) == (
        561, 699, 4549)
    assert twinit_v0.__doc__ is not None and "``N_ACTIONS`` = 699" in twinit_v0.__doc__
