"""The load harness: checks a load plan, starts the load processes, gathers what they
measure and makes the report.

Bounds are checked before anything starts, and the target must be this machine (every
address its name resolves to is a loopback address) unless the caller allows remote
servers: a load test is an attack on whatever it points at. The server is asked for its
games first, so a wrong URL, a server that is down, an unknown game or a bad player count
is one line, not a crash in a load process.
"""

from __future__ import annotations

import ipaddress
import multiprocessing
import os
import queue
import signal
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx2

from twintable.core.registry import default_registry
from twintable.loadtest.clients import LoadPlan, Stats, bucket_ms, process_main, short_options

MAX_TABLES = 1_000
MAX_CLIENTS_PER_TABLE = 10
MAX_CLIENTS = 5_000
MAX_PROCESSES = 64
MAX_RATE = 50_000.0
MAX_DURATION_S = 3_600.0
#: After the stop, how long load processes have to collect their last answers and report.
DRAIN_S = 25.0


class LoadTestError(Exception):
    """A plan refused before the load starts; its message is one line for the user."""


# -- checking a plan -----------------------------------------------------------------
def base_url(url: str) -> str:
    """The server's base URL (``http://host:port``), from an http(s) or ws(s) URL."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as error:
        raise LoadTestError(f"not a URL: {url!r} ({error})") from None
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    if scheme not in ("http", "https") or not parts.hostname:
        raise LoadTestError(f"not a server URL: {url!r} (expected http://host:port)")
    if parts.query or parts.fragment or parts.path.strip("/"):
        raise LoadTestError(f"give the server's address without a path: {url!r}")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{scheme}://{host}" + (f":{port}" if port is not None else "")


def refuse_remote(url: str) -> None:
    """Refuse a server that is not on this machine: every address the host name resolves
    to must be a loopback address."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        found = socket.getaddrinfo(host, parts.port or 80, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError) as error:
        raise LoadTestError(f"cannot resolve {host!r}: {error}") from None
    addresses = sorted({str(info[4][0]) for info in found})
    remote = [address for address in addresses if not _loopback(address)]
    if remote:
        raise LoadTestError(
            f"refusing to load {host}: it resolves to {', '.join(remote)}, which is not a "
            "loopback address (pass --allow-remote to load a server you run elsewhere)")


