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
from twintable.envs import env_module
from twintable.envs.errors import OpponentMoveError
from twintable.envs.gym import TwinTableEnv
from twintable.envs.opponents import turn_move
from twintable.games import default_registry

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
              if game_id in ("timo", "twins")]


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
