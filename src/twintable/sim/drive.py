"""Running a study to its end, or to the precision asked, and surviving a stop.

A study is one or more set-ups (a ``sim``, or a sweep's cells), each playing games
``seed`` to ``seed + n - 1``. This module plays them, writes each finished chunk to the
JSON Lines file at once (so Ctrl-C or SIGTERM keeps every finished game, and ``--resume``
reads them back and plays only the rest: the same games, the same report as a run that
was never stopped), and with a precision plays more games until every interval it
reports is within ± that precision, or the cap is reached.
"""

from __future__ import annotations

import json
import math
import signal
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import IO, Any

from twintable.sim.export import game_row, result_from_row
from twintable.sim.runner import GameResult, require_ray, run_games, seat_bots

#: Games a precision-driven run plays before its first look at the intervals.
FIRST_LOOK = 200
#: The games of a run come in chunks of this many (``run_games``' default).
CHUNK = 10


@dataclass
class Setup:
    """One set of games: the options, the line-up filling the seats, and (in a sweep)
    the cell's key, which every JSON line of its games carries."""

    options: dict[str, Any]
    lineup: tuple[str, ...]
    players: int
    cell: dict[str, Any] | None = None
    results: list[GameResult] = field(default_factory=list)


class ResumeError(ValueError):
    """The JSON Lines file was not written by this command."""


def _same(first: Any, second: Any) -> bool:
    return json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


def resume(path: Path, game_id: str, setups: Sequence[Setup], seed: int,
           fixed_seats: bool) -> int:
    """Read back the games ``path`` kept into each set-up's results, checking that each is
    the game this command plays next there (same game, options, seed and seats); returns
    the games read. A file that does not exist holds none."""
    if not path.exists():
        return 0
    rows = _kept_rows(path)
    for number, row in enumerate(rows, start=1):
        setup = next((setup for setup in setups if _same(row.get("cell"), setup.cell)
                      and row.get("players") == setup.players), None)
        index = len(setup.results) if setup is not None else 0
        expected_bots = (seat_bots(setup.lineup, index, not fixed_seats)
                         if setup is not None else [])
        if (setup is None or row.get("game") != game_id
                or not _same(row.get("options"), _plain(setup.options))
                or row.get("seed") != seed + index or row.get("bots") != expected_bots):
            raise ResumeError(
                f"--resume: game {number} of {path} is not the next game of this command "
                f"(game, options, seed {seed + index}, seats): resume with the command that "
                "wrote it, or write to another file")
        setup.results.append(result_from_row(row))
    return len(rows)


def _kept_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of ``path``; a last line cut short (a run killed while writing it) is
    dropped from the file, since its game is played again. A broken line before the
    last is not a stop's doing: a ResumeError."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    rows = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            if any(rest.strip() for rest in lines[number:]):
                raise ResumeError(f"--resume: line {number} of {path} is not JSON") from None
            with path.open("r+", encoding="utf-8") as kept:
                kept.truncate(len(("\n".join(lines[:number - 1]) + "\n").encode("utf-8"))
                              if number > 1 else 0)
    return rows


def _plain(options: Mapping[str, Any]) -> dict[str, Any]:
    return {key: list(value) if isinstance(value, tuple) else value
            for key, value in options.items()}


class GameLog:
    """The JSON Lines file, written as games finish: each chunk's lines are flushed at once,
    so a stopped run loses only the chunks it was playing."""

    def __init__(self, path: Path, game_id: str, append: bool):
        self.path = path
        self.game_id = game_id
        self.written = 0
        self._file: IO[str] = path.open("a" if append else "w", encoding="utf-8")

    def write(self, setup: Setup, results: Sequence[GameResult]) -> None:
        # One write a chunk: a stop between games never leaves half of one on disk.
        self._file.write("".join(
            json.dumps(game_row(self.game_id, setup.options, result, setup.cell),
                       separators=(",", ":")) + "\n" for result in results))
        self._file.flush()
        self.written += len(results)

    def close(self) -> None:
        self._file.close()


@contextmanager
def stop_on_terminate() -> Iterator[None]:
    """SIGTERM stops the run as Ctrl-C does (a KeyboardInterrupt): finished games are
    kept and the worker processes are ended, none left running."""
    def stop(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread (a notebook's worker): nothing to catch
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def ray_connection(address: str | None, workers: int) -> Iterator[None]:
    """One Ray connection for the whole study (``run_games`` then leaves it open)."""
    if address is None:
        yield
        return
    ray = require_ray()
    connected_here = not ray.is_initialized()
    if connected_here:
        settings: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                    "configure_logging": False}
        if address == "local":
            ray.init(num_cpus=workers or None, **settings)
        else:
            ray.init(address=address, **settings)
    try:
        yield
    finally:
        if connected_here:
            ray.shutdown()


@dataclass(frozen=True)
class Precision:
    """Play until every interval ``widest`` finds is within ± ``half`` (a half-width), or
    ``cap`` games per set-up."""

    half: float
    cap: int
    widest: Callable[[Sequence[Setup]], float]


def next_target(games: int, widest: float, precision: Precision) -> int:
    """Games per set-up for the next look: a half-width shrinks as one over the square
    root of the games, so this many should reach the precision (a tenth more, in whole
    chunks), never fewer than one more chunk, never past the cap."""
    needed = games * (widest / precision.half) ** 2 * 1.1 if widest > 0 else games
    target = max(games + CHUNK, math.ceil(round(needed / CHUNK, 6)) * CHUNK)
    return min(precision.cap, target)


def play(game_id: str, setups: Sequence[Setup], games: int, seed: int, *, workers: int,
         ray: str | None, fixed_seats: bool, log: GameLog | None,
         advance: Callable[[int, int], None],
         precision: Precision | None = None, first_look: int = FIRST_LOOK) -> None:
    """Bring every set-up to ``games`` games (or, with ``precision``, to as many as its
    intervals need, at most its cap); ``advance(done, target)`` follows the progress.
    A KeyboardInterrupt (Ctrl-C, SIGTERM) passes through after the worker processes
    ended; the games finished before it are in the set-ups and the log."""
    target = games if precision is None else min(precision.cap, max(
        first_look, max((len(setup.results) for setup in setups), default=0)))
    with ray_connection(ray, workers):
        while True:
            for setup in setups:
                if len(setup.results) >= target:
                    continue
                chunks = run_games(game_id, setup.options, setup.lineup, target, seed,
                                   workers or None, ray_address=ray,
                                   fixed_seats=fixed_seats, start=len(setup.results))
                try:
                    for chunk in chunks:
                        setup.results.extend(chunk)
                        if log is not None:
                            log.write(setup, chunk)
                        advance(len(chunk), target * len(setups))
                finally:
                    chunks.close()  # a stop ends the worker processes now, not at collection
            if precision is None or target >= precision.cap:
                return
            widest = precision.widest(setups)
            if widest <= precision.half:
                return
            target = next_target(target, widest, precision)
            advance(0, target * len(setups))