def _loopback(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def check_bounds(tables: int, clients_per_table: int, rate: float, duration_s: float,
                 processes: int | None) -> None:
    """Refuse absurd load before anything starts."""
    checks = [
        (1 <= tables <= MAX_TABLES, f"--tables must be 1 to {MAX_TABLES}, not {tables}"),
        (1 <= clients_per_table <= MAX_CLIENTS_PER_TABLE,
         f"--clients-per-table must be 1 to {MAX_CLIENTS_PER_TABLE}, not {clients_per_table}"),
        (tables * clients_per_table <= MAX_CLIENTS,
         f"{tables} tables of {clients_per_table} clients make {tables * clients_per_table} "
         f"clients; at most {MAX_CLIENTS}"),
        (0 < rate <= MAX_RATE, f"--rate must be above 0 and at most {MAX_RATE:g} moves/s, "
                               f"not {rate:g}"),
        (0 < duration_s <= MAX_DURATION_S,
         f"--duration must be above 0 and at most {MAX_DURATION_S:g} s, not {duration_s:g}"),
        (processes is None or 1 <= processes <= min(MAX_PROCESSES, tables),
         f"--processes must be 1 to {min(MAX_PROCESSES, tables)} (one table each at least), "
         f"not {processes}"),
    ]
    for ok, message in checks:
        if not ok:
            raise LoadTestError(message)


def prepare(url: str, game: str, tables: int, clients_per_table: int, rate: float,
            duration_s: float, processes: int | None = None, players: int | None = None,
            options: dict[str, Any] | None = None, allow_remote: bool = False,
            seed: int = 0) -> LoadPlan:
    """A checked plan: bounds, the address, and the game as the server knows it."""
    games = default_registry().ids()
    if game not in games:
        raise LoadTestError(f"unknown game {game!r}: choose one of {', '.join(games)}")
    check_bounds(tables, clients_per_table, rate, duration_s, processes)
    base = base_url(url)
    if not allow_remote:
        refuse_remote(base)
    try:
        response = httpx2.get(f"{base}/api/games", timeout=10, trust_env=False)
        response.raise_for_status()
        known = {info["id"]: info for info in response.json()}
    except (httpx2.HTTPError, ValueError, KeyError, TypeError) as error:
        raise LoadTestError(f"no Twin Table server answers at {base} "
                            f"({type(error).__name__}: {error})") from None
    info = known.get(game)
    if info is None:
        raise LoadTestError(f"the server at {base} does not offer {game!r}")
    lowest, highest = int(info["min_players"]), int(info["max_players"])
    seated = players if players is not None else max(clients_per_table, lowest)
    if not lowest <= seated <= highest:
        raise LoadTestError(f"{game} takes {lowest} to {highest} players, not {seated}")
    if clients_per_table > seated:
        raise LoadTestError(f"{clients_per_table} clients per table do not fit "
                            f"{seated} seats (raise --players)")
    return LoadPlan(
        url=base, game=game, tables=tables, clients_per_table=clients_per_table,
        players=seated, rate=rate, duration_s=duration_s,
        processes=processes or min(tables, os.cpu_count() or 1, 8),
        options=short_options(game) | (options or {}),
        bot=str(info.get("default_bot") or "random"), seed=seed)


# -- running it ----------------------------------------------------------------------
@dataclass
class Totals(Stats):
    """Every process's latest totals (its :class:`Stats` snapshots), added up."""

    @classmethod
    def of(cls, snapshots: list[dict[str, Any]]) -> Totals:
        totals = cls()
        for shot in snapshots:
            for name in ("sent", "acks", "tables_started", "games_finished", "lobby_retries",
                         "redirects", "reconnects", "resent"):
                setattr(totals, name, getattr(totals, name) + shot[name])
            totals.longest_pause_s = max(totals.longest_pause_s, shot["longest_pause_s"])
            totals.refusals.update(shot["refusals"])
            totals.errors.update(shot["errors"])
            totals.latency_buckets.update(shot["latency_buckets"])
            totals.max_latency_s = max(totals.max_latency_s, shot["max_latency_s"])
        return totals

    def percentile_ms(self, fraction: float) -> float | None:
        count = sum(self.latency_buckets.values())
        if not count:
            return None
        rank, seen = fraction * count, 0
        for bucket in sorted(self.latency_buckets):
            seen += self.latency_buckets[bucket]
            if seen >= rank:
                return min(bucket_ms(bucket), self.max_latency_s * 1000)
        return self.max_latency_s * 1000


Progress = Callable[[float, Totals], None]


def run_load(plan: LoadPlan, on_progress: Progress | None = None,
             stop: threading.Event | None = None) -> dict[str, Any]:
    """Run the plan in ``plan.processes`` processes; the report. Ctrl-C, or ``stop`` set
    from another thread, stops the load early (the report says so); a second Ctrl-C stops
    the processes at once.

    Ctrl-C only raises a flag, read at the loops' turns: a KeyboardInterrupt raised at
    any instruction could land inside a queue read or the progress display's lock and
    leave the run hanging (seen once in CI: no exit 55 s after Ctrl-C)."""
    asked = stop or threading.Event()

    def on_interrupt(signum: int, frame: Any) -> None:
        if asked.is_set():
            raise KeyboardInterrupt  # the second Ctrl-C: stop at once
        asked.set()

    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, on_interrupt) if in_main else None
    try:
        return _run_load(plan, on_progress, asked)
    finally:
        if in_main:
            signal.signal(signal.SIGINT, previous)


