"""Stopping and resuming a run (sim/drive.py): finished games survive Ctrl-C and SIGTERM in
the JSON Lines file, no worker process outlives the command, and ``--resume`` gives the
report a run that was never stopped gives; ``--precision`` plays until its intervals are
narrow enough."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from twintable.cli import app
from twintable.sim.drive import CHUNK, Precision, Setup, next_target, play
from twintable.sim.lab import half_widths
from twintable.sim.report import build_report

runner = CliRunner()
#: Short one-round Timo games between cheap bots: a few milliseconds each.
TIMO = ["sim", "timo", "--bots", "medium,random", "--option", "target=1", "--seed", "5"]
OPTIONS = {"target": 1}
SOURCE = str(Path(__file__).resolve().parents[2] / "src")


def _sim(*arguments: str) -> str:
    result = runner.invoke(app, [*TIMO, *arguments])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_resumed_run_gives_the_report_of_a_run_never_stopped(tmp_path: Path) -> None:
    whole, resumed, games = tmp_path / "whole.json", tmp_path / "resumed.json", tmp_path / "g"
    _sim("--games", "30", "--workers", "1", "--json", str(whole))
    _sim("--games", "20", "--workers", "2", "--jsonl", str(games))
    # A stop in the middle of a chunk loses that chunk only (here the last 5 games), and
    # one while writing leaves a line cut short, which is dropped.
    kept = games.read_text().splitlines()[:15]
    games.write_text("\n".join(kept) + "\n" + kept[15 - 1][:40])
    output = _sim("--games", "30", "--workers", "2", "--jsonl", str(games), "--resume",
                  "--json", str(resumed))
    assert "15 games read back" in output
    assert json.loads(resumed.read_text()) == json.loads(whole.read_text())
    rows = [json.loads(line) for line in games.read_text().splitlines()]
    assert [row["seed"] for row in rows] == list(range(5, 35))
    # A broken line with games after it is no stop's doing: refused.
    lines = games.read_text().splitlines()
    games.write_text("\n".join([lines[0], "{broken", *lines[1:]]) + "\n")
    broken = runner.invoke(app, [*TIMO, "--games", "40", "--jsonl", str(games), "--resume"])
    assert broken.exit_code == 2 and "line 2 of" in broken.output


def test_resume_refuses_a_file_another_command_wrote(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    _sim("--games", "10", "--workers", "1", "--jsonl", str(games))
    before = games.read_text()
    result = runner.invoke(app, [*TIMO, "--games", "20", "--jsonl", str(games), "--resume",
                                 "--option", "stacking=false"])
    assert result.exit_code == 2
    assert "is not the next game of this command" in result.output
    assert games.read_text() == before  # nothing written, nothing lost
    missing = runner.invoke(app, [*TIMO, "--games", "20", "--resume"])
    assert missing.exit_code == 2 and "--jsonl" in missing.output


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stopped_run_keeps_its_games_and_leaves_no_worker_behind(
        tmp_path: Path, stop: signal.Signals) -> None:
    games = tmp_path / "games.jsonl"
    command = [sys.executable, "-m", "twintable.cli", *TIMO, "--games", "100000",
               "--workers", "2", "--jsonl", str(games)]
    environment = {**os.environ, "PYTHONPATH": SOURCE + os.pathsep
                   + os.environ.get("PYTHONPATH", "")}
    process = subprocess.Popen(command, env=environment, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        # Wait for proof that the workers run: finished games on disk (a condition, not
        # a guess at how long start-up takes), then stop the command.
        deadline = time.monotonic() + 120
        while not (games.exists() and games.stat().st_size > 0):
            assert process.poll() is None, process.communicate()[0]
            assert time.monotonic() < deadline, "no game finished in two minutes"
            time.sleep(0.05)
        workers = _children(process.pid)
        assert len(workers) == 2
        process.send_signal(stop)
        output, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, output
    assert "--resume plays the rest" in output
    assert not [pid for pid in workers if _alive(pid)]
    rows = [json.loads(line) for line in games.read_text().splitlines()]
    assert rows and [row["seed"] for row in rows] == list(range(5, 5 + len(rows)))


def test_precision_plays_until_the_intervals_are_narrow_enough_or_the_cap() -> None:
    looks: list[int] = []

    def widest(setups: Sequence[Setup]) -> float:
        looks.append(len(setups[0].results))
        report = build_report("timo", 2, ("random", "random"), 5, OPTIONS, setups[0].results)
        return max(half_widths(report))

    setup = Setup(OPTIONS, ("heuristic", "random"), 2)
    play("timo", [setup], 5000, 5, workers=1, ray=None, fixed_seats=False, log=None,
         advance=lambda done, total: None, precision=Precision(0.12, 5000, widest),
         first_look=20)
    # ±12 points needs about 67 games at even odds: more than the first look, far less
    # than the cap; the games are a prefix of the seeds, as a fixed-count run plays.
    seen = list(looks)
    assert seen[0] == 20 and seen[-1] == len(setup.results) and 40 <= seen[-1] <= 200
    # It stopped at the first look narrow enough: the one before was not.
    assert widest([setup]) <= 0.12 < widest([Setup(OPTIONS, setup.lineup, 2,
                                                   results=setup.results[:seen[-2]])])
    assert [result.seed for result in setup.results] == list(range(5, 5 + len(setup.results)))


def test_precision_short_of_its_cap_says_so() -> None:
    capped = _sim("--games", "30", "--precision", "0.001", "--workers", "1")
    assert "30 games: the widest interval is" in capped
    assert "--games 30 capped the run" in capped


def test_the_next_look_aims_at_the_precision_in_whole_chunks_within_the_cap() -> None:
    wanted = Precision(0.02, 10_000, lambda setups: 0.0)
    # Half-widths shrink as 1/sqrt(n): twice too wide needs four times the games (+10%).
    assert next_target(200, 0.04, wanted) == 880
    assert next_target(200, 0.0201, wanted) == 230  # 222.2 games, in whole chunks
    assert next_target(200, 0.018, wanted) == 200 + CHUNK  # never less than a chunk more
    assert next_target(9_000, 0.04, wanted) == 10_000


def test_a_sweep_resumes_cell_by_cell_to_the_report_of_an_unstopped_sweep(
        tmp_path: Path) -> None:
    sweep = ["sweep", "timo", "--grid", "hand_size=5,7", "--bots", "medium,random",
             "--option", "target=1", "--seed", "2", "--games", "6", "--workers", "1"]
    whole, resumed, games = tmp_path / "whole.json", tmp_path / "resumed.json", tmp_path / "g"
    assert runner.invoke(app, [*sweep, "--json", str(whole), "--jsonl", str(games)]
                         ).exit_code == 0
    # Stopped in the second cell: its first two games were kept.
    games.write_text("\n".join(games.read_text().splitlines()[:8]) + "\n")
    result = runner.invoke(app, [*sweep, "--json", str(resumed), "--jsonl", str(games),
                                 "--resume"])
    assert result.exit_code == 0, result.output
    assert "8 games read back" in result.output
    assert json.loads(resumed.read_text()) == json.loads(whole.read_text())
    cells = [json.loads(line)["cell"]["hand_size"] for line in games.read_text().splitlines()]
    assert cells == [5] * 6 + [7] * 6
