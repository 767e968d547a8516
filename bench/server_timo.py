"""Benchmark: one server process, N tables of 4 scripted WebSocket clients playing
Timo's Twist, first as fast as the protocol allows, then at a set load.

The clients live in separate processes (not bots inside the server). Each phase reports
acknowledged actions per second, p50/p99 action-to-broadcast latency (from sending a move
to receiving its own event frame) and server memory per table, against the targets (200
tables, >= 1,000 acks/s, p99 < 100 ms, SQLite).

- "flat out": every client moves the moment its frame arrives. This finds the most the
  server can acknowledge; latency there is queueing by construction (Little's law: with
  one move in flight per table, mean latency is tables / throughput).
- "at N/s": each table's k-th move is due at a fixed time (k / (N / tables) seconds after
  the start, plus a per-table phase), whatever the latency so far (open loop), so the
  server carries N acks/s and the latency is what a player would feel at that load.
- "--capacity": issue 16's capacity case, 1,250 tables x 4 = 5,000 connected clients at
  1,000 acks/s (the flat-out phase is skipped unless --flat-out is given), with the
  server's memory per connection (RSS once every client has its snapshot, less RSS with
  the tables open and no one connected, over the connections). Its client processes
  freeze their heaps once connected (--freeze-client-gc), so that their own collector
  pauses, over 1,250 connections each, are not charged to the server.
- "--baseline bare": the same clients, in the same run, against a bare FastAPI/uvicorn
  server (bench/bare_replay.py) that replays frames captured from this server (one game
  played here first), with no game and no storage; the figures are then printed as ratios
  to the bare stack's (issue 28: flat out >= 0.8x its acknowledged moves/s, CPU per move
  <= 1.3x, p99 at 1,000 moves/s <= 2x). Each phase also prints the server's CPU per move
  (the server process's user + system time over the phase, its threads included; not the
  database server's) and the machine's busy share over the phase, so that a run on a
  saturated machine is seen as one. With ``--rounds N`` our server and the bare stack
  take turns N times and the ratios are the rounds' medians: on this shared machine one
  run's CPU per move moves by 15% or more (bare: 0.21-0.29 ms in one hour).
Usage: python bench/server_timo.py [--tables 200] [--seconds 15] [--rate 1000]
       [--client-processes 2] [--db postgresql://127.0.0.1/test]  (default: a fresh SQLite)
       [--capacity] [--no-flat-out] [--freeze-client-gc] [--baseline bare [--rounds 3]]
The server bounds tables waiting to start per client address (20 by default); the bench
starts each table as soon as it has opened it, so it never has more than one waiting.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from serving import open_timo_tables, serving

TARGET_ACKS, TARGET_P99_MS = 1000, 100
CAPACITY_TABLES = 1250  # issue 16: 5,000 connected clients on one server process
# Handshakes one client process has under way at once: thousands at once overflow the
# server's listen backlog (uvicorn's is 2,048) and the refused ones wait seconds to retry.
CONNECTING_AT_ONCE = 256
#: Moves captured for the bare stack's replay: more than a table plays in a phase.
SCRIPT_MOVES = 600


class Clock:
    """One client process's start, known only once all its seats are connected."""

    def __init__(self, seats: int, interval: float) -> None:
        self.interval = interval
        self.start = self.until = 0.0
        self.waiting = seats
        self.connected = asyncio.Event()  # every seat has its first snapshot
        self.go = asyncio.Event()  # ``start`` and ``until`` are set
        self.deadlines: set[asyncio.Timeout] = set()  # those still running
        self.closed = 0  # connections the server closed before the end
        self.connecting = asyncio.Semaphore(CONNECTING_AT_ONCE)

    def seat_connected(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.connected.set()

    def begin(self, start: float, until: float) -> None:
        self.start, self.until = start, until
        loop = asyncio.get_running_loop()
        for deadline in self.deadlines:
            deadline.reschedule(loop.time() + until - time.monotonic())
        self.go.set()


def raise_fd_limit() -> None:
    """A connection is a descriptor in the server and one in a client: lift the soft
    limit to the hard one (the server and client processes inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def cpu_seconds(pid: int) -> float:
    """A process's user + system time so far (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far (/proc/stat)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def seat_client(url: str, table_id: str, token: str, clock: Clock,
                      latencies: list[float], phase: float) -> int:
    """Play one seat; the move made at version v is due at
    ``clock.start + phase + v * clock.interval``."""
    acks = 0
    sent_at: dict[str, float] = {}
    in_flight: str | None = None
    latest: dict[str, Any] | None = None
    counter = 0
    my_seat = -1
    connected = False
    # One deadline for the whole conversation: a timer per frame costs the clients, which
    # share the 2 cores with the server, more than the parsing. It is set when the clock
    # starts (``Clock.begin``).
    deadline = asyncio.timeout(None)
    try:
        async with deadline:
            clock.deadlines.add(deadline)
            async with clock.connecting:
                ws = await connect(f"{url}/ws/tables/{table_id}", max_size=2**20,
                                   open_timeout=120)
            async with ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                while True:
                    frame = json.loads(await ws.recv())
                    kind = frame["type"]
                    if kind == "welcome":
                        my_seat = frame["seat"]
                    elif kind in ("snapshot", "event"):
                        latest = frame
                        if not connected:
                            connected = True
                            clock.seat_connected()
                        if kind == "event" and frame["seat"] == my_seat \
                                and in_flight is not None and in_flight in sent_at:
                            # Our own move, broadcast back: the action-to-broadcast latency.
                            latencies.append(time.monotonic() - sent_at.pop(in_flight))
                    elif kind in ("ack", "error") and frame.get("id") == in_flight:
                        acks += kind == "ack"
                        if in_flight is not None:
                            sent_at.pop(in_flight, None)
                        in_flight = None
                    if in_flight is None and latest is not None and latest["view"]["legal"]:
                        await clock.go.wait()  # no move before every client is connected
                        due = clock.start + phase + latest["version"] * clock.interval
                        if due > time.monotonic():
                            await asyncio.sleep(due - time.monotonic())
                        action = latest["view"]["legal"][0]
                        counter += 1
                        in_flight = f"b{counter}"
                        sent_at[in_flight] = time.monotonic()
                        await ws.send(json.dumps({
                            "type": "action", "id": in_flight, "version": latest["version"],
                            "kind": action["kind"], "payload": action["payload"]}))
                        latest = None
    except TimeoutError:
        pass
    except ConnectionClosed:
        clock.closed += 1  # reported; the other seats play on
    finally:
        clock.deadlines.discard(deadline)
        if not connected:
            clock.seat_connected()  # closed before its snapshot: the others still start
    return acks


