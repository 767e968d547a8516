"""Play games between bots, one at a time, across local processes or on a Ray cluster.

A game is played by the table engine (``core/table_engine.py``) on its virtual clock, as
a table plays it: the seats that may act are asked in a seeded random order (so no seat
always wins a race) and the first action offered is played, or in a race on the clock
the earliest plan; the game's timeout fires when nobody acts before its deadline.

Many games are cut into :class:`SimJob` chunks that run anywhere (this process, a
process pool, Ray tasks) and come back in order; game ``i`` depends only on ``seed + i``,
so where a chunk ran never changes its results.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
from collections import deque
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from twintable.bots.base import Bot
from twintable.bots.registry import bot_factories, bot_factory, seat_names
from twintable.core.game import Game, Opening
from twintable.core.plugin import STEP_MS, GameEntry, PlanMove, default_plan
from twintable.core.table_engine import TableEngine, TableStuck, table_players
from twintable.core.types import Action

MAX_STEPS = 200_000


@dataclass(slots=True)
class GameResult:
    """One finished game. ``first`` and ``dealer`` give its turn order (None for a game
    without turns), ``standings`` the scores after each round or hand (empty for a game
    that does not score by rounds), ``sides`` the team of each seat in a team game and
    ``team_scores`` what each team scored (by team, when the game reports it), and
    ``steps`` the moves played."""

    seed: int
    bots: tuple[str, ...]
    scores: tuple[int, ...]
    winners: frozenset[int]
    stats: dict[str, float] = field(default_factory=dict)
    actions: list[Action] | None = None
    first: int | None = None
    dealer: int | None = None
    standings: tuple[tuple[int, ...], ...] = ()
    sides: tuple[int, ...] | None = None
    steps: int = 0
    team_scores: tuple[int, ...] | None = None


class _Rounds:
    """The scores after each round of a game that scores by rounds: read after every move,
    kept when the round number moves on (the move that ends a round deals the next)."""

    __slots__ = ("game", "last", "standings")

    def __init__(self, game: Game[Any], state: Any):
        self.game = game
        self.last = game.round_number(state)
        self.standings: list[tuple[int, ...]] = []

    def moved(self, state: Any) -> None:
        number = self.game.round_number(state)
        if number != self.last:
            self.last = number
            self.standings.append(self.game.running_scores(state))


def _rounds(game: Game[Any], state: Any) -> _Rounds | None:
    return _Rounds(game, state) if game.scores_by_round else None


def make_bots(entry: GameEntry, names: Sequence[str]) -> list[Bot]:
    """One bot per name: a bot's name, a former one, or a level on the shared scale
    (``hard``), as :func:`~twintable.bots.registry.resolve_bot` reads it. A bot reports
    results under its own name: a caller that names levels and reads results by name
    seats :func:`~twintable.bots.registry.seat_names` instead."""
    factories = bot_factories(entry)
    if all(name in factories for name in names):  # every game of a simulation
        return [factories[name]() for name in names]
    return [bot_factory(entry, name)() for name in seat_names(entry, names)]


def play_game(game: Game[Any], options: Mapping[str, Any] | None, bots: Sequence[Bot],
              seed: int, record: bool = False, plan: PlanMove = default_plan) -> GameResult:
    """Play one game to the end on the table engine's virtual clock; the bots' choices and
    race order come from ``seed`` too. Turn by turn, a move takes :data:`STEP_MS` and a
    timer that runs out while the bots think fires first; in a race on the clock
    (``game.realtime``) ``plan`` times the bots' moves (the game entry's
    :meth:`~twintable.core.plugin.GameEntry.plan`) and the earliest plan, or the game's
    deadline, happens next."""
    state = game.new_state(options, len(bots), seed)
    opening, rounds = game.opening(state), _rounds(game, state)
    rng = random.Random(seed * 7919 + 17)
    # Picked as the server's tables pick theirs (core/table_engine.py); on the virtual
    # clock, turn by turn a move takes a step, and a race's plans carry the times.
    players = table_players(game, bots, rng, plan)
    if game.realtime:
        table = TableEngine(game, state, players, sit_out_refused=True, record=record)
    else:
        table = TableEngine(game, state, players, gap_ms=STEP_MS, record=record)
    try:
        table.run(MAX_STEPS, rounds.moved if rounds is not None else None)
    except TableStuck as stuck:
        raise TableStuck(f"{stuck} (seed {seed})") from None
    return _result(game, state, bots, seed, table.actions, opening, rounds, table.moves)


def play_realtime_game(game: Game[Any], options: Mapping[str, Any] | None,
                       bots: Sequence[Bot], seed: int, record: bool = False,
                       plan_move: PlanMove = default_plan) -> GameResult:
    """:func:`play_game` for a race on the clock: a discrete-event simulation, nothing
    sleeps (a game of several virtual minutes takes milliseconds)."""
    assert game.realtime, f"{game.id} is not played in real time"
    return play_game(game, options, bots, seed, record, plan_move)


def _result(game: Game[Any], state: Any, bots: Sequence[Bot], seed: int,
            actions: list[Action] | None, opening: Opening | None, rounds: _Rounds | None,
            steps: int) -> GameResult:
    outcome = game.outcome(state)
    assert outcome is not None
    # The last round ends the game without dealing another: its scores are the final ones.
    standings = (*rounds.standings, outcome.scores) if rounds is not None else ()
    return GameResult(seed, tuple(bot.name for bot in bots), outcome.scores, outcome.winners,
                      game.stats(state), actions,
                      first=opening.first if opening is not None else None,
                      dealer=opening.dealer if opening is not None else None,
                      standings=standings, sides=game.sides(state), steps=steps,
                      team_scores=outcome.team_scores)


def seat_bots(lineup: Sequence[str], game_index: int, rotate: bool = True) -> list[str]:
    """Rotate the lineup by one seat per game, so every bot sits in every seat; with
    ``rotate`` off each bot keeps its seat (a handicap or a team given to a seat then goes
    to the bot named there)."""
    if not rotate:
        return list(lineup)
    shift = game_index % len(lineup)
    return list(lineup[shift:]) + list(lineup[:shift])


@dataclass(frozen=True, slots=True)
class SimJob:
    game_id: str
    options: dict[str, Any]
    lineup: tuple[str, ...]
    seed: int
    first: int
    count: int
    rotate: bool = True


def _run_job(job: SimJob) -> list[GameResult]:
    from twintable.core.registry import default_registry
    from twintable.sim.extension import simulation_engine

    entry = default_registry().entry(job.game_id)
    game = simulation_engine(entry)
    results = []
    for index in range(job.first, job.first + job.count):
        if _stopping is not None and _stopping.is_set():
            break  # the run stops: the parent discards this chunk (run_games says why)
        bots = make_bots(entry, seat_bots(job.lineup, index, job.rotate))
        results.append(play_game(game, job.options, bots, job.seed + index,
                                 plan=entry.plan))
    return results


#: ``--ray local``: start a Ray instance on this machine for the run, then stop it.
RAY_LOCAL = "local"
#: Ray tasks kept in flight per CPU of the cluster: enough to keep every worker busy
#: while finished chunks are handed back in order, without queuing the whole run at once.
RAY_TASKS_PER_CPU = 4


def run_games(game_id: str, options: Mapping[str, Any], lineup: Sequence[str], games: int,
              seed: int, workers: int | None = None, chunk: int = 10,
              ray_address: str | None = None, fixed_seats: bool = False,
              start: int = 0) -> Generator[list[GameResult], None, None]:
    """Yield results chunk by chunk, in order (for a progress bar), in parallel when
    workers > 1 or on Ray when ``ray_address`` is given (a cluster address, or
    :data:`RAY_LOCAL`; ``workers`` then caps the CPUs of a local Ray).

    Game ``i`` uses seed ``seed + i`` and the lineup rotated by ``i`` (unless
    ``fixed_seats``), so the results do not depend on the number of workers, nor on where
    they run; games ``start`` to ``games - 1`` are played (a resumed or extended run
    plays only the games it lacks). A caller that stops early (Ctrl-C, SIGTERM) closes
    the generator: the worker processes are ended with it, none is left running.
    """
    jobs = [SimJob(game_id, dict(options), tuple(lineup), seed, first,
                   min(chunk, games - first), not fixed_seats)
            for first in range(start, games, chunk)]
    if not jobs:
        return
    if ray_address is not None:
        yield from _run_on_ray(jobs, ray_address, workers)
        return
    workers = workers or min(len(jobs), os.cpu_count() or 1)
    if workers <= 1:
        for job in jobs:
            yield _run_job(job)
        return
    context = multiprocessing.get_context()
    stopping = context.Event()
    pool = context.Pool(workers, initializer=_start_worker, initargs=(stopping,))
    try:
        # imap hands chunks back in order as they finish, chunk by chunk.
        yield from pool.imap(_run_job, jobs)
    finally:
        # An early stop (Ctrl-C, SIGTERM, a worker's error): every chunk, queued or
        # running, ends before its next game, and the workers leave by themselves. They
        # are not killed: Pool.terminate() signalled workers that could be writing a
        # result, one died holding the result queue's lock, and terminate() then waited
        # on that lock for ever (it hung a test after a worker's error in CI). After a
        # full run the workers are idle and this only reaps them.
        stopping.set()
        pool.close()
        pool.join()


#: Set in a worker process (:func:`_start_worker`): the run is stopping.
_stopping: Any = None


def _start_worker(stopping: Any) -> None:
    """A worker ignores Ctrl-C: the terminal sends it to the whole process group, and the
    parent alone decides (it keeps the finished games and tells the workers to stop
    through ``stopping``). SIGTERM ends a worker at once, whatever handler the parent had
    when it forked (nothing here sends it: the run ends them through ``stopping``)."""
    global _stopping
    _stopping = stopping
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def require_ray() -> Any:
    """The ``ray`` module, or a RuntimeError saying which extra installs it (the base
    install has no Ray)."""
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install 'twintable[dist]'") from None
    return ray


def _run_on_ray(jobs: Sequence[SimJob], address: str,
                workers: int | None) -> Iterator[list[GameResult]]:
    """Run the jobs as Ray tasks and hand their results back in job order.

    Connects to the cluster at ``address`` (``ray://host:10001``, ``host:6379`` or
    ``auto``), or starts a local Ray with :data:`RAY_LOCAL`, unless this process is
    already connected (a notebook, a test); it disconnects only from what it connected
    to. Every node needs the same twintable installed: a task names
    ``twintable.sim.runner._run_job`` and imports it there.
    """
    ray = require_ray()
    connected_here = not ray.is_initialized()
    if connected_here:
        settings: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                    "configure_logging": False}
        if address == RAY_LOCAL:
            ray.init(num_cpus=workers or None, **settings)
        else:
            ray.init(address=address, **settings)
    pending: deque[Any] = deque()
    try:
        run_job = ray.remote(_run_job)
        window = max(1, RAY_TASKS_PER_CPU * int(ray.cluster_resources().get("CPU", 1)))
        waiting = iter(jobs)
        pending.extend(run_job.remote(job) for job in islice(waiting, window))
        while pending:
            results: list[GameResult] = ray.get(pending.popleft())
            following = next(waiting, None)
            if following is not None:
                pending.append(run_job.remote(following))
            yield results
    finally:
        for ref in pending:  # the caller stopped early: free the cluster
            ray.cancel(ref)
        if connected_here:
            ray.shutdown()
