"""The loading clients: what one load process runs.

A load process runs one asyncio loop with many tables at once. For each table it plays
the lobby's part over HTTP (create a table with people's seats and bots, join the other
seats, start it) and each person's part over the table's WebSocket, choosing every move
from the newest view's legal moves, as docs/protocol.md describes a client. When a game
ends the table's slot opens another, until the process is told to stop. Moves are paced
by one token schedule per process, so all processes together aim at the target rate.

What each process measures (acknowledged moves, the time from sending a move to its
``ack``, refusals and errors by code, games finished) goes back to the harness as plain
data every half second.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
import signal
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event as ProcessEvent
from typing import Any

import httpx2
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from twintable.core.plugin import ClientMove
from twintable.core.registry import default_registry
from twintable.loadtest.extension import LoadGame

#: Refusals that are a fault, reported as errors: the harness's (a malformed or
#: unauthorised move, a flood) or the platform's (storage or Redis down, a table between
#: owners). Every other refusal (``action.stale``, a touch that lost its race...) is what
#: a fair client meets in play.
FAULTS = ("message.", "json.", "auth.", "protocol.", "hello.", "rate.limited",
          "action.invalid", "action.unknown", "action.version_required", "table.private",
          "table.not_started", "table.unknown", "table.moving", "storage.", "server.",
          "cluster.")

#: The server allows 20 messages a second per connection (bursts of 40): one person
#: never sends faster than that.
SEAT_MIN_SPACING_S = 1 / 20
ANSWER_TIMEOUT_S = 15.0
#: HTTP connections a load process keeps to the lobby (requests beyond wait their turn).
LOBBY_CONNECTIONS = 8
STATS_EVERY_S = 0.5
#: Latency buckets grow by 2 %: percentiles within 1 % whatever the run's length.
BUCKET_GROWTH = math.log(1.02)


@dataclass(frozen=True, slots=True)
class LoadPlan:
    """What every load process is told: checked by the harness before any is started."""

    url: str
    game: str
    tables: int
    clients_per_table: int
    players: int
    rate: float
    duration_s: float
    processes: int
    options: dict[str, Any] = field(default_factory=dict)
    bot: str = "random"
    seed: int = 0

    @property
    def ws_url(self) -> str:
        return "ws" + self.url.removeprefix("http")


def latency_bucket(seconds: float) -> int:
    return int(math.log(max(seconds * 1e6, 1.0)) / BUCKET_GROWTH)


def bucket_ms(bucket: int) -> float:
    """The middle of a latency bucket, in milliseconds."""
    return math.exp((bucket + 0.5) * BUCKET_GROWTH) / 1000


@dataclass
class Stats:
    """One process's running totals (sent to the harness whole, not as deltas)."""

    sent: int = 0
    acks: int = 0
    refusals: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    tables_started: int = 0
    games_finished: int = 0
    lobby_retries: int = 0
    redirects: int = 0
    reconnects: int = 0
    resent: int = 0
    latency_buckets: Counter[int] = field(default_factory=Counter)
    max_latency_s: float = 0.0
    longest_pause_s: float = 0.0
    """The longest a seat went without a move of its table while the game ran (a drop,
    a worker's restart or a takeover shows here)."""

    def acknowledged(self, seconds: float) -> None:
        self.acks += 1
        self.latency_buckets[latency_bucket(seconds)] += 1
        self.max_latency_s = max(self.max_latency_s, seconds)

    def refused(self, code: str) -> None:
        if code.startswith(FAULTS):
            self.errors[code] += 1
        else:
            self.refusals[code] += 1

    def snapshot(self) -> dict[str, Any]:
        return {"sent": self.sent, "acks": self.acks, "refusals": dict(self.refusals),
                "errors": dict(self.errors), "tables_started": self.tables_started,
                "games_finished": self.games_finished, "lobby_retries": self.lobby_retries,
                "redirects": self.redirects, "reconnects": self.reconnects,
                "resent": self.resent,
                "latency_buckets": dict(self.latency_buckets),
                "max_latency_s": self.max_latency_s,
                "longest_pause_s": self.longest_pause_s}


class Pacer:
    """Hands out send slots at a steady rate (no bursts): the process's share of the
    target rate."""

    def __init__(self, rate: float):
        self.interval = 1 / rate
        self.next_slot = time.perf_counter()

    async def wait(self) -> None:
        now = time.perf_counter()
        slot = max(now, self.next_slot)
        self.next_slot = slot + self.interval
        if slot > now:
            await asyncio.sleep(slot - now)