def quiet_collector() -> None:
    """What the client processes hold once connected lives to the end: out of the cycle
    collector's sight, as ``twintable serve`` does for itself. With 1,250 connections a
    process, its full collections took 200-350 ms on busy shared cores, and every move in
    flight in that process was charged the pause as action-to-broadcast latency (on idle
    cores: p99 10.4 ms without, 7.2 ms with)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def client_process(url: str, seats: list[tuple[str, str]], seconds: float, interval: float,
                   freeze_gc: bool, ready: Any, go: Any, start_at: Any, results: Any) -> None:
    raise_fd_limit()

    async def run() -> tuple[int, list[float], int]:
        latencies: list[float] = []
        clock = Clock(len(seats), interval)

        def phase(table_id: str) -> float:
            # A per-table phase spreads the tables' moves over the interval.
            return (int(table_id.encode().hex(), 16) % 1000) / 1000 * interval

        async def start_when_told() -> None:
            await clock.connected.wait()
            if freeze_gc:
                quiet_collector()
            ready.put(len(seats))
            # The parent measures the server with everyone connected, then sets the start.
            await asyncio.get_running_loop().run_in_executor(None, go.wait)
            clock.begin(start_at.value, start_at.value + seconds)

        # Clients connect at once but make no move before the start.
        starter = asyncio.ensure_future(start_when_told())
        counts = await asyncio.gather(*(seat_client(url, table_id, token, clock, latencies,
                                                    phase(table_id))
                                        for table_id, token in seats))
        await starter
        return sum(counts), latencies, clock.closed

    try:
        import uvloop  # installed with the server; the clients need the CPU too
    except ImportError:
        results.put(asyncio.run(run()))
    else:
        results.put(uvloop.run(run()))


def run_phase(url: str, ws_url: str, args: argparse.Namespace, rate: float,
              server_pid: int, label: str = "twintable") -> dict[str, float]:
    """Fresh tables (every version starts at 0), played for ``args.seconds``; the figures
    (acks/s, p50 and p99 in ms, server CPU ms per ack, the machine's busy share)."""
    before = rss_kib(server_pid)
    with httpx2.Client(base_url=url) as http:
        seats = open_timo_tables(http, args.tables)
    opened = rss_kib(server_pid)
    results: Any = multiprocessing.Queue()
    ready: Any = multiprocessing.Queue()
    go = multiprocessing.Event()
    start_at: Any = multiprocessing.Value("d", 0.0)
    chunks = [seats[i::args.client_processes] for i in range(args.client_processes)]
    # Every client connects before the clock starts, so the first moves are not a burst:
    # three seconds from launch, or half a second after the last client has its snapshot.
    launched = time.monotonic()
    interval = args.tables / rate if rate > 0 else 0.0
    processes = [multiprocessing.Process(target=client_process, args=(
        ws_url, chunk, args.seconds, interval, args.freeze_client_gc, ready, go, start_at,
        results))
        for chunk in chunks]
    for process in processes:
        process.start()
    connections = sum(ready.get(timeout=600) for _ in processes)
    connected_after = time.monotonic() - launched
    connected = rss_kib(server_pid)
    start_at.value = max(launched + 3.0, time.monotonic() + 0.5)
    go.set()
    time.sleep(max(0.0, start_at.value - time.monotonic()))
    cpu_before, ticks_before = cpu_seconds(server_pid), machine_ticks()
    time.sleep(max(0.0, start_at.value + args.seconds - time.monotonic()))
    cpu_used = cpu_seconds(server_pid) - cpu_before
    ticks_after = machine_ticks()
    busy = ((ticks_after[0] - ticks_before[0])
            / max(1, ticks_after[1] - ticks_before[1]))
    totals = [results.get() for _ in processes]
    for process in processes:
        process.join()
    acks = sum(count for count, _, _ in totals)
    latencies = sorted(x for _, values, _ in totals for x in values)
    closed = sum(count for _, _, count in totals)
    p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000 if latencies else float("nan")
    achieved = acks / args.seconds  # moves start at ``start`` and stop at its end
    cpu_per_ack = cpu_used * 1000 / acks if acks else float("nan")
    title = f"at {rate:.0f} acks/s offered" if rate > 0 else "flat out"
    store = args.db.split(':')[0] if args.db else 'SQLite'
    print(f"[{label}] {args.tables} tables x 4 WebSocket clients in {args.client_processes} "
          f"processes, {title}, {args.seconds:.0f} s, "
          f"{'no storage' if label == 'bare' else store}")
    print(f"  acknowledged actions/s : {achieved:8.0f}   ({achieved / TARGET_ACKS:.2f}x the "
          f"target {TARGET_ACKS})")
    print(f"  action to broadcast p50: {p50:8.1f} ms")
    print(f"  action to broadcast p99: {p99:8.1f} ms ({p99 / TARGET_P99_MS:.2f}x the "
          f"{TARGET_P99_MS} ms budget)")
    print(f"  server memory per table: {(opened - before) / args.tables:8.0f} KiB opened, "
          f"{(rss_kib(server_pid) - before) / args.tables:.0f} KiB after play (the process "
          "keeps freed memory for reuse)")
    print(f"  server CPU per ack     : {cpu_per_ack:8.3f} ms ({cpu_used:.1f} s over the "
          f"phase); machine busy {busy:.0%} of {os.cpu_count()} cores")
    if closed:
        print(f"  connections the server closed before the end: {closed}")
    if args.capacity:
        print(f"  server memory per connection: {(connected - opened) / connections:5.1f} KiB "
              f"({connections} connected in {connected_after:.1f} s; server RSS "
              f"{opened / 1024:.0f} MiB with the tables open, {connected / 1024:.0f} MiB "
              f"connected, {rss_kib(server_pid) / 1024:.0f} MiB after play)")
        if rate > 0:
            met = achieved >= 0.99 * rate and p99 < TARGET_P99_MS and not closed
            smaller = connections < 4 * CAPACITY_TABLES or rate < TARGET_ACKS
            print(f"  capacity target ({connections} clients, {rate:.0f} acks/s, p99 < "
                  f"{TARGET_P99_MS} ms): {'met' if met else 'NOT met'}"
                  f"{' (a smaller case than issue 16)' if smaller else ''}")
    return {"acks": achieved, "p50": p50, "p99": p99, "cpu": cpu_per_ack, "busy": busy,
            "total_acks": acks}


async def capture_game(ws_url: str, seats: list[tuple[str, str]],
                       moves: int) -> dict[str, Any]:
    """Play one table of four with the benchmark's clients' policy (each seat's first legal
    move, one in flight) for ``moves`` moves, recording every frame each seat receives:
    the script bench/bare_replay.py replays."""
    count = len(seats)
    welcome: list[str] = [""] * count
    snapshot: list[str] = [""] * count
    events: list[dict[int, str]] = [{} for _ in seats]
    all_in = asyncio.Barrier(count)
    enough = asyncio.Event()

    async def seat(index: int, table_id: str, token: str) -> None:
        async with connect(f"{ws_url}/ws/tables/{table_id}", max_size=2**20) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            latest: dict[str, Any] | None = None
            in_flight: str | None = None
            counter = 0
            while latest is None:  # the welcome, then the snapshot at version 0
                text = await ws.recv()
                frame = json.loads(text)
                if frame["type"] == "welcome":
                    welcome[index] = str(text)
                elif frame["type"] == "snapshot":
                    snapshot[index], latest = str(text), frame
            await all_in.wait()
            # The server's own bucket per socket (Settings.messages_per_second and
            # message_burst), kept a little under: one table alone moves faster than a
            # socket may send, and a refused move would stall the game.
            allowance, checked = 38.0, time.monotonic()
            while not enough.is_set():
                if in_flight is None and latest is not None and latest["view"]["legal"]:
                    now = time.monotonic()
                    allowance = min(38.0, allowance + (now - checked) * 19)
                    checked = now
                    if allowance < 1:
                        await asyncio.sleep((1 - allowance) / 19)
                        allowance, checked = 1.0, time.monotonic()
                    allowance -= 1
                    action = latest["view"]["legal"][0]
                    counter += 1
                    in_flight = f"c{counter}"
                    await ws.send(json.dumps({
                        "type": "action", "id": in_flight, "version": latest["version"],
                        "kind": action["kind"], "payload": action["payload"]}))
                    latest = None
                try:
                    text = await asyncio.wait_for(ws.recv(), 5)
                except TimeoutError:
                    enough.set()  # the game ended (or stalled): the script ends here
                    break
                frame = json.loads(text)
                if frame["type"] == "event":
                    events[index][frame["seq"]] = str(text)
                    latest = frame
                    if frame["seq"] >= moves:
                        enough.set()
                elif frame["type"] in ("ack", "error") and frame.get("id") == in_flight:
                    in_flight = None

    await asyncio.gather(*(seat(i, table_id, token)
                           for i, (table_id, token) in enumerate(seats)))
    played = 0
    while all(played + 1 in seen for seen in events):
        played += 1
    script: dict[str, Any] = {"welcome": welcome, "snapshot": snapshot, "moves": [],
                              "frames": []}
    version = json.loads(snapshot[0])["version"]
    for seq in range(1, played + 1):
        event = json.loads(events[0][seq])
        script["moves"].append((event["seat"], version, event["version"]))
        script["frames"].append([seen[seq] for seen in events])
        version = event["version"]
    return script


@contextmanager
def bare_serving(script: dict[str, Any], scratch: str
                 ) -> Iterator[tuple[str, str, subprocess.Popen[bytes]]]:
    """bench/bare_replay.py on a free loopback port, replaying ``script``."""
    path = Path(scratch) / "script.json"
    path.write_text(json.dumps(script))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("bare_replay.py")), str(port),
         str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                if httpx2.get(f"{url}/readyz").status_code == 200:
                    break
            except httpx2.HTTPError:
                time.sleep(0.1)
        yield url, ws_url, server
    finally:
        server.terminate()
        server.wait(timeout=30)


