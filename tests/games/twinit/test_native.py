"""Twin It's C engine (games/twinit/_native.c) against the reference rules: the AEC
environment on each, fed the same seed and the same moves, gives the same observations,
masks, rewards, ends, infos, clocks and states, step for step; refused moves are refused
alike, with the same error; options the engine does not play stay on the rules."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.native_pair import paired, refuse_alike, refuses_native_unbuilt, same_step
from tests.games.native_pair import require_native as require_native_engine
from twintable.games.twinit import env as twinit_v0

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

PICTURE = twinit_v0.OBSERVATION.slices["picture"]
MY_HAND = twinit_v0.OBSERVATION.slices["my_hand"]
ALLY_HAND = twinit_v0.OBSERVATION.slices["ally_hand"]
TEAM_PLAY = twinit_v0.OBSERVATION.slices["mode"].start + 1
TOUCH_BASE = twinit_v0.TOUCH_BASE
PLACES = len(twinit_v0.PLACES)


def require_native() -> None:
    require_native_engine(twinit_v0, "Twin It")


#: Options that reach every rule quickly: a target of one or two sets (wins), short holds
#: and triple timeouts (hands lifting, triples turning over), a high target (the stalled
#: end, once every pile is flipped and no pair is left), team play (seats alternate, or
#: the teams given; a larger team plays under the taboo rule), taboo cards, the ko
#: edition (own top banned; a shared finish within the window, then sudden death), and
#: the modes against the clock (rounds started, shuffled and ended; cards turned over).
OPTIONS: list[dict[str, Any]] = [
    {}, {"sets_to_win": 1}, {"sets_to_win": 2, "hold_ms": 200, "triple_timeout_ms": 500},
    {"sets_to_win": 20, "hold_ms": 300, "triple_timeout_ms": 600},
    {"mode": "team"}, {"mode": "team", "sets_to_win": 2, "hold_ms": 300},
    {"mode": "team", "teams": [1, 1, 2, 2, 2]}, {"taboo": [0, 1], "sets_to_win": 2},
    {"edition": "ko", "sets_to_win": 1, "finish_window_ms": 5000},
    {"edition": "ko", "sets_to_win": 2, "taboo": [1]},
    {"edition": "ko", "mode": "team", "sets_to_win": 1, "finish_window_ms": 2000},
    {"edition": "ko", "sets_to_win": 1, "finish_window_ms": 0},
    {"mode": "coop", "duration_s": 10}, {"mode": "coop", "duration_s": 10, "hold_ms": 200},
    {"mode": "timeattack", "duration_s": 10, "rounds": 2},
    {"mode": "timeattack", "edition": "ko", "duration_s": 10, "rounds": 3},
]


def fitted(options: dict[str, Any], players: int) -> tuple[dict[str, Any], int]:
    """The options and a player count they take (team play: 4-6 players)."""
    if "teams" in options:
        return options, len(options["teams"])
    if options.get("mode") == "team":
        return options, max(players, 4)
    return options, players


def choose(observation: np.ndarray, mask: np.ndarray, rng: random.Random,
           careful: bool = False, grabs: float = 0.15) -> int:
    """A player that mostly hunts pairs (takes, steals, ties, chains; in team play the
    twin of a teammate's card), grabs at random this often (errors) and sometimes waits
    (hands lift); a careful one waits where it would grab, so the piles run out and every
    pair is taken (the stalled end)."""
    legal = np.flatnonzero(mask)
    roll = rng.random()
    if mask[twinit_v0.START_INDEX] and roll < 0.5:
        return twinit_v0.START_INDEX
    if roll < grabs:
        return int(legal[rng.randrange(len(legal))])
    if roll < grabs + 0.1 or len(legal) == 1:
        return twinit_v0.WAIT
    pictures = observation[PICTURE]
    touchable = [int(index) - TOUCH_BASE for index in legal
                 if TOUCH_BASE <= index < TOUCH_BASE + PLACES]
    team = observation[TEAM_PLAY] == 1
    mine = np.flatnonzero(observation[ALLY_HAND if team else MY_HAND])
    if team and observation[MY_HAND].any():
        return twinit_v0.WAIT
    if len(mine):
        wanted = pictures[mine[0]]
        twins = [place for place in touchable if pictures[place] == wanted]
        if twins:
            return TOUCH_BASE + rng.choice(twins)
        if careful:
            return twinit_v0.WAIT
    by_picture: dict[float, list[int]] = {}
    for place in touchable:
        by_picture.setdefault(float(pictures[place]), []).append(place)
    pairs = [places for places in by_picture.values() if len(places) > 1]
    if pairs and (careful or rng.random() < 0.8):
        return TOUCH_BASE + rng.choice(rng.choice(pairs))
    if mask[twinit_v0.FLIP_INDEX]:
        return twinit_v0.FLIP_INDEX
    return twinit_v0.WAIT if careful else int(legal[rng.randrange(len(legal))])


def same_state(native: Any, reference: Any) -> None:
    mine, theirs = native.state, reference.state
    assert native.game.snapshot(mine) == reference.game.snapshot(theirs)
    assert native.game.stats(mine) == reference.game.stats(theirs)
    assert mine.pair_since == theirs.pair_since and mine.started_ms == theirs.started_ms
    assert native.game.deadline(mine) == reference.game.deadline(theirs)
    assert native.now_ms == reference.now_ms


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), moves=st.integers(0, 2**32 - 1),
       players=st.sampled_from([2, 3, 4, 5, 6]), options=st.sampled_from(OPTIONS),
       dt=st.sampled_from([100, 250, 1000]), reward=st.sampled_from(["score", "win"]))
def test_the_engine_plays_every_game_as_the_rules_do(seed: int, moves: int, players: int,
                                                      options: dict[str, Any], dt: int,
                                                      reward: str) -> None:
    require_native()
    options, players = fitted(options, players)
    native, reference = paired(partial(twinit_v0.raw_env, players=players, options=options,
                                       dt=dt, reward=reward, max_ticks=300), seed)
    envs = [native, reference]
    assert native.native and not reference.native
    rng = random.Random(moves)
    steps = 0
    while native.agents:
        same_step(native, reference, [native.agent_selection, native.possible_agents[-1]])
        if steps % 7 == 0:
            same_state(native, reference)
        agent = native.agent_selection
        if native.terminations[agent] or native.truncations[agent]:
            action = None
        else:
            observation = native.observe(agent)
            mask = observation["action_mask"]
            if rng.random() < 0.03:
                illegal = rng.choice([None, -1, twinit_v0.N_ACTIONS, 2**70,
                                      rng.randrange(twinit_v0.N_ACTIONS)])
                if illegal is None or not 0 <= illegal < len(mask) or not mask[illegal]:
                    refuse_alike(envs, illegal, agent)
            action = choose(observation["observation"], mask, rng)
            steps += 1
        for env in envs:
            env.step(action)
    same_state(native, reference)


#: (seed, players, options, careful, grabs) of longer games: wild ones, a careful one
#: that plays every pile out and takes every pair, and one that then errs now and then.
LONG_GAMES: list[tuple[int, int, dict[str, Any], bool, float]] = [
    (0, 4, {}, False, 0.15), (1, 6, {}, False, 0.15),
    (2, 6, {"sets_to_win": 20}, True, 0.0), (5, 4, {"sets_to_win": 20}, True, 0.03),
    (3, 4, {"mode": "team"}, False, 0.15), (4, 6, {"mode": "team", "sets_to_win": 20}, True, 0.0),
    (6, 5, {"mode": "team", "edition": "ko"}, False, 0.15),
    (7, 3, {"edition": "ko", "taboo": [2], "sets_to_win": 20}, True, 0.0),
    (9, 6, {"edition": "ko", "sets_to_win": 1, "finish_window_ms": 5000}, False, 0.15),
    (10, 3, {"mode": "coop", "duration_s": 20}, False, 0.15),
    (11, 4, {"mode": "timeattack", "duration_s": 20, "rounds": 2}, False, 0.15),
]


def test_every_ending_and_rule_is_reached_alike() -> None:
    """Games long enough for wins, the stalled end, steals, ties, errors, an error that
    gives an emptied seat a pile and the turn back, ko's sudden death, and whole games
    against the clock, the same on both (the property test's games are short)."""
    require_native()
    seen: dict[str, float] = {}
    reasons, turns_given_back, sudden_deaths, rounds_played = set(), 0, 0, 0
    for seed, players, options, careful, grabs in LONG_GAMES:
        native, reference = paired(
            partial(twinit_v0.raw_env, players=players, options=options), seed)
        envs = [native, reference]
        rng = random.Random(seed)
        for agent in native.agent_iter():
            observation = native.observe(agent)
            done = native.terminations[agent] or native.truncations[agent]
            action = None if done else choose(observation["observation"],
                                              observation["action_mask"], rng, careful, grabs)
            nobody_flips, errors = reference.state.turn < 0, sum(reference.state.errors)
            for env in envs:
                env.step(action)
            turns_given_back += (nobody_flips and reference.state.turn >= 0
                                 and sum(reference.state.errors) > errors)
        same_state(native, reference)
        assert native.infos == reference.infos
        stats = native.game.stats(native.state)
        for name in ("steals", "ties", "errors", "takes"):
            seen[name] = seen.get(name, 0) + stats.get(name, 0)
        state = native.state
        assert native.game.is_over(state)
        if options.get("mode") in ("coop", "timeattack"):
            rounds_played += state.round_no
            continue
        target = options.get("sets_to_win", 5)
        reasons.add("target" if any(len(state.sets[state.side_of[seat]]) >= target
                                    for seat in state.winners) else "stalled")
        sudden_deaths += state.contenders is not None
    assert all(seen[name] > 0 for name in ("steals", "ties", "errors", "takes")), seen
    assert reasons == {"stalled", "target"} and turns_given_back > 0 and sudden_deaths > 0
    assert rounds_played == 1 + 2  # the coop round, both time-attack rounds


def test_the_engine_is_the_default_and_its_reads_are_copies() -> None:
    require_native()
    env = twinit_v0.env(players=4)
    raw = env.unwrapped
    # Before the first reset both hold the rules' first deal.
    rules = twinit_v0.raw_env(players=4, native=False)
    assert raw.game.snapshot(raw.state) == rules.game.snapshot(rules.state)
    env.reset(seed=4)
    assert raw.native
    state = raw.state
    state.piles[0].clear()  # a copy: the engine does not see it
    assert raw.state.piles[0] and raw.state is not raw.state
    env.step(twinit_v0.FLIP_INDEX)
    assert raw.state.version == 1 and raw.table.state.version == 1
    assert raw.state.centre and "seat_1" in raw.describe()
    index = twinit_v0.TOUCH_BASE + twinit_v0.PLACE_INDEX["c0"]
    action = raw.action_of(index)
    assert action is not None and action.payload["card"] == "c0"
    assert raw.game.view(raw.state, 1).legal == tuple(raw.game.legal_actions(raw.state, 1))


def test_native_is_refused_when_the_engine_was_not_built(
        monkeypatch: pytest.MonkeyPatch) -> None:
    refuses_native_unbuilt(monkeypatch, twinit_v0)
