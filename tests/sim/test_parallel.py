"""Simulations give the same results wherever they run: in this process, across local
worker processes, or as Ray tasks (a one-CPU Ray started for the tests)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from twintable.cli import app
from twintable.core.errors import OptionError
from twintable.sim.runner import RAY_LOCAL, GameResult, run_games

ray = pytest.importorskip("ray", reason="the [dist] extra (Ray) is not installed")

#: (game, options, lineup, games): short games of two engines, one of them real-time.
CASES = [
    ("timo", {"target": 60}, ["heuristic", "random", "random"], 7),
    ("twins", {}, ["heuristic", "random", "random"], 5),
    ("twinit", {"mode": "competitive"}, ["sharp", "casual"], 3),
]
SEED = 40


def results(game_id: str, options: dict[str, Any], lineup: list[str], games: int,
            **where: Any) -> list[GameResult]:
    # Chunks of 2 so that several chunks, and so several tasks, come back in order.
    return [result for chunk in run_games(game_id, options, lineup, games, SEED, chunk=2,
                                          **where) for result in chunk]


@pytest.fixture(scope="class")
def local_ray() -> Iterator[None]:
    """A one-CPU Ray for one class of tests, shut down after them."""
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    try:
        yield
    finally:
        ray.shutdown()


class TestWhereverTheyRun:
    @pytest.mark.parametrize(("game_id", "options", "lineup", "games"), CASES,
                             ids=[case[0] for case in CASES])
    def test_one_worker_two_workers_and_ray_give_the_same_games(
            self, local_ray: None, game_id: str, options: dict[str, Any], lineup: list[str],
            games: int) -> None:
        alone = results(game_id, options, lineup, games, workers=1)
        assert [result.seed for result in alone] == [SEED + i for i in range(games)]
        # Seats rotate every game, so the lineups differ: the order was kept.
        assert alone[0].bots != alone[1].bots
        assert results(game_id, options, lineup, games, workers=2) == alone
        assert results(game_id, options, lineup, games, ray_address=RAY_LOCAL) == alone
        # Ray was already running: the run leaves it connected.
        assert ray.is_initialized()


def test_sim_on_a_local_ray_reports_as_locally(tmp_path: Path) -> None:
    assert not ray.is_initialized()
    runner = CliRunner()
    args = ["sim", "timo", "--players", "2", "--games", "6", "--seed", "9", "--bots",
            "heuristic,random", "--option", "target=60"]
    on_ray = runner.invoke(app, [*args, "--ray", "local", "--workers", "1",
                                 "--json", str(tmp_path / "ray.json")])
    assert on_ray.exit_code == 0, on_ray.output
    # The command started its own Ray for the run and stopped it after.
    assert not ray.is_initialized()
    local = runner.invoke(app, [*args, "--workers", "1", "--json", str(tmp_path / "one.json")])
    assert local.exit_code == 0, local.output
    assert "6/6" in on_ray.output and "win rate" in on_ray.output.lower()
    report = json.loads((tmp_path / "ray.json").read_text())
    assert report == json.loads((tmp_path / "one.json").read_text())
    assert report["games"] == 6


def test_sim_without_ray_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    result = CliRunner().invoke(app, ["sim", "timo", "--games", "2", "--bots", "random",
                                      "--ray", "local"])
    assert result.exit_code == 2
    assert "twintable[dist]" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_an_error_in_a_worker_process_reaches_the_caller_as_itself() -> None:
    # A bad option fails in every worker; the pool hands back the OptionError, not a
    # BrokenProcessPool from an exception that could not be rebuilt.
    with pytest.raises(OptionError) as raised:
        results("timo", {"target": -5}, ["random", "random"], 4, workers=2)
    assert raised.value.code == "option.invalid"
    assert raised.value.details["option"] == "target"


def test_a_sweep_on_a_local_ray_reports_as_locally(tmp_path: Path) -> None:
    assert not ray.is_initialized()
    runner = CliRunner()
    args = ["sweep", "timo", "--grid", "hand_size=5,7", "--players", "2", "--games", "4",
            "--seed", "3", "--bots", "heuristic,random", "--option", "target=60"]
    on_ray = runner.invoke(app, [*args, "--ray", "local", "--workers", "1",
                                 "--json", str(tmp_path / "ray.json")])
    assert on_ray.exit_code == 0, on_ray.output
    # One Ray for the whole sweep, started and stopped by the command.
    assert not ray.is_initialized()
    local = runner.invoke(app, [*args, "--workers", "1", "--json", str(tmp_path / "one.json")])
    assert local.exit_code == 0, local.output
    report = json.loads((tmp_path / "ray.json").read_text())
    assert report == json.loads((tmp_path / "one.json").read_text())
    assert len(report["cells"]) == 2
