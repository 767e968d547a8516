"""Twin Table's command line plays Twin Tricks like any game: ``twintable sim`` pits its
bot against random bots and reports, and ``twintable replay`` steps through a saved game
in the terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from twintable.core.registry import default_registry
from twintable.core.replay import Replay
from twintable.sim.durations import typical_minutes
from twintable.sim.runner import make_bots, play_game


def twintable(*args: str, cwd: Path) -> str:
    run = subprocess.run([sys.executable, "-m", "twintable.cli", *args], cwd=cwd,
                         capture_output=True, text=True, timeout=300, check=False,
                         env={**os.environ, "COLUMNS": "200"})
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    return run.stdout


def test_sim_reports_the_heuristic_bot_ahead_of_random_bots(tmp_path: Path) -> None:
    twintable("sim", "tricks", "--players", "3", "--games", "90", "--bots",
              "heuristic,random,random", "--option", "target=6", "--workers", "1",
              "--json", "report.json", cwd=tmp_path)
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert (report["game"], report["games"], report["players"]) == ("tricks", 90, 3)
    assert report["options"] == {"target": 6, "hand_size": 5}
    rates = {name: row["win_rate"] for name, row in report["bots"].items()}
    # Seats rotate every game: each bot name is scored over all its seat-games.
    assert rates["heuristic"] > rates["random"]
    assert report["stats"]["hands"]["mean"] >= 1 and report["stats"]["turns"]["mean"] >= 15


def test_a_saved_game_replays_in_the_terminal(tmp_path: Path) -> None:
    entry = default_registry().entry("tricks")
    result = play_game(entry.rules, {"target": 3}, make_bots(entry, ["heuristic", "random"]),
                       seed=4, record=True)
    assert result.actions
    replay = Replay("tricks", 2, 4, entry.rules.resolve_options({"target": 3}),
                    result.actions)
    replay.save(tmp_path / "game.json")
    told = twintable("replay", "game.json", "--all", cwd=tmp_path)
    assert "takes the trick" in told and "Twin Tricks" in told
    assert f"Final scores: {result.scores}" in told


def test_the_lobbys_length_is_a_fresh_measurement_within_a_factor_of_one_and_a_half() -> None:
    entry = default_registry().entry("tricks")
    ((mode, (players, declared)),) = entry.rules.table_minutes.items()
    measured = typical_minutes(entry, mode, players, games=5, seed=1000)
    assert declared / 1.5 <= measured <= declared * 1.5, (declared, measured)


def test_the_bot_ladder_rates_the_games_own_bots() -> None:
    """The ladder takes a plug-in game by id and its bots from its entry."""
    from twintable.sim.ladder import climb, parse_ladder

    ladder = parse_ladder("tricks:2")
    assert ladder.bots == ("random", "heuristic")
    ratings = climb(ladder, 20, seed=1)["ratings"]
    assert [row["bot"] for row in ratings] == ["heuristic", "random"]
    assert all(row["games"] == 20 for row in ratings)
