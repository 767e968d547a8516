"""Make every game's bot ladder again: the data behind the leaderboard's "bots" tab.

Each game ships its ladders in its package's ``web/ladder.json`` (``/api/games`` names
the file; ``server/catalog.py``); docs/figures/ladder.json gathers them, by game, for the
README. This script climbs the ladders below with ``twintable.sim.ladder`` (every bot a
game offers people, one a level, rated from round-robin matches), writes each game's
file with a note saying how it was made, then gathers them all again into the docs.
Name games to climb only theirs; the others' files are gathered as they are.

Usage (on the project's 2-core machine, about 15 minutes for all)::

    nice -n 10 python scripts/ladder.py [GAME ...] [--workers 2] [--scale 1.0]

``--scale`` multiplies every ladder's games per pairing (0.1 for a quick look; the
files then say so). ``--only-gather`` rewrites the docs file from the games' files.
"""

from __future__ import annotations

import argparse
import json
import time
from importlib import resources
from pathlib import Path
from typing import Any

from twintable.core.registry import default_registry
from twintable.sim.ladder import climb, game_ladder

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "figures" / "ladder.json"

#: Per game: (table size, games per pairing, short options?). Timo plays to 100 points
#: (its short options) so that its search bots fit a small machine.
LADDERS: dict[str, tuple[tuple[int, int, bool], ...]] = {
    "timo": ((2, 100, True), (4, 50, True)),
    "twins": ((4, 100, False),),
    "twinit": ((2, 200, False), (4, 100, False)),
    "twinz": ((4, 30, False),),
}


def ladder_file(game: str) -> Path:
    """Where ``game`` ships its ladders: ``web/ladder.json`` in its package."""
    package = default_registry().entry(game).package
    return Path(str(resources.files(package).joinpath("web"))) / "ladder.json"


def climb_game(game: str, workers: int, scale: float, seed: int = 1) -> dict[str, Any]:
    """Every ladder of ``game``, with a note saying how it was made."""
    report: dict[str, Any] = {}
    said = []
    for players, games, short in LADDERS[game]:
        count = max(1, round(games * scale))
        ladder = game_ladder(game, players, short=short)
        started = time.monotonic()
        report[ladder.name] = climb(ladder, count, seed, workers)
        said.append(f"{players} players, {count} games per pairing"
                    f"{' at its short options' if short else ''} "
                    f"({time.monotonic() - started:.0f} s)")
    note = (f"Made by scripts/ladder.py (seed {seed}, {workers} worker processes on the "
            f"project's 2-core machine): {'; '.join(said)}. Read the win-share intervals "
            f"beside the ratings.")
    return {"note": note, **report}


def gather() -> dict[str, Any]:
    """Every game's shipped ladders, by game id."""
    gathered = {}
    for entry in default_registry().entries():
        path = ladder_file(entry.id)
        if path.is_file():
            gathered[entry.id] = json.loads(path.read_text(encoding="utf-8"))
    return gathered


def write(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help=f"games to climb (default: {', '.join(LADDERS)})")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--only-gather", action="store_true")
    args = parser.parse_args()
    if not args.only_gather:
        for game in args.games or list(LADDERS):
            if game not in LADDERS:
                parser.error(f"no ladder is set for {game!r}: one of {', '.join(LADDERS)}")
            report = climb_game(game, args.workers, args.scale)
            write(ladder_file(game), report)
            print(f"{game}: {report['note']}", flush=True)
    write(DOCS, gather())


if __name__ == "__main__":
    main()
