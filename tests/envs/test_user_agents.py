"""A researcher's own agent plays wherever a bot does: ``module:Class`` (the tiny bots
below, imported by name as a user's module would be), a NumPy policy file (``.npz``) and
a policy callable, in ``sim``, ``sweep``, the ladder, ``evaluate()`` (batched, in several
processes) and as the Gymnasium wrapper's opponents; levels by name everywhere."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np
from typer.testing import CliRunner

from twintable.bots.registry import bot_factory, resolve_bot, seat_names
from twintable.bots.user import UserBotError, is_user_bot, load_policy
from twintable.core.registry import default_registry
from twintable.envs import env_module, evaluate
from twintable.envs.evaluation import masked_random
from twintable.envs.extension import EnvGame
from twintable.envs.gym import TwinTableEnv
from twintable.sim.ladder import climb, game_ladder
from twintable.sim.runner import run_games

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

BOT = f"{__name__}:FirstMoveBot"
POLICY = f"{__name__}:HighestIndexPolicy"
ONE_HAND = {"max_hands": 1}


class FirstMoveBot:
    """A user's bot: always the first legal move of its view (None in a race)."""

    name = "first-move"

    def act(self, view: Any, rng: random.Random) -> Any:
        return view.legal[0] if view.legal else None


class HighestIndexPolicy:
    """A user's policy on environment observations: the highest legal index."""

    def __call__(self, observation: dict[str, Any]) -> int:
        return int(np.flatnonzero(observation["action_mask"])[-1])


def npz_policy(path: Path, game: str, seed: int = 0) -> Path:
    """A small random network of the right shape for ``game``, saved as a user would."""
    raw = env_module(game).raw_env(players=3)
    inputs = raw.observation_space("seat_0")["observation"].shape[0]
    actions = raw.action_space("seat_0").n
    rng = np.random.default_rng(seed)
    np.savez(path, w1=rng.normal(size=(inputs, 16)).astype(np.float32),
             b1=np.zeros(16, np.float32), w2=rng.normal(size=(16, actions)).astype(np.float32),
             b2=np.zeros(actions, np.float32))
    return path


def test_a_user_bot_class_plays_in_sim_across_processes() -> None:
    results = [result for chunk in run_games("twins", ONE_HAND, [BOT, "medium", "random"], 6,
                                             seed=2, workers=2) for result in chunk]
    assert len(results) == 6
    assert all(BOT in result.bots for result in results)
    again = [result for chunk in run_games("twins", ONE_HAND, [BOT, "medium", "random"], 6,
                                           seed=2, workers=1) for result in chunk]
    assert [r.scores for r in results] == [r.scores for r in again]


def test_the_sim_and_sweep_commands_seat_a_user_bot(tmp_path: Path) -> None:
    from twintable.cli import app

    runner = CliRunner()
    outcome = runner.invoke(app, ["sim", "twins", "--players", "3", "--games", "4",
                                  "--bot", f"{BOT},medium", "--option", "max_hands=1",
                                  "--workers", "1"])
    assert outcome.exit_code == 0, outcome.output
    assert "FirstMoveBot" in outcome.output
    outcome = runner.invoke(app, ["sweep", "twins", "--grid", "max_hands=1,2",
                                  "--players", "3", "--games", "2", "--bots",
                                  f"{BOT},random", "--workers", "1",
                                  "--jsonl", str(tmp_path / "sweep.jsonl")])
    assert outcome.exit_code == 0, outcome.output
    rows = (tmp_path / "sweep.jsonl").read_text().splitlines()
    assert len(rows) == 4 and all(BOT in row for row in rows)


def test_every_game_seats_a_policy_as_a_bot() -> None:
    """``module:Policy`` becomes a bot that sees its view as the environment encodes it:
    it finishes a game of every game with an environment."""
    for entry in default_registry().entries():
        if entry.extension(EnvGame).module is None:
            continue
        # Random seats never finish a race to sets: Twin It plays a timed coop round.
        options = ({"mode": "coop", "duration_s": 10} if entry.id == "twinit"
                   else dict(entry.short_options))
        players = max(entry.rules.player_range(options)[0], 2)
        lineup = [POLICY] + ["random"] * (players - 1)
        results = next(run_games(entry.id, options, lineup, 1, seed=1, workers=1))
        assert POLICY in results[0].bots, entry.id