# -- choosing moves -------------------------------------------------------------------
Move = ClientMove

Chooser = Callable[[dict[str, Any], random.Random], Move | None]


@cache
def game_client(game_id: str) -> tuple[Chooser, frozenset[str]]:
    """How a person plays a game, from its entry: its chooser, and the moves sent without
    a version because they race (the rules' ``unversioned_kinds``: every touch names its
    picture, docs/protocol.md)."""
    entry = default_registry().entry(game_id)
    choose = choose_turn_based
    chooser = entry.extension(LoadGame).chooser
    if chooser is not None:
        module, _, name = chooser.partition(":")
        choose = getattr(import_module(module), name)
    return choose, frozenset(entry.rules.unversioned_kinds)


def short_options(game_id: str) -> dict[str, Any]:
    """Options that keep the game's load-test tables short, as its entry declares them."""
    return dict(default_registry().entry(game_id).short_options)


def _legal(view: dict[str, Any]) -> list[dict[str, Any]]:
    return list(view.get("legal") or [])


def choose_turn_based(view: dict[str, Any], rng: random.Random) -> Move | None:
    """A game without a chooser of its own (its ``"loadtest"`` extension's ``chooser``): any
    legal move, at once (the server decides the races)."""
    legal = _legal(view)
    if not legal:
        return None
    action = rng.choice(legal)
    return Move(action["kind"], action["payload"])


VIEW_FRAMES = ('{"type":"event"', '{"type":"snapshot"')
NO_MOVES = '"legal":[]'
MOVED = '{"type":"moved"'
#: Redirects a seat follows in a row before it gives up (a table changing owner twice).
MAX_REDIRECTS = 4
#: How long a seat whose connection dropped keeps trying to come back, and its pauses
#: between tries (as the browser: short, capped).
RECONNECT_FOR_S = 30.0
FIRST_RETRY_S, LONGEST_RETRY_S = 0.1, 2.0


def is_over(view: dict[str, Any]) -> bool:
    return bool(view.get("over")) or view.get("phase") == "over"


