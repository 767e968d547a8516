"""Benchmark: `twintable sim` games per second with 1 and 2 local worker processes and on
a local Ray (`--ray local`, two CPUs), in one run; ratios against 1 worker.

Each run is the whole command (through Typer's runner, in this process): starting the
pool or Ray, the games, the progress bar and the report, as a user would time it. The
three reports must be equal (same seed, same games), which the script checks.
Ray's old in-process `local_mode` is gone from Ray 2.x; "Ray local" is a Ray started on
this machine for the run.
Usage: python bench/sim_workers.py [--game timo] [--players 2] [--games 600]
       [--bots heuristic,random] [--option target=300]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from typer.testing import CliRunner

from twintable.cli import app


def timed_sim(args: argparse.Namespace, where: list[str], out: Path) -> float:
    """Games per second of one `twintable sim` run, start-up included."""
    command = ["sim", args.game, "--players", str(args.players), "--games", str(args.games),
               "--bots", args.bots, "--seed", "1", "--json", str(out), *where]
    for option in args.option or []:
        command += ["--option", option]
    start = time.perf_counter()
    result = CliRunner().invoke(app, command)
    elapsed = time.perf_counter() - start
    if result.exit_code != 0:
        raise SystemExit(f"twintable {' '.join(command)} failed:\n{result.output}")
    return args.games / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="timo")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--bots", default="heuristic,random")
    parser.add_argument("--option", action="append")
    args = parser.parse_args()
    runs = {"1 worker": ["--workers", "1"], "2 workers": ["--workers", "2"],
            "Ray local, 2 CPUs": ["--ray", "local", "--workers", "2"]}
    rates: dict[str, float] = {}
    reports: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as folder:
        for label, where in runs.items():
            out = Path(folder) / "report.json"
            rates[label] = timed_sim(args, where, out)
            reports[label] = json.loads(out.read_text())
    same = all(report == reports["1 worker"] for report in reports.values())
    print(f"twintable sim {args.game}, {args.players} players, {args.games} games, "
          f"bots {args.bots}, start-up included")
    base = rates["1 worker"]
    for label, rate in rates.items():
        print(f"  {label:<18}: {rate:8.1f} games/s  ({rate / base:.2f}x 1 worker)")
    print(f"  same report from every run: {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
