"""The Gymnasium single-agent environments: Gymnasium's own checker on every game, bots on
the other seats, refused and penalised illegal actions."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

from twintable.envs import ENV_MODULES, IllegalActionError
from twintable.envs.gym import GYM_IDS, TwinTableEnv

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

#: Small, quick tables per game for the checker.
QUICK: dict[str, dict[str, Any]] = {
    "timo": {"players": 2},
    "twins": {"players": 3},
    "twinit": {"players": 2, "options": {"mode": "timeattack", "duration_s": 10}},
    "twinz": {"players": 4, "opponents": "random"},  # the word bots take seconds to load
}


def require_env(game: str) -> None:
    if importlib.util.find_spec(ENV_MODULES[game]) is None:
        pytest.skip(f"{ENV_MODULES[game]} does not exist yet")


def random_legal(info: dict[str, Any], rng: random.Random) -> int:
    return int(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))


@pytest.mark.parametrize("gym_id", sorted(GYM_IDS))
def test_gymnasium_check_env(gym_id: str) -> None:
    game = GYM_IDS[gym_id]
    require_env(game)
    # check_env samples actions without the mask: the penalty mode ends such an episode.
    env = gymnasium.make(gym_id, illegal_action="penalty", **QUICK[game])
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("gym_id", sorted(GYM_IDS))
def test_a_learner_plays_whole_episodes_against_the_bots(gym_id: str) -> None:
    game = GYM_IDS[gym_id]
    require_env(game)
    env = gymnasium.make(gym_id, seat=1, **QUICK[game])
    rng = random.Random(1)
    observation, info = env.reset(seed=2)
    steps, terminated, truncated = 0, False, False
    while not (terminated or truncated) and steps < 5000:
        assert env.observation_space.contains(observation)
        assert np.array_equal(observation["action_mask"], info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(random_legal(info, rng))
        assert isinstance(reward, float)
        steps += 1
    assert terminated or truncated
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_the_module_prefix_registers_the_ids_from_a_fresh_interpreter() -> None:
    code = ("import sys, twintable.envs; heavy = {'ray', 'pyspiel', 'pettingzoo'} & "
            "set(sys.modules); import gymnasium; env = gymnasium.make("
            "'twintable.envs.gym:twintable/Twins-v0', players=4); "
            "print(type(env.unwrapped).__name__, env.unwrapped.game.id, sorted(heavy))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    # Importing the package alone loads no environment, and never ray or OpenSpiel.
    assert done.stdout.split() == ["TwinTableEnv", "twins", "[]"]


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = TwinTableEnv("twins", players=4, seat=2, opponents="heuristic")
    _observation, info = env.reset(seed=5)
    snapshot = env.game.snapshot(env.raw.state)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.game.snapshot(env.raw.state) == snapshot
    legal = random_legal(info, random.Random(0))
    env.step(legal)  # still playable after a refusal
    assert env.game.snapshot(env.raw.state) != snapshot


def test_the_penalty_mode_ends_the_episode_without_playing_the_action() -> None:
    env = TwinTableEnv("twins", players=3, illegal_action="penalty", illegal_reward=-5.0)
    _, info = env.reset(seed=1)
    snapshot = env.game.snapshot(env.raw.state)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, True)
    assert env.game.snapshot(env.raw.state) == snapshot


def test_same_seed_same_episode_bots_included() -> None:
    def episode() -> list[tuple[int, float]]:
        env = TwinTableEnv("twins", players=4, opponents=["heuristic", "random", "heuristic"])
        rng = random.Random(3)
        _, info = env.reset(seed=9)
        trace = []
        for _ in range(6):
            action = random_legal(info, rng)
            _, reward, terminated, truncated, info = env.step(action)
            trace.append((action, float(reward)))
            if terminated or truncated:
                break
        trace.append((env.raw.state.version, sum(env.raw.state.chips)))
        return trace

    assert episode() == episode()


def test_twin_it_bots_act_on_the_virtual_clock() -> None:
    """An expert bot teammate scores in cooperative time attack while the learner only
    waits: its touches land on the ticks after its reaction times."""
    env = TwinTableEnv("twinit", players=2, options={"mode": "coop", "duration_s": 60},
                       opponents="expert", dt=100)
    _, info = env.reset(seed=4)
    total, steps, terminated = 0.0, 0, False
    while not terminated:
        action = 2 if info["action_mask"][2] else 0  # start, then wait
        _, reward, terminated, _, info = env.step(action)
        total += float(reward)
        steps += 1
    assert steps == 600 and total > 0  # one a tick: 60 s of 100 ms ticks
    assert total == env.game.outcome(env.raw.state).scores[0]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        TwinTableEnv("twins", players=3, opponents="grandmaster")
    with pytest.raises(ValueError, match="no bot at level expert"):
        TwinTableEnv("twins", players=3, opponents="expert")
    with pytest.raises(ValueError, match="one bot per other seat"):
        TwinTableEnv("twins", players=3, opponents=["heuristic"])
    with pytest.raises(ValueError, match="seat"):
        TwinTableEnv("twins", players=3, seat=3)
    with pytest.raises(ValueError, match="no environment"):
        TwinTableEnv("chess")
    with pytest.raises(ValueError, match="illegal_action"):
        TwinTableEnv("twins", illegal_action="ignore")


DOCS = Path(__file__).resolve().parents[2] / "docs" / "envs.md"


def test_the_examples_in_docs_envs_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 5
    for block in blocks:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, str(DOCS), "exec"), {})


def test_the_encoding_tables_in_docs_envs_are_the_code() -> None:
    from twintable.envs import twinit_v0, twins_v0

    text = DOCS.read_text(encoding="utf-8")
    for module in (twins_v0, twinit_v0):
        for row in module.OBSERVATION.table().splitlines()[2:]:
            start, field = row.split(" | ")[:2]
            assert f"{start} | {field} |" in text, row


def test_a_bare_id_needs_the_module_imported_as_the_docs_say() -> None:
    """Gymnasium 1.x reads no entry points, so installing cannot register the ids; the
    docs say what to import instead. If Gymnasium brings plugins back, this fails and
    the docs (envs.md, "Gymnasium") should change with it."""
    code = ("import gymnasium\n"
            "try:\n    gymnasium.make('twintable/Timo-v0')\n"
            "except gymnasium.error.NamespaceNotFound as error:\n    print('refused:', error)\n"
            "import twintable.envs.gym\n"
            "print(type(gymnasium.make('twintable/Timo-v0').unwrapped).__name__)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    refused, made = done.stdout.splitlines()
    assert refused.startswith("refused: Namespace twintable not found")
    assert made == "TwinTableEnv"
    docs = (Path(__file__).resolve().parents[2] / "docs" / "envs.md").read_text()
    assert "Namespace twintable not found" in docs and "import twintable.envs.gym" in docs


class Watched:
    """A timed bot whose every plan is written down with the tick it was asked at."""

    def __init__(self, inner: Any, env: TwinTableEnv, log: list[tuple[int, Any]]):
        self.inner, self.env, self.log, self.name = inner, env, log, inner.name

    def act(self, view: Any, rng: random.Random) -> Any:
        return self.inner.act(view, rng)

    def plan(self, view: Any, rng: random.Random) -> Any:
        planned = self.inner.plan(view, rng)
        self.log.append((self.env.raw.now_ms, planned))
        return planned


def test_a_timed_bot_moves_when_the_table_engines_step_falls_due() -> None:
    # At each tick the bot's move is the table engine's: its plan, taken against the
    # game's timer (next_step), played if it is the next step and due by the tick; else
    # the bot waits.
    from twintable.core.schedule import EventKind, Plan
    from twintable.core.table_engine import next_step

    env = TwinTableEnv("twinit", players=2, options={"mode": "coop", "duration_s": 60},
                       opponents="expert", dt=100)
    _, info = env.reset(seed=4)
    plans: list[tuple[int, Any]] = []
    env._bots[1] = Watched(env._bots[1], env, plans)
    played: list[tuple[int, Any]] = []
    aec_step = env.aec.step

    def step(action: Any) -> None:
        if env.aec.agent_selection == env.raw.possible_agents[1]:
            expected = None
            now, planned = plans[-1]
            if planned is not None:
                engine = next_step(env.game, env.raw.state, now,
                                   [Plan(planned[0], 1, planned[1])])
                assert engine is not None
                if engine.kind is EventKind.BOT and engine.at_ms <= now:
                    expected = env.raw.index_of(planned[1])
            played.append((action, expected))
        aec_step(action)

    env.aec.step = step
    terminated = False
    while not terminated:
        action = 2 if info["action_mask"][2] else 0  # start, then wait
        _, _, terminated, _, info = env.step(action)
    moved = [(action, expected) for action, expected in played if expected is not None]
    assert moved and all(action == expected for action, expected in moved)
    assert all(action == env.wait_index for action, expected in played if expected is None)