# -- one person at one table ----------------------------------------------------------
class SeatClient:
    """One person's connection: reads every frame, and makes one move at a time from the
    newest view, waiting for its answer before the next (a careful client). Like the
    browser, it comes back after a drop: to where a ``moved`` sent it, else to the
    shared address, says hello again and sends again, with the same id, a move left
    unanswered (the server answers it once, whichever worker runs the table now)."""

    def __init__(self, ws: ClientConnection, choose: Chooser, stats: Stats, pacer: Pacer,
                 rng: random.Random, stopping: asyncio.Event,
                 unversioned: frozenset[str] = frozenset(), token: str | None = None,
                 shared_url: str | None = None):
        self.ws = ws
        self.token = token
        self.shared_url = shared_url
        """Where the seat comes back to after a drop (None: it does not)."""
        self.moved_to: str | None = None
        self.unanswered: dict[str, str] = {}
        """Moves sent and not answered yet, by id: sent again after a reconnect."""
        self.last_move_at: float | None = None
        self.choose = choose
        self.unversioned = unversioned
        self.stats = stats
        self.pacer = pacer
        self.rng = rng
        self.stopping = stopping
        self.latest_raw: str | None = None
        self.parsed_raw: str | None = None
        self.parsed: dict[str, Any] | None = None
        self.status = "open"
        self.changed = asyncio.Event()
        self.finished = asyncio.Event()
        self.leaving = False
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.moves = 0
        self.last_send = 0.0
        self.acked_version = 0

    async def read(self) -> None:
        try:
            while True:
                try:
                    async for raw in self.ws:
                        self.dispatch(raw if isinstance(raw, str) else raw.decode())
                except ConnectionClosed:
                    pass
                if self.finished.is_set() or self.leaving or self.stopping.is_set():
                    return
                if not await self.reconnect():
                    self.stats.errors["ws.closed"] += 1
                    return
        except (ValueError, KeyError, TypeError):
            self.stats.errors["frame.unreadable"] += 1
        finally:
            self.leaving = True
            self.finished.set()
            self.changed.set()
            for future in self.answers.values():
                future.cancel()

    async def reconnect(self) -> bool:
        """Come back after a drop (see the class); False when the seat cannot."""
        if self.token is None or self.shared_url is None:
            return False
        deadline = time.monotonic() + RECONNECT_FOR_S
        pause = FIRST_RETRY_S
        while time.monotonic() < deadline and not self.stopping.is_set():
            url, self.moved_to = self.moved_to or self.shared_url, None
            try:
                ws, first = await open_seat(url, self.token, self.stats)
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake, LobbyRefused):
                await asyncio.sleep(pause)
                pause = min(pause * 2, LONGEST_RETRY_S)
                continue
            self.ws = ws
            self.stats.reconnects += 1
            self.dispatch(first)
            for message in list(self.unanswered.values()):
                self.stats.resent += 1
                with contextlib.suppress(ConnectionClosed):
                    await ws.send(message)
            self.changed.set()
            return True
        return False

    def dispatch(self, raw: str) -> None:
        # Views are most of the traffic and most are not this seat's to act on: they are
        # kept as text and read only when the mover looks at the newest one.
        if raw.startswith(VIEW_FRAMES):
            if raw.startswith('{"type":"event"'):
                self._moved_on()
            self.latest_raw = raw
            if NO_MOVES not in raw:
                self.changed.set()
            return
        frame = json.loads(raw)
        kind = frame.get("type")
        if kind in ("snapshot", "event"):
            self.latest_raw = raw
            self.changed.set()
        elif kind == "moved":
            self.moved_to = str(frame["url"])  # the server closes this socket next
        elif kind in ("ack", "error") and frame.get("id") in self.answers:
            self.unanswered.pop(frame["id"], None)
            future = self.answers.pop(frame["id"])
            if not future.done():
                future.set_result(frame)
        elif kind == "error":
            self.stats.errors[str(frame.get("code", "error"))] += 1
        elif kind == "table":
            self.status = frame["table"]["status"]
            if self.status in ("finished", "abandoned"):
                self.finished.set()
                self.changed.set()

    def _moved_on(self) -> None:
        """A move of the table arrived: the time since the last one is a pause."""
        now = time.monotonic()
        if self.last_move_at is not None:
            self.stats.longest_pause_s = max(self.stats.longest_pause_s,
                                             now - self.last_move_at)
        self.last_move_at = now

    def newest(self) -> dict[str, Any] | None:
        """The newest snapshot or event frame, or None when it offers this seat nothing
        (no legal move: the server writes views compactly, so an empty list reads as
        ``"legal":[]``; any other spelling is simply parsed)."""
        raw = self.latest_raw
        if raw is None or NO_MOVES in raw:
            return None
        if raw is not self.parsed_raw:
            self.parsed_raw, self.parsed = raw, json.loads(raw)
        return self.parsed

    def done(self) -> bool:
        return self.finished.is_set() or self.stopping.is_set()

    async def play(self) -> None:
        while not self.done():
            await self.changed.wait()
            self.changed.clear()
            frame = self.newest()
            # An ack may come before the event frame of the same move: wait for the view.
            if (self.done() or frame is None or frame["version"] < self.acked_version
                    or is_over(frame["view"])):
                continue
            move = self.choose(frame["view"], self.rng)
            if move is None:
                continue
            if move.delay_s:
                await asyncio.sleep(move.delay_s)
            await self.pacer.wait()
            spacing = self.last_send + SEAT_MIN_SPACING_S - time.perf_counter()
            if spacing > 0:
                await asyncio.sleep(spacing)
            frame = self.newest()
            if self.done() or frame is None:
                continue
            if not any(action["kind"] == move.kind and action["payload"] == move.payload
                       for action in _legal(frame["view"])):
                self.changed.set()  # gone while we waited: choose again from the newest
                continue
            await self.send(move, frame["version"])
            self.changed.set()

    async def send(self, move: Move, version: int) -> None:
        self.moves += 1
        move_id = f"m{self.moves}"
        message: dict[str, Any] = {"type": "action", "id": move_id, "kind": move.kind,
                                   "payload": move.payload}
        if move.kind not in self.unversioned:
            message["version"] = version
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.answers[move_id] = answer
        text = self.unanswered[move_id] = json.dumps(message)
        sent = self.last_send = time.perf_counter()
        self.stats.sent += 1
        try:
            # A connection that drops now is come back to, and the move sent again.
            with contextlib.suppress(ConnectionClosed):
                await self.ws.send(text)
            frame = await asyncio.wait_for(answer, ANSWER_TIMEOUT_S)
        except asyncio.CancelledError:
            if self.leaving:
                return  # the connection went while the move was out: counted by the reader
            raise
        except TimeoutError:
            self.stats.errors["ack.timeout"] += 1
            self.answers.pop(move_id, None)
            self.unanswered.pop(move_id, None)
            return
        if frame["type"] == "ack":
            self.stats.acknowledged(time.perf_counter() - sent)
            self.acked_version = max(self.acked_version, int(frame["version"]))
            return
        code = str(frame.get("code", "error"))
        self.stats.refused(code)
        if code == "rate.limited":
            await asyncio.sleep(0.25)