def server_log(log: Any) -> str:
    """The last lines the server wrote (to say why a phase failed)."""
    log.flush()
    log.seek(0)
    return "\n".join(log.read().decode(errors="replace").splitlines()[-40:])


def print_ratios(ours: list[dict[str, dict[str, float]]],
                 bare: list[dict[str, dict[str, float]]], rate: float, tables: int) -> None:
    """Our server's figures over the bare stack's, against issue 28's targets: each
    round's ratio, and over several rounds their median and range.

    The CPU target is flat out's, as the issue measured its 1.79x: both servers then do
    all they can, and CPU per move is what one move costs. Below capacity (at 1,000/s)
    the ratio is printed without a target: each move then pays alone for its wake-ups
    and its commit (about 1.8 moves a commit at 1,000/s, dozens flat out), which the
    bare stack, with no storage and nothing to wait for, never has."""
    rounds = f", median of {len(ours)} alternating rounds [lowest, highest]"
    print(f"twintable / bare stack (same clients, same run{rounds if len(ours) > 1 else ''}):")

    def ratio(phase: str, figure: str) -> str:
        each = [mine[phase][figure] / base[phase][figure]
                for mine, base in zip(ours, bare, strict=True)]
        spread = f" [{min(each):.2f}, {max(each):.2f}]" if len(each) > 1 else ""
        return f"{statistics.median(each):5.2f}x{spread}"

    for phase in ours[0]:
        busy = [f"{mine[phase]['busy']:.0%} / {base[phase]['busy']:.0%}"
                for mine, base in zip(ours, bare, strict=True)]
        print(f"  {phase:>12}: acks/s {ratio(phase, 'acks')}"
              f"{'  (target >= 0.80x)' if phase == 'flat out' else ''}, "
              f"CPU per ack {ratio(phase, 'cpu')}"
              f"{'  (target <= 1.30x)' if phase == 'flat out' else ''}, "
              f"p99 {ratio(phase, 'p99')}"
              f"{f'  (target <= 2.00x at {rate:.0f}/s)' if phase != 'flat out' else ''}; "
              f"machine busy (ours / bare) {', '.join(busy)}")
    for figures in bare:
        for phase, figure in figures.items():
            if figure["total_acks"] >= 0.95 * SCRIPT_MOVES * tables:
                print(f"  warning: the bare stack's {phase} phase ran near the end of its "
                      "script")



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int,
                        help=f"default 200; {CAPACITY_TABLES} with --capacity")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--rate", type=float, default=TARGET_ACKS,
                        help="acks/s offered in the second phase (0: skip it)")
    parser.add_argument("--client-processes", type=int,
                        help="default 2; 4 with --capacity")
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--capacity", action="store_true",
                        help=f"issue 16's capacity case: {CAPACITY_TABLES} tables x 4 clients "
                             "at --rate, no flat-out phase, memory per connection")
    parser.add_argument("--flat-out", action=argparse.BooleanOptionalAction,
                        help="run the flat-out phase (default: yes, but not with --capacity)")
    parser.add_argument("--freeze-client-gc", action=argparse.BooleanOptionalAction,
                        help="clients freeze their heap out of the cycle collector once "
                             "connected (default: only with --capacity)")
    parser.add_argument("--baseline", choices=["bare"],
                        help="also run the same clients against a bare FastAPI/uvicorn "
                             "replay of captured frames and print the ratios")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds of our server then the bare stack, alternating; the "
                             "ratios printed are their medians (one run's figures on a "
                             "shared machine move by +-15%%)")
    args = parser.parse_args()
    if args.tables is None:
        args.tables = CAPACITY_TABLES if args.capacity else 200
    if args.client_processes is None:
        args.client_processes = 4 if args.capacity else 2
    if args.flat_out is None:
        args.flat_out = not args.capacity
    if args.freeze_client_gc is None:
        args.freeze_client_gc = args.capacity
    raise_fd_limit()
    phases = ([0.0] if args.flat_out else []) + ([args.rate] if args.rate > 0 else [])

    def name(rate: float) -> str:
        return f"at {rate:.0f}/s" if rate > 0 else "flat out"

    ours: list[dict[str, dict[str, float]]] = []
    bare: list[dict[str, dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as scratch, \
            open(Path(scratch) / "server.log", "w+b") as log, ExitStack() as servers:
        url, ws_url, server = servers.enter_context(
            serving(args.db, scratch, ("--bot-delay-ms", "0"), log))
        if server.poll() is not None:
            raise SystemExit(f"the server did not start:\n{server_log(log)}")
        bare_url = bare_ws_url = ""
        bare_pid = 0
        if args.baseline == "bare":
            with httpx2.Client(base_url=url) as http:
                table = open_timo_tables(http, 1)
            script = asyncio.run(capture_game(ws_url, table, SCRIPT_MOVES))
            print(f"captured {len(script['moves'])} moves of one table for the bare stack")
            bare_url, bare_ws_url, bare_server = servers.enter_context(
                bare_serving(script, scratch))
            bare_pid = bare_server.pid
        # Rounds alternate our server and the bare stack, so that a slow spell of this
        # shared machine falls on both alike.
        for round_no in range(args.rounds):
            if args.rounds > 1:
                print(f"-- round {round_no + 1} of {args.rounds}")
            try:
                ours.append({name(rate): run_phase(url, ws_url, args, rate, server.pid)
                             for rate in phases})
            except Exception:
                print(f"the server's log ends:\n{server_log(log)}")
                raise
            if args.baseline == "bare":
                bare.append({name(rate): run_phase(bare_url, bare_ws_url, args, rate, bare_pid,
                                                   "bare") for rate in phases})
        if args.baseline == "bare":
            print_ratios(ours, bare, args.rate, args.tables)

if __name__ == "__main__":
    main()