def _run_load(plan: LoadPlan, on_progress: Progress | None,
              asked: threading.Event) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    messages: Any = context.Queue()
    start, stop = context.Event(), context.Event()
    workers = [context.Process(target=process_main, args=(plan, index, messages, start, stop),
                               name=f"twintable-load-{index}", daemon=True)
               for index in range(plan.processes)]
    latest: dict[int, dict[str, Any]] = {}
    done: set[int] = set()
    interrupted = loading = forced = False
    began = stopped = time.perf_counter()
    try:
        for worker in workers:
            worker.start()
        ready: set[int] = set()
        while len(ready) < len(workers):
            if asked.is_set():
                raise KeyboardInterrupt  # before the load began: nothing to drain
            kind, index, _ = _next_message(messages, workers)
            if kind == "ready":
                ready.add(index)
        start.set()
        began, loading = time.perf_counter(), True
        while len(done) < len(workers):
            if asked.is_set():
                interrupted = True
                break
            _gather(messages, workers, latest, done)
            elapsed = time.perf_counter() - began
            if on_progress is not None:
                on_progress(min(elapsed, plan.duration_s), Totals.of(list(latest.values())))
            if elapsed >= plan.duration_s:
                break
        stopped = time.perf_counter()
        stop.set()
        drain_until = time.monotonic() + DRAIN_S
        while len(done) < len(workers) and time.monotonic() < drain_until:
            _gather(messages, workers, latest, done)
            if all(not worker.is_alive() for worker in workers):
                _gather(messages, workers, latest, done)
                break
    except KeyboardInterrupt:
        interrupted = forced = True
    finally:
        stop.set()
        start.set()
        for worker in workers:
            if worker.pid is None:
                continue  # never started
            worker.join(timeout=0.2 if forced else 5)
            if worker.is_alive():
                worker.terminate()
                worker.join(timeout=5)
    totals = Totals.of(list(latest.values()))
    lost = sorted(set(range(len(workers))) - done) if loading else []
    return report(plan, totals, stopped - began, interrupted, lost)


def _next_message(messages: Any, workers: list[Any]) -> tuple[str, int, Any]:
    while True:
        try:
            return messages.get(timeout=0.25)  # type: ignore[no-any-return]
        except queue.Empty:
            if not any(worker.is_alive() for worker in workers):
                raise LoadTestError("every load process ended before the start") from None


def _gather(messages: Any, workers: list[Any], latest: dict[int, dict[str, Any]],
            done: set[int]) -> None:
    """Read what the processes sent for up to a quarter of a second."""
    until = time.monotonic() + 0.25
    while (left := until - time.monotonic()) > 0:
        try:
            kind, index, snapshot = messages.get(timeout=left)
        except queue.Empty:
            return
        if kind in ("stats", "done"):
            latest[index] = snapshot
        if kind == "done":
            done.add(index)


def report(plan: LoadPlan, totals: Totals, elapsed_s: float, interrupted: bool,
           lost: list[int]) -> dict[str, Any]:
    """The run as JSON data: the plan, throughput, latency percentiles and every count."""
    errors = Counter(totals.errors)
    if lost:
        errors["harness.process_lost"] += len(lost)
    elapsed_s = max(elapsed_s, 1e-9)
    return {
        "url": plan.url, "game": plan.game, "tables": plan.tables,
        "clients_per_table": plan.clients_per_table, "players": plan.players,
        "options": plan.options, "bots": plan.players - plan.clients_per_table,
        "rate_target": plan.rate, "duration_s": plan.duration_s,
        "processes": plan.processes, "elapsed_s": round(elapsed_s, 3),
        "interrupted": interrupted,
        "moves_sent": totals.sent,
        "moves_acknowledged": totals.acks,
        "moves_per_s": round(totals.acks / elapsed_s, 2),
        "latency_ms": {
            "p50": _rounded(totals.percentile_ms(0.50)),
            "p90": _rounded(totals.percentile_ms(0.90)),
            "p99": _rounded(totals.percentile_ms(0.99)),
            "max": _rounded(totals.max_latency_s * 1000 if totals.acks else None),
        },
        "refusals": dict(sorted(totals.refusals.items())),
        "errors": dict(sorted(errors.items())),
        "tables_started": totals.tables_started,
        "games_finished": totals.games_finished,
        "lobby_retries": totals.lobby_retries,
        "redirects": totals.redirects,
        "reconnects": totals.reconnects,
        "moves_resent": totals.resent,
        "longest_pause_s": round(totals.longest_pause_s, 3),
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