def test_a_user_bot_climbs_the_ladder() -> None:
    ladder = game_ladder("twins", 3, ONE_HAND, only=["beginner", "Medium"], agents=[BOT])
    assert ladder.bots == ("random", "heuristic", BOT)
    rated = climb(ladder, games=2, seed=1)
    assert {row["bot"] for row in rated["ratings"]} == {"random", "heuristic", BOT}
    with pytest.raises(UserBotError, match="cannot import"):
        game_ladder("twins", 3, ONE_HAND, agents=["no_such_module_here:Bot"])


def test_evaluate_takes_levels_user_bots_and_saved_policies(tmp_path: Path) -> None:
    by_level = evaluate("medium", "Beginner", 3, game="twins", players=3, options=ONE_HAND)
    by_name = evaluate("heuristic", "random", 3, game="twins", players=3, options=ONE_HAND)
    assert by_level == by_name
    assert evaluate(BOT, "medium", 2, game="twins", players=3, options=ONE_HAND).games == 2
    path = npz_policy(tmp_path / "agent.npz", "twins")
    one = evaluate(str(path), "medium", 6, seed=4, game="twins", players=3, options=ONE_HAND)
    batched = evaluate(str(path), "medium", 6, seed=4, game="twins", players=3,
                       options=ONE_HAND, batch=3, workers=2)
    assert one == batched


def test_a_saved_policy_plays_in_sim(tmp_path: Path) -> None:
    path = str(npz_policy(tmp_path / "agent.npz", "twins"))
    results = next(run_games("twins", ONE_HAND, [path, "random", "random"], 3, seed=0))
    assert all(path in result.bots for result in results)
    # A checkpoint as the Gymnasium wrapper's opponents: it plays from its observations.
    env = TwinTableEnv("twins", players=3, opponents=path, options=ONE_HAND)
    _, info = env.reset(seed=0)
    done = False
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert info["winners"]
    assert load_policy(path)({"observation": np.zeros(549, np.float32),
                              "action_mask": np.eye(1774, dtype=np.int8)[7]}) == 7


def test_the_gymnasium_wrapper_takes_levels_and_policy_opponents() -> None:
    env = TwinTableEnv("twins", players=3, opponents=["hard", "Beginner"],
                       options=ONE_HAND)
    assert env.bot_names == {1: "strong", 2: "random"}
    # Self-play: the opponents play the learner's own policy, from their observations.
    policy = masked_random(3)
    env = TwinTableEnv("twins", players=3, opponents=policy, options=ONE_HAND)
    observation, info = env.reset(seed=0)
    done = False
    while not done:
        observation, _, terminated, truncated, info = env.step(policy(observation))
        done = terminated or truncated
    assert {"winner", "winners", "scores"} <= set(info)
    env = TwinTableEnv("twinit", players=2, opponents=HighestIndexPolicy(),
                       options={"sets_to_win": 1}, max_ticks=50)
    env.reset(seed=0)
    assert env.step(0)[0]["action_mask"].any()
    with pytest.raises(ValueError, match="your own agent"):
        TwinTableEnv("twins", players=3, opponents="grandmaster")


def test_bad_user_agents_are_refused_clearly(tmp_path: Path) -> None:
    entry = default_registry().entry("twins")
    assert is_user_bot(BOT) and is_user_bot("agent.npz") and not is_user_bot("hard")
    assert resolve_bot(entry, BOT) == BOT and resolve_bot(entry, "Hard") == "strong"
    assert seat_names(entry, [BOT, "hard"]) == [BOT, "strong"]
    with pytest.raises(UserBotError, match="has no 'Nope'"):
        bot_factory(entry, f"{__name__}:Nope")
    with pytest.raises(UserBotError, match="no policy file"):
        bot_factory(entry, str(tmp_path / "missing.npz"))
    np.savez(tmp_path / "bad.npz", w1=np.zeros((2, 2)))
    with pytest.raises(UserBotError, match="needs b1, w2, b2"):
        bot_factory(entry, str(tmp_path / "bad.npz"))
