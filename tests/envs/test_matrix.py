"""No traps: every game, with every bot level on the other seats and in every mode, runs
through the Gymnasium wrapper and the PettingZoo environments without an error.

Episodes are short (a low Timo target, one Twins hand, a few hundred Twin It and Twinz
ticks) so that the whole matrix stays quick; the point is that no combination crashes,
and that a bot is never made to play a move its seat is not asked for (the random bot
once answered a TIMO! race with a card in ``twintable/Timo-v0``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np

from twintable.bots.base import Bot
from twintable.bots.registry import bot_factories
from twintable.core.registry import default_registry
from twintable.envs import env_module
from twintable.envs.errors import OpponentMoveError
from twintable.envs.gym import TwinTableEnv
from twintable.envs.opponents import turn_move

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

#: (game, mode name, environment keyword arguments): every mode each game has.
MODES: list[tuple[str, str, dict[str, Any]]] = [
    ("timo", "timo54", {"players": 2, "options": {"target": 40}}),
    ("timo", "classic108-no-stacking", {"players": 3, "options": {
        "deck": "classic108", "stacking": False, "draw_when_able": True, "target": 40}}),
    ("twins", "one-hand", {"players": 3, "options": {"max_hands": 1}}),
    ("twins", "six-seats", {"players": 6, "options": {"max_hands": 1}}),
    ("twinit", "competitive", {"players": 2, "options": {"mode": "competitive",
                                                         "sets_to_win": 1}}),
    ("twinit", "team", {"players": 4, "options": {"mode": "team", "sets_to_win": 1}}),
    ("twinit", "coop", {"players": 2, "options": {"mode": "coop", "duration_s": 10}}),
    ("twinit", "timeattack-ko", {"players": 3, "options": {
        "mode": "timeattack", "edition": "ko", "duration_s": 10, "rounds": 1}}),
    ("twinz", "yellow", {"players": 4, "options": {"deck": "yellow"}}),
    ("twinz", "blue", {"players": 5, "options": {"deck": "blue"}}),
]
if "tricks" in default_registry().ids():  # the example plug-in, where it is installed
    MODES.append(("tricks", "to-target", {"players": 3, "options": {"target": 6}}))
#: Ticks a real-time episode may last here (Twin It, Twinz): enough for bots to act.
MAX_TICKS = 300
MAX_STEPS = 3000


def levels(game_id: str) -> list[str]:
    return sorted(bot_factories(default_registry().entry(game_id)))


def short(game_id: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    realtime = bool(getattr(default_registry().get(game_id), "realtime", False))
    return {**kwargs, "max_ticks": MAX_TICKS} if realtime else dict(kwargs)


MATRIX = [(game_id, mode, kwargs, level) for game_id, mode, kwargs in MODES
          for level in levels(game_id)]


@pytest.mark.parametrize(("game_id", "mode", "kwargs", "level"), MATRIX,
                         ids=[f"{g}-{m}-{lv}" for g, m, _, lv in MATRIX])
def test_gymnasium_every_game_mode_and_opponent_level(game_id: str, mode: str,
                                                      kwargs: dict[str, Any],
                                                      level: str) -> None:
    env = TwinTableEnv(game_id, opponents=level, seat=1,
                       **short(game_id, kwargs))
    rng = random.Random(7)
    observation, info = env.reset(seed=11)
    steps, done = 0, False
    while not done and steps < MAX_STEPS:
        assert env.observation_space.contains(observation)
        action = int(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
        observation, reward, terminated, truncated, info = env.step(action)
        assert np.isfinite(reward)
        done, steps = terminated or truncated, steps + 1
    assert done, f"{game_id} {mode} against {level} did not end in {MAX_STEPS} steps"
    env.close()


def play_aec(game_id: str, kwargs: dict[str, Any], bots: dict[str, Bot] | None) -> int:
    """One seeded AEC episode: masked random moves, or the given bots on every seat
    (through the same choice the Gymnasium wrapper makes); the number of steps."""
    env = env_module(game_id).env(**short(game_id, kwargs))
    env.reset(seed=3)
    raw, rng, steps = env.unwrapped, random.Random(5), 0
    for agent in env.agent_iter(MAX_STEPS):
        observation, _, terminated, truncated, _ = env.last()
        mask = observation["action_mask"]
        if terminated or truncated:
            action = None
        elif bots is None:
            action = int(rng.choice(np.flatnonzero(mask).tolist()))
        else:
            move = turn_move(raw, agent, bots[agent], mask, rng)
            action = raw.index_of(move)
        env.step(action)
        steps += 1
    assert not env.agents, f"{game_id} did not end in {MAX_STEPS} steps"
    return steps


@pytest.mark.parametrize(("game_id", "mode", "kwargs"), MODES,
                         ids=[f"{g}-{m}" for g, m, _ in MODES])
def test_pettingzoo_aec_and_parallel_every_game_and_mode(game_id: str, mode: str,
                                                          kwargs: dict[str, Any]) -> None:
    assert play_aec(game_id, kwargs, None) > 0
    module = env_module(game_id)
    if not hasattr(module, "parallel_env"):
        return
    env = module.parallel_env(**short(game_id, kwargs))
    observations, _ = env.reset(seed=3)
    rng, steps = np.random.default_rng(5), 0
    while env.agents and steps < MAX_STEPS:
        actions = {agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
                   for agent, obs in observations.items()}
        observations, *_ = env.step(actions)
        steps += 1
    assert not env.agents, f"{game_id} {mode} did not end in {MAX_STEPS} parallel steps"


TURN_BASED = [(game_id, mode, kwargs, level) for game_id, mode, kwargs, level in MATRIX
              if game_id in ("timo", "twins", "tricks")]


@pytest.mark.parametrize(("game_id", "mode", "kwargs", "level"), TURN_BASED,
                         ids=[f"{g}-{m}-{lv}" for g, m, _, lv in TURN_BASED])
def test_pettingzoo_every_seat_played_by_one_bot_level(game_id: str, mode: str,
                                                       kwargs: dict[str, Any],
                                                       level: str) -> None:
    factory = bot_factories(default_registry().entry(game_id))[level]
    players = kwargs["players"]
    assert play_aec(game_id, kwargs, {f"seat_{s}": factory() for s in range(players)}) > 0


class RaceBlindBot:
    """Always plays the first legal move of its view, whatever it is asked."""

    name = "race-blind"

    def act(self, view: Any, rng: random.Random) -> Any:
        return view.legal[0]


def test_a_bot_move_the_environment_does_not_ask_for_is_the_bots_fault() -> None:
    """In a TIMO! race the seat on turn is asked only to catch or wait; a bot that plays
    a card then is named, with its seat, and the learner is not blamed."""
    env = env_module("timo").env(players=2)
    raw, rng = env.unwrapped, random.Random(2)
    for seed in range(200):
        env.reset(seed=seed)
        for agent in env.agent_iter(1000):
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            elif raw.reacting and raw.seat(agent) == raw.state.turn:
                break
            else:
                env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        else:
            continue
        break
    else:
        pytest.fail("no race reached the seat on turn in 200 games")
    mask = env.last()[0]["action_mask"]
    rules_legal = raw.game.view(raw.state, raw.seat(agent)).legal
    assert any(not mask[raw.index_of(action)] for action in rules_legal)
    # The bot is offered the asked moves only, so even a race-blind bot answers the race...
    move = turn_move(raw, agent, RaceBlindBot(), mask, random.Random(0))
    assert move is None or mask[raw.index_of(move)]

    class CardPlayer:
        name = "card-player"

        def act(self, view: Any, rng: random.Random) -> Any:
            return next(a for a in rules_legal if not mask[raw.index_of(a)])

    # ...and one that reaches past its view for a card is named as the one at fault.
    with pytest.raises(OpponentMoveError, match=f"card-player bot playing {agent}"):
        turn_move(raw, agent, CardPlayer(), mask, random.Random(0))


def test_the_gymnasium_wrapper_blames_the_bot_not_the_learner() -> None:
    env = TwinTableEnv("timo", players=2, opponents="random")

    class RulesReader:
        """Reads the rules' moves behind its view's back and plays a card when it can."""

        name = "rules-reader"

        def act(self, view: Any, rng: random.Random) -> Any:
            legal = env.game.view(env.raw.state, view.viewer).legal
            plays = [action for action in legal if action.kind == "play"]
            return plays[0] if plays else rng.choice(legal) if legal else None

    rng = random.Random(4)
    for seed in range(100):
        _, info = env.reset(seed=seed)
        env._bots[1] = RulesReader()
        try:
            done = False
            while not done:
                action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
                _, _, terminated, truncated, info = env.step(action)
                done = terminated or truncated
        except OpponentMoveError as error:
            assert "rules-reader bot playing seat_1" in str(error)
            assert "not the learner" in str(error)
            return
    pytest.fail("the bot was never asked to react to a race in 100 games")


# -- the end of every episode: a cap by default, and who won in the last info ------------

def module_of(game_id: str) -> Any:
    return env_module(game_id)


def random_aec_episode(game_id: str, kwargs: dict[str, Any], seed: int = 3
                       ) -> tuple[Any, dict[str, dict[str, Any]], bool]:
    """A masked-random AEC episode with the environment's default cap: the raw env, the
    last info of each agent and whether the game itself ended (not truncated)."""
    env = env_module(game_id).env(**kwargs)
    env.reset(seed=seed)
    rng, last, ended = random.Random(seed), {}, False
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            last[agent], ended = info, bool(terminated)
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]).tolist())))
    return env.unwrapped, last, ended


def check_last_infos(raw: Any, infos: dict[str, dict[str, Any]], ended: bool) -> None:
    assert set(infos) == set(raw.possible_agents)
    outcome = raw.game.outcome(raw.state)
    for agent, info in infos.items():
        seat = raw.seat(agent)
        assert {"winner", "winners", "score", "scores"} <= set(info)
        assert len(info["scores"]) == len(raw.possible_agents)
        assert info["score"] == info["scores"][seat]
        assert info["winner"] == (seat in info["winners"])
        if ended:
            assert info["winners"] == sorted(outcome.winners)
            assert info["scores"] == list(outcome.scores)
        else:
            assert outcome is None and info["winners"] == []


@pytest.mark.parametrize(("game_id", "mode", "kwargs"), MODES,
                         ids=[f"{g}-{m}" for g, m, _ in MODES])
def test_every_env_has_a_default_cap_and_reports_who_won_at_the_end(
        game_id: str, mode: str, kwargs: dict[str, Any]) -> None:
    """No cap given: each game derives one (docs/envs.md), and the last info of every
    agent, in both forms, holds the winners and the scores (the outcome's when the game
    ended)."""
    raw = module_of(game_id).raw_env(**kwargs)
    cap = getattr(raw, "max_ticks", None) if raw.game.realtime else raw.max_steps
    assert isinstance(cap, int) and cap > 0, f"{game_id} {mode} has no default cap"
    short_kwargs = short(game_id, kwargs)
    raw, infos, ended = random_aec_episode(game_id, short_kwargs)
    check_last_infos(raw, infos, ended)
    if not hasattr(module_of(game_id), "parallel_env"):
        return
    env = module_of(game_id).parallel_env(**short_kwargs)
    observations, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    while env.agents:
        actions = {agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
                   for agent, obs in observations.items()}
        observations, _, terminations, _, infos = env.step(actions)
    parallel_raw = type("Parallel", (), {
        "possible_agents": env.possible_agents, "game": env.game, "state": env.state,
        "seat": env.seat})()
    check_last_infos(parallel_raw, infos, all(terminations.values()))


@pytest.mark.parametrize("game_id", ["timo", "twins", "tricks"])
def test_a_small_step_cap_truncates_turn_based_games_with_the_scores_so_far(
        game_id: str) -> None:
    if game_id not in {entry.id for entry in default_registry().entries()}:
        pytest.skip(f"{game_id} is not installed")
    raw, infos, ended = random_aec_episode(game_id, {"players": 3, "max_steps": 7})
    assert not ended and raw.steps == 7
    check_last_infos(raw, infos, ended)
    with pytest.raises(ValueError, match="max_steps"):
        module_of(game_id).raw_env(players=3, max_steps=0)


class NeverActs:
    """A learner that only ever waits: it never flips, never starts, never draws."""

    def __call__(self, info: dict[str, Any]) -> int:
        assert info["action_mask"][0]
        return 0


@pytest.mark.parametrize(("game_id", "options"), [
    ("twinit", {"mode": "competitive"}), ("twinit", {"mode": "timeattack"}),
    ("twinz", {"deck": "yellow"})])
def test_a_learner_that_never_acts_cannot_stall_a_real_time_game(
        game_id: str, options: dict[str, Any]) -> None:
    """Twin It against random once never ended: now the default cap truncates it. A
    coarse ``dt`` keeps the virtual hour short here; the cap is the default one."""
    players = 4 if game_id == "twinz" else 2
    env = TwinTableEnv(game_id, players=players, seat=0, opponents="random",
                       options=options, dt=2000)
    _, info = env.reset(seed=1)
    learner, steps, done = NeverActs(), 0, False
    while not done:
        _, _, terminated, truncated, info = env.step(learner(info))
        done, steps = terminated or truncated, steps + 1
    assert steps <= env.raw.max_ticks
    assert {"winner", "winners", "scores"} <= set(info)


def test_twins_observations_stay_in_bounds_whatever_the_starting_chips() -> None:
    """With ``starting_chips`` 30 PettingZoo's api_test failed (chips over 1), and with
    24 nearly every game left the declared range: the scale follows the options."""
    from pettingzoo.test import api_test

    twins = module_of("twins")
    api_test(twins.env(players=4, options={"starting_chips": 30}), num_cycles=100)
    for options, players in (({"starting_chips": 24}, 3),
                             ({"starting_chips": 60, "max_hands": 4}, 4),
                             ({"deal": 16, "max_hands": 4}, 3)):
        env = twins.parallel_env(players=players, options=options)
        space = env.observation_space("seat_0")["observation"]
        for game in range(8):
            observations, _ = env.reset(seed=game)
            rng = np.random.default_rng(game)
            while env.agents:
                for observation in observations.values():
                    assert space.contains(observation["observation"]), (options, game)
                observations, *_ = env.step({
                    agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
                    for agent, obs in observations.items()})
