"""``twintable train timo --teacher search``: a tiny distillation (never full size in
tests) replays from its seed, labels only legal moves, and plays as the learned bot."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from tests.games.timo.native import require_native
from twintable.cli import app
from twintable.games.timo.research import codec


@pytest.fixture(autouse=True)
def native() -> None:
    require_native()


def distil(path: Path) -> str:
    done = CliRunner().invoke(app, ["train", "timo", "--teacher", "search", "--out", str(path),
                                    "--games", "2", "--rounds", "2", "--teacher-samples", "3",
                                    "--hidden", "8", "--workers", "1", "--seed", "5",
                                    "--eval-games", "0"])
    assert done.exit_code == 0, done.output
    return done.output


def test_a_tiny_distillation_replays_and_plays_as_the_learned_bot(tmp_path: Path) -> None:
    from twintable.games.timo.research.policy import LearnedTimoBot
    from twintable.games.timo.research.training import LearnedPolicy
    from twintable.games.timo.rules import TimoGame

    paths = [tmp_path / "one.npz", tmp_path / "two.npz"]
    outputs = [distil(path) for path in paths]
    assert "round 0:" in outputs[0] and "round 1:" in outputs[0] and "wrote" in outputs[0]
    one, two = (LearnedPolicy.load(path) for path in paths)
    for key, value in one.network.params.items():
        assert np.array_equal(value, two.network.params[key])
    assert one.meta["method"] == "distill" and one.meta["rounds"] == 2
    assert one.meta["decisions"] > 50
    bot, game = LearnedTimoBot(paths[0]), TimoGame()
    state = game.new_state({"target": 50}, 2, 3)
    for _ in range(40):
        seat = state.turn
        action = bot.act(game.view(state, seat), random.Random(0))
        assert action is not None
        game.apply(state, action)
        if state.over:
            break


def test_every_label_is_a_move_the_rules_allowed(tmp_path: Path) -> None:
    from twintable.games.timo.research.distill import record

    observations, masks, actions, _ = record(2, seed=9, target=100, teacher_samples=3,
                                             student=None, workers=1)
    assert len(observations) == len(masks) == len(actions) > 20
    assert observations.shape[1] == codec.observation_size(2)
    assert masks[np.arange(len(actions)), actions].all()
    # Only decisions with a choice are labelled.
    assert (masks.sum(axis=1) >= 2).all()


class Logged:
    """A bot that logs every move it makes (its seat's and the kind)."""

    def __init__(self, inner: Any, log: list[tuple[int, str, Any]]):
        self.inner, self.log, self.name = inner, log, inner.name

    def act(self, view: Any, rng: random.Random) -> Any:
        action = self.inner.act(view, rng)
        if action is not None:
            self.log.append((action.seat, action.kind, dict(action.payload)))
        return action


def test_a_distillation_game_is_the_table_engines() -> None:
    # play() is the table engine's game: stepped one step at a time on a twin table with
    # the same bots and seed, the engine makes the same moves to the same end.
    from twintable.bots.base import RandomBot
    from twintable.core.table_engine import TableEngine, TakeTurns
    from twintable.games.timo.bots import HeuristicTimoBot
    from twintable.games.timo.research.distill import play
    from twintable.games.timo.rules import TimoGame

    game = TimoGame()
    played: list[tuple[int, str, Any]] = []
    stepped: list[tuple[int, str, Any]] = []
    outcome = play(game, [Logged(HeuristicTimoBot(), played), Logged(RandomBot(), played),
                          Logged(HeuristicTimoBot(), played)], {"target": 200}, 11)
    twin = game.new_state({"target": 200}, 3, 11)
    engine = TableEngine(game, twin, TakeTurns(game, [
        Logged(HeuristicTimoBot(), stepped), Logged(RandomBot(), stepped),
        Logged(HeuristicTimoBot(), stepped)], random.Random(11)))
    while not engine.over:
        assert engine.step()
    assert played == stepped and len(played) > 30
    assert game.outcome(twin) == outcome
