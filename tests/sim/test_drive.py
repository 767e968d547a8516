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
from pathlib import Path

import pytest
from typer.testing import CliRunner

from twintable.cli import app
from twintable.sim.drive import CHUNK, Precision, next_target

runner = CliRunner()
#: Short one-round Timo games between cheap bots: a few milliseconds each.
TIMO = ["sim", "timo", "--bots", "medium,random", "--option", "target=1", "--seed", "5"]
SOURCE = str(Path(__file__).resolve().parents[2] / "src")


def _sim(*arguments: str) -> str:
    result = runner.invoke(app, [*TIMO, *arguments])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_resumed_run_gives_the_report_of_a_run_never_stopped(tmp_path: Path) -> None:
    whole, resumed, games = tmp_path / "whole.json", tmp_path / "resumed.json", tmp_path / "g"
    _sim("--games", "30", "--workers", "1", "--json", str(whole))
    _sim("--games", "20", "--workers", "2", "--jsonl", str(games))
    # A stop in the middle of a chunk loses that chunk only: here, the last 5 games.
    kept = games.read_text().splitlines()[:15]
    games.write_text("\n".join(kept) + "\n")
    output = _sim("--games", "30", "--workers", "2", "--jsonl", str(games), "--resume",
                  "--json", str(resumed))
    assert "15 games read back" in output
    assert json.loads(resumed.read_text()) == json.loads(whole.read_text())
    rows = [json.loads(line) for line in games.read_text().splitlines()]
    assert [row["seed"] for row in rows] == list(range(5, 35))


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


def test_precision_plays_until_the_intervals_are_narrow_enough_or_the_cap(
        tmp_path: Path) -> None:
    loose = _sim("--games", "5000", "--precision", "0.2", "--workers", "1")
    assert "200 games: the widest interval is" in loose  # the first look was enough
    capped = _sim("--games", "220", "--precision", "0.001", "--workers", "1")
    assert "220 games" in capped and "--games 220 capped the run" in capped


def test_the_next_look_aims_at_the_precision_in_whole_chunks_within_the_cap() -> None:
    wanted = Precision(0.02, 10_000, lambda setups: 0.0)
    # Half-widths shrink as 1/sqrt(n): twice too wide needs four times the games (+10%).
    assert next_target(200, 0.04, wanted) == 880
    assert next_target(200, 0.0201, wanted) == 230  # 222.2 games, in whole chunks
    assert next_target(200, 0.018, wanted) == 200 + CHUNK  # never less than a chunk more
    assert next_target(9_000, 0.04, wanted) == 10_000