# -- one table slot ---------------------------------------------------------------
class LobbyRefused(Exception):
    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


async def _lobby(http: httpx2.AsyncClient, stats: Stats, stopping: asyncio.Event,
                 path: str, body: dict[str, Any] | None = None,
                 token: str | None = None) -> dict[str, Any]:
    """One lobby request; a full lobby (429 ``tables.too_many``, 503) is retried after
    a pause, since many tables open at once from one address."""
    headers = {"Authorization": f"Bearer {token}"} if token else None
    delay = 0.2
    while True:
        response = await http.post(path, json=body, headers=headers)
        if response.status_code < 300:
            return response.json() if response.content else {}
        if response.status_code in (429, 503) and not stopping.is_set():
            stats.lobby_retries += 1
            await asyncio.sleep(delay * random.uniform(0.5, 1.5))
            delay = min(delay * 2, 3.0)
            continue
        try:
            code = response.json().get("code") or f"http.{response.status_code}"
        except ValueError:
            code = f"http.{response.status_code}"
        raise LobbyRefused(str(code))


async def play_one_table(plan: LoadPlan, name: str, http: httpx2.AsyncClient, stats: Stats,
                         pacer: Pacer, rng: random.Random, stopping: asyncio.Event) -> None:
    """Open a table, seat its people, start it and play it to the end (or to the stop)."""
    people, players = plan.clients_per_table, plan.players
    seats = ([{"kind": "human"}] * people + [{"kind": "bot", "bot": plan.bot}] * (players - people))
    created = await _lobby(http, stats, stopping, "/api/tables", {
        "game": plan.game, "players": players, "options": plan.options, "seats": seats,
        "display_name": f"{name}-0"})
    table_id = created["table"]["id"]
    # Each seat's socket: at the worker that runs the table, when the lobby names it
    # (several workers), else the shared address (a worker that does not run the
    # table sends the seat on: open_seat).
    shared = f"{plan.ws_url}/ws/tables/{table_id}"
    seated = [(created["token"], created.get("socket") or shared)]
    for n in range(1, people):
        joined = await _lobby(http, stats, stopping, f"/api/tables/{table_id}/join",
                              {"display_name": f"{name}-{n}"})
        seated.append((joined["token"], joined.get("socket") or shared))
    if stopping.is_set():
        return
    async with contextlib.AsyncExitStack() as stack:
        clients = []
        for token, url in seated:
            ws, first = await open_seat(url, token, stats)
            stack.push_async_exit(ws)
            choose, unversioned = game_client(plan.game)
            client = SeatClient(ws, choose, stats, pacer, random.Random(rng.random()),
                                stopping, unversioned, token=token, shared_url=shared)
            client.dispatch(first)
            clients.append(client)
        readers = [asyncio.create_task(client.read()) for client in clients]
        movers = [asyncio.create_task(client.play()) for client in clients]
        waits = [asyncio.create_task(stopping.wait()),
                 asyncio.create_task(_all(client.finished.wait() for client in clients))]
        try:
            await _lobby(http, stats, stopping, f"/api/tables/{table_id}/start",
                         token=seated[0][0])
            stats.tables_started += 1
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if any(client.status == "finished" for client in clients):
                stats.games_finished += 1
            for client in clients:
                client.changed.set()  # wakes a mover waiting for a view, so it sees the end
            await asyncio.wait(movers, timeout=ANSWER_TIMEOUT_S + 1)
        finally:
            for task in (*movers, *waits):
                task.cancel()
            for client in clients:
                client.leaving = True
                await client.ws.close()
            await asyncio.wait(readers, timeout=5)
            for task in readers:
                task.cancel()


