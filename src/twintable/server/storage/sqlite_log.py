"""The SQLite move log: plain ``sqlite3`` with group commit, the hot path of every move on
SQLite (issue 28: through SQLAlchemy and aiosqlite it cost half the server's CPU at 1,000
moves/s). The moves of one turn of the event loop are committed together on the loop,
and a writer thread takes what the loop cannot write at once. The store
(:mod:`twintable.server.storage.store`) owns it."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
import time
from typing import TYPE_CHECKING, Any

import orjson

from twintable.server.storage.moves import BATCH_LIMIT, FencedOut, Pending

if TYPE_CHECKING:
    from twintable.server.metrics import Timings

_SQLITE_INSERT = ("INSERT INTO actions (table_id, seq, seat, kind, payload, t_ms, client_id)"
                  " VALUES (?, ?, ?, ?, ?, ?, ?)")
_SQLITE_FENCE = "UPDATE tables SET fence = ? WHERE id = ? AND fence <= ?"
#: Commits on the event loop between two WAL checkpoints (run by the writer thread).
CHECKPOINT_EVERY = 1000
#: Asks the writer thread for a WAL checkpoint.
_CHECKPOINT = "checkpoint"


class SqliteLog:
    """The SQLite action log's writers.

    On the event loop: the moves appended during one turn of the loop are committed in one
    transaction at the end of that turn, on a connection that never waits for SQLite's
    write lock and never checkpoints, so the loop is held only for the commit itself (a
    write to the WAL, no fsync at ``synchronous=NORMAL``). Waking a thread and being woken
    back for every move cost more of the server's CPU than the commit (issue 28).

    In a thread with its own ``sqlite3`` connection: what the loop could not write at once
    (another writer held the lock, or the batch failed) and the WAL checkpoints. It
    commits every move waiting (up to :data:`BATCH_LIMIT`) in one transaction, then
    answers each move's future on its event loop, once per batch.

    The moves' fences are raised in the same transaction (``BEGIN IMMEDIATE`` takes the
    write lock first, so the check and the insert see one state). When a batch fails,
    each of its moves is written again in a transaction of its own, so only a move that
    fails alone is refused. The connection uses the engine's pragmas (WAL, synchronous
    NORMAL): a committed move survives a killed process, as through SQLAlchemy."""

    def __init__(self, path: str, timings: Timings | None = None):
        self.path = path
        self.timings = timings
        """Where the loop's commits are timed (``append_moves``); the thread's are not,
        as the figures are counted on the loop alone (``server/metrics.py``)."""
        self.turn: list[Pending] = []
        """Moves appended during this turn of the event loop, committed at its end."""
        self.here: sqlite3.Connection | None = None
        """The event loop's connection (opened at the first move)."""
        self.commits_here = 0
        self.moves: queue.SimpleQueue[Pending | str | None] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        # Held to start the thread and queue a move, and by a thread that gives up, so
        # that no move is queued for a thread that has stopped reading.
        self.lock = threading.Lock()

    def append(self, item: Pending) -> None:
        """Commit a move with the others of this turn of the loop; its future is answered
        once it is committed (or refused)."""
        if not self.turn:
            item[3].get_loop().call_soon(self._commit_turn)
        self.turn.append(item)

    def _commit_turn(self) -> None:
        moves, self.turn = self.turn, []
        for start in range(0, len(moves), BATCH_LIMIT):
            batch = moves[start:start + BATCH_LIMIT]
            started = time.perf_counter()
            try:
                refused = self._commit(self.here or self._connect_here(), batch)
            except Exception:
                for item in batch:  # the thread writes it, row by row if it must
                    self._to_thread(item)
                continue
            _answer([item[3] for item in batch],
                    [FencedOut(table_id, fence or 0) if table_id in refused else None
                     for table_id, _, fence, _ in batch])
            if self.timings is not None:
                self.timings.observe(("append_moves",), time.perf_counter() - started)
            self.commits_here += 1
            if self.commits_here % CHECKPOINT_EVERY == 0:
                self._to_thread(_CHECKPOINT)

    def _connect_here(self) -> sqlite3.Connection:
        # timeout=0: a lock held by another writer sends the batch to the thread, which
        # waits for it; the loop never does.
        connection = sqlite3.connect(self.path, timeout=0, isolation_level=None)
        try:
            sqlite_pragmas(connection, None)
            connection.execute("PRAGMA wal_autocheckpoint=0")
        except BaseException:
            connection.close()
            raise
        self.here = connection
        return connection

    def _to_thread(self, item: Pending | str) -> None:
        with self.lock:
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="twintable-log",
                                               daemon=True)
                self.thread.start()
            self.moves.put(item)

    async def close(self) -> None:
        """Write what is waiting, then stop the thread."""
        if self.turn:
            self._commit_turn()
        if self.here is not None:
            self.here.close()
            self.here = None
        with self.lock:
            thread, self.thread = self.thread, None
            if thread is not None:
                self.moves.put(None)
        if thread is not None:
            await asyncio.to_thread(thread.join)

    def _run(self) -> None:
        try:
            # isolation_level=None: the transactions are the explicit BEGIN/COMMIT below.
            connection = sqlite3.connect(self.path, timeout=30, isolation_level=None,
                                         check_same_thread=False)
            sqlite_pragmas(connection, None)
        except Exception as error:
            # Every move waiting is refused (its table reads the log back later); the
            # next move starts a new thread, which tries again.
            with self.lock:
                self.thread = None
                while True:
                    try:
                        item = self.moves.get_nowait()
                    except queue.Empty:
                        return
                    if item is not None and not isinstance(item, str):
                        _answer_from_thread([item], [error])
        try:
            while True:
                first = self.moves.get()
                if first is None:
                    return
                # A _CHECKPOINT marker runs after the moves gathered with it (PASSIVE:
                # readers never wait for it).
                checkpoint = isinstance(first, str)
                batch = [] if isinstance(first, str) else [first]
                stop = False
                while len(batch) < BATCH_LIMIT:
                    try:
                        item = self.moves.get_nowait()
                    except queue.Empty:
                        break
                    if item is None:
                        stop = True
                        break
                    if isinstance(item, str):
                        checkpoint = True
                        continue
                    batch.append(item)
                try:
                    if batch:
                        self._write(connection, batch)
                except Exception as error:  # never leave a move unanswered
                    _answer_from_thread(batch, [error] * len(batch))
                if checkpoint:
                    with contextlib.suppress(sqlite3.Error):
                        connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
                if stop:
                    return
        finally:
            connection.close()

    def _write(self, connection: sqlite3.Connection, batch: list[Pending]) -> None:
        outcomes: list[BaseException | None]
        try:
            refused = self._commit(connection, batch)
            outcomes = [FencedOut(table_id, fence or 0) if table_id in refused else None
                        for table_id, _, fence, _ in batch]
        except Exception:
            outcomes = []
            for item in batch:
                try:
                    if self._commit(connection, [item]):
                        outcomes.append(FencedOut(item[0], item[2] or 0))
                    else:
                        outcomes.append(None)
                except Exception as error:
                    outcomes.append(error)
        _answer_from_thread(batch, outcomes)

    @staticmethod
    def _commit(connection: sqlite3.Connection, batch: list[Pending]) -> set[str]:
        """Write a batch in one transaction; the tables whose fence was newer (their
        moves are not written)."""
        connection.execute("BEGIN IMMEDIATE")
        try:
            refused = set()
            fences = {table_id: fence for table_id, _, fence, _ in batch
                      if fence is not None}
            for table_id, fence in fences.items():
                if not connection.execute(_SQLITE_FENCE, (fence, table_id, fence)).rowcount:
                    refused.add(table_id)
            connection.executemany(_SQLITE_INSERT, [
                (table_id, a.seq, a.seat, a.kind, orjson.dumps(a.payload).decode(), a.t_ms,
                 a.client_id)
                for table_id, a, _, _ in batch if table_id not in refused])
            connection.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                connection.execute("ROLLBACK")
            raise
        return refused


def _answer_from_thread(batch: list[Pending], outcomes: list[BaseException | None]) -> None:
    """Answer a batch's moves on their event loop: one wake-up per batch, not per move."""
    loop = batch[0][3].get_loop()
    with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits
        loop.call_soon_threadsafe(_answer, [item[3] for item in batch], outcomes)


def _answer(futures: list[asyncio.Future[None]],
            outcomes: list[BaseException | None]) -> None:
    for done, outcome in zip(futures, outcomes, strict=True):
        if done.done():
            continue
        if outcome is None:
            done.set_result(None)
        else:
            done.set_exception(outcome)


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers run beside the writer; a committed append survives a killed process.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
