"""``twintable train timo``: a tiny run (training never runs at full size in tests)
writes weights that replay from the seed and play as a policy and as an opponent."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from typer.testing import CliRunner

from tests.games.timo.native import require_native
from twintable.cli import app


@pytest.fixture(autouse=True)
def native() -> None:
    require_native()


def test_a_tiny_run_writes_weights_that_replay_and_play(tmp_path: Path) -> None:
    from twintable.envs import evaluate
    from twintable.games.timo.research.selfplay import TimoSelfPlayVectorEnv
    from twintable.games.timo.research.training import LearnedPolicy

    paths = [tmp_path / "one.npz", tmp_path / "two.npz"]
    for path in paths:
        done = CliRunner().invoke(app, ["train", "timo", "--out", str(path), "--steps", "2000",
                                        "--envs", "8", "--hidden", "8", "--seed", "3",
                                        "--eval-games", "0"])
        assert done.exit_code == 0, done.output
        assert "wrote" in done.output
    one, two = (LearnedPolicy.load(path) for path in paths)
    for key, value in one.network.params.items():
        assert np.array_equal(value, two.network.params[key])
    assert one.meta["seed"] == 3 and one.meta["steps"] >= 2000
    result = evaluate(one, "random", 2, seed=0, game="timo", options={"target": 30})
    assert result.games == 2
    vector = TimoSelfPlayVectorEnv(3, 2, {"target": 30}, opponents=one)
    observations, _ = vector.reset(seed=1)
    for _ in range(30):
        observations, *_ = vector.step(observations["action_mask"].argmax(axis=1))