async def open_seat(url: str, token: str, stats: Stats) -> tuple[ClientConnection, str]:
    """A seat's connection, said hello on, and its first frame. The hello says this
    client follows redirects: a worker that does not run the table answers ``moved`` with
    the address of the one that does, and the seat goes there (as docs/protocol.md asks)."""
    hello = json.dumps({"type": "hello", "protocol": 1, "token": token, "redirects": True})
    for _ in range(MAX_REDIRECTS):
        ws = await connect(url, compression=None, proxy=None, open_timeout=15,
                           max_size=2**22)
        await ws.send(hello)
        try:
            first = await asyncio.wait_for(ws.recv(decode=True), ANSWER_TIMEOUT_S)
        except BaseException:
            await ws.close()
            raise
        if not first.startswith(MOVED):
            return ws, first
        await ws.close()
        url = json.loads(first)["url"]
        stats.redirects += 1
    raise LobbyRefused("table.redirect_loop")


async def _all(waits: Any) -> None:
    await asyncio.gather(*waits)


async def table_slot(plan: LoadPlan, slot: int, http: httpx2.AsyncClient, stats: Stats,
                     pacer: Pacer, rng: random.Random, stopping: asyncio.Event) -> None:
    """Tables one after another in one slot until the stop."""
    # Spread the first tables over a second so the lobby is not hit all at once.
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stopping.wait(), rng.uniform(0, 1))
    game = 0
    while not stopping.is_set():
        game += 1
        try:
            await play_one_table(plan, f"load{slot}g{game}", http, stats, pacer, rng, stopping)
        except LobbyRefused as refused:
            stats.errors[f"lobby.{refused.code}"] += 1
        except (httpx2.HTTPError, OSError, ConnectionClosed, TimeoutError) as error:
            stats.errors[f"connection.{type(error).__name__}"] += 1
        except Exception as error:  # counted and reported; the slot opens another table
            stats.errors[f"client.{type(error).__name__}"] += 1
        else:
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), 0.5)


# -- one load process ---------------------------------------------------------------
async def run_process(plan: LoadPlan, index: int, queue: Queue[Any],
                      stop: ProcessEvent) -> Stats:
    """This process's share of the tables and of the rate, until ``stop`` or the end."""
    stats = Stats()
    stopping = asyncio.Event()
    slots = range(index, plan.tables, plan.processes)
    pacer = Pacer(plan.rate * len(slots) / plan.tables)
    rng = random.Random(plan.seed * 1_000_003 + index)
    deadline = time.monotonic() + plan.duration_s
    # A few lobby connections: the pool looks at every idle one (a poll each) before each
    # request, which cost a fifth of the process's CPU with one per table.
    limits = httpx2.Limits(max_connections=LOBBY_CONNECTIONS,
                           max_keepalive_connections=LOBBY_CONNECTIONS)
    # No certificate store to load for a plain http:// server (a tenth of a second each).
    verify = plan.url.startswith("https:")
    # Straight to the server under test, like the WebSockets (``proxy=None``).
    async with httpx2.AsyncClient(base_url=plan.url, timeout=15, limits=limits,
                                  verify=verify, trust_env=False) as http:
        tasks = [asyncio.create_task(table_slot(plan, slot, http, stats, pacer,
                                                random.Random(rng.random()), stopping))
                 for slot in slots]
        next_report = time.monotonic()
        while not stop.is_set() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            if time.monotonic() >= next_report:
                queue.put(("stats", index, stats.snapshot()))
                next_report += STATS_EVERY_S
        stopping.set()
        # Moves in flight get their answers; then every table closes its connections.
        await asyncio.wait(tasks, timeout=ANSWER_TIMEOUT_S + 5)
        for task in tasks:
            task.cancel()
    return stats


def process_main(plan: LoadPlan, index: int, queue: Queue[Any], start: ProcessEvent,
                 stop: ProcessEvent) -> None:
    """A load process: says it is ready, waits for the common start, plays, reports."""
    # Ctrl-C reaches the whole process group: the harness alone decides when to stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    queue.put(("ready", index, None))
    start.wait()
    try:
        import uvloop
        runner = asyncio.Runner(loop_factory=uvloop.new_event_loop)
    except ImportError:
        runner = asyncio.Runner()
    with runner:
        stats = runner.run(run_process(plan, index, queue, stop))
    queue.put(("done", index, stats.snapshot()))
