"""Benchmark: honest tables while other tables attack the server (issue #16).

One server process. Four honest Timo tables of 4 WebSocket clients play at a set pace
(open loop, as in ``bench/server_timo.py``); in the attacked phase, 10 more tables each
have a client sending hostile frames as fast as the rate limit lets it: its legal move
with an extra ``"x": NaN`` (the attack that used to fail other tables' moves on
PostgreSQL), with a lone surrogate, 450-deep nesting or a 15 KB string in an extra key,
a legal move whose id holds a NUL, a 5,000-digit number, 5,000-deep nesting, binary
garbage; every fifth frame is the attacker's clean legal move, so attackers' rows share
the log's group commits with the honest ones.

Phases, each on fresh tables: without attackers, with attackers, without attackers
again. It prints the honest tables' acknowledged moves per second with attackers against
the mean of the two runs without (target: within 10%), their action-to-ack latency, and
their refused moves by code (target: 0; ``action.stale`` is a race between honest
players at the same table, in every phase alike, and is shown apart).

Usage: python bench/server_attack.py [--seconds 10] [--honest-rate 100,0]
       [--attackers 10] [--attack-rate 18] [--db postgresql://127.0.0.1/test] [--log FILE]

On PostgreSQL, use a database no test run resets meanwhile: the tests' ``db_url`` fixture
drops the ``test`` schema, and the moves of a server running there then fail.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import statistics
import tempfile
import time
from collections import Counter
from typing import Any

import httpx2
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from serving import open_timo_tables, serving

HONEST_TABLES = 4
TARGET_RATIO, TARGET_REFUSED = 0.90, 0


def hostile_frames(move: dict[str, Any], version: int, n: int) -> list[str | bytes]:
    """One cycle of the attack, made from the attacker's current legal move."""
    legal = json.dumps({"type": "action", "id": f"x{n}", "version": version,
                        "kind": move["kind"], "payload": move["payload"]})

    def extra(value: str) -> str:
        payload = json.dumps(move["payload"])
        inner = payload[1:-1]
        with_extra = "{" + (inner + ", " if inner else "") + f'"x": {value}}}'
        return legal.replace(f'"payload": {payload}', f'"payload": {with_extra}')

    return [extra("NaN"), extra('"\\ud800"'), extra("[" * 450 + "]" * 450),
            extra('"' + "y" * 15_000 + '"'),
            legal.replace(f'"id": "x{n}"', f'"id": "x{n}\\u0000"'),
            '{"type": "ping", "n": ' + "9" * 5_000 + "}", "[" * 5_000 + "]" * 5_000,
            os.urandom(64)]


async def honest_seat(url: str, table_id: str, token: str, start: float, until: float,
                      interval: float, out: dict[str, Any]) -> None:
    """Play one seat; the move at version v is due at ``start + v * interval``."""
    latest: dict[str, Any] | None = None
    in_flight: str | None = None
    sent_at = 0.0
    counter = 0
    loop = asyncio.get_running_loop()
    with contextlib.suppress(TimeoutError):
        async with connect(f"{url}/ws/tables/{table_id}", max_size=2**22) as ws, \
                asyncio.timeout_at(loop.time() + until - time.monotonic()):
            await ws.send(json.dumps({"type": "hello", "token": token}))
            while True:
                frame = json.loads(await ws.recv())
                kind = frame["type"]
                if kind in ("snapshot", "event"):
                    latest = frame
                elif kind in ("ack", "error") and frame.get("id") == in_flight:
                    if kind == "ack":
                        out["acks"] += 1
                        out["latencies"].append(time.monotonic() - sent_at)
                    else:
                        out["refused"][frame["code"]] += 1
                    in_flight = None
                elif kind == "error":
                    out["refused"][frame["code"]] += 1
                if in_flight is None and latest is not None and latest["view"]["legal"]:
                    # Never past the server's 20 messages a second per connection: a
                    # refusal here would be the client's own doing, not the attack's.
                    due = max(start + latest["version"] * interval, sent_at + 1 / 19)
                    if due > time.monotonic():
                        await asyncio.sleep(due - time.monotonic())
                    action = latest["view"]["legal"][0]
                    counter += 1
                    in_flight = f"h{counter}"
                    sent_at = time.monotonic()
                    await ws.send(json.dumps({
                        "type": "action", "id": in_flight, "version": latest["version"],
                        "kind": action["kind"], "payload": action["payload"]}))
                    latest = None


async def attacker(url: str, table_id: str, token: str, start: float, until: float,
                   rate: float, out: dict[str, Any]) -> None:
    """Send the attack cycle at ``rate`` frames a second; read every answer."""
    latest: dict[str, Any] = {"version": 0, "view": {"legal": []}}
    loop = asyncio.get_running_loop()
    try:
        async with connect(f"{url}/ws/tables/{table_id}", max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))

            async def read() -> None:
                nonlocal latest
                async for text in ws:
                    frame = json.loads(text)
                    if frame["type"] in ("snapshot", "event"):
                        latest = frame
                    elif frame["type"] in ("ack", "error", "pong"):
                        out["answers"][frame.get("code") or frame["type"]] += 1

            reader = asyncio.create_task(read())
            await asyncio.sleep(max(0.0, start - time.monotonic()))
            n = 0
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout_at(loop.time() + until - time.monotonic()):
                    while True:
                        legal = latest["view"]["legal"]
                        move = legal[0] if legal else {"kind": "draw", "payload": {}}
                        cycle = hostile_frames(move, latest["version"], n)
                        frame = cycle[n % len(cycle)]
                        if n % 5 == 4:  # a clean move, or a ping when it is not our turn
                            frame = (json.dumps({"type": "action", "id": f"c{n}",
                                                 "version": latest["version"],
                                                 "kind": move["kind"],
                                                 "payload": move["payload"]})
                                     if legal else '{"type": "ping"}')
                        else:
                            out["hostile"] += 1
                        n += 1
                        await ws.send(frame)
                        await asyncio.sleep(1 / rate)
            await asyncio.sleep(0.5)  # the last answers
            reader.cancel()
    except ConnectionClosed as closed:
        out["closed"] += 1
        out["answers"][f"closed {closed.rcvd.code if closed.rcvd else '?'}"] += 1


def client_process(role: str, url: str, seats: list[tuple[str, str]], start: float,
                   seconds: float, pace: float, results: Any) -> None:
    async def run() -> dict[str, Any]:
        out: dict[str, Any] = {"acks": 0, "latencies": [], "refused": Counter(),
                               "hostile": 0, "answers": Counter(), "closed": 0}
        if role == "honest":
            await asyncio.gather(*(honest_seat(url, table_id, token, start, start + seconds,
                                               pace, out) for table_id, token in seats))
        else:
            await asyncio.gather(*(attacker(url, table_id, token, start, start + seconds,
                                            pace, out) for table_id, token in seats))
        return out

    try:
        import uvloop
    except ImportError:
        results.put((role, asyncio.run(run())))
    else:
        results.put((role, uvloop.run(run())))


def attacking_tables(http: httpx2.Client, count: int) -> list[tuple[str, str]]:
    seats = []
    for _ in range(count):  # the attacker and a bot
        joined = http.post("/api/tables", json={
            "game": "timo", "players": 2, "display_name": "Mallory",
            "options": {"target": 100_000}}).json()
        http.post(f"/api/tables/{joined['table']['id']}/start",
                  headers={"Authorization": f"Bearer {joined['token']}"})
        seats.append((joined["table"]["id"], joined["token"]))
    return seats


def run_phase(url: str, ws_url: str, args: argparse.Namespace, rate: float,
              attackers: int) -> dict[str, Any]:
    with httpx2.Client(base_url=url) as http:
        honest = open_timo_tables(http, HONEST_TABLES)
        attacking = attacking_tables(http, attackers)
    results: Any = multiprocessing.Queue()
    start = time.monotonic() + 3.0  # everyone connects first
    interval = HONEST_TABLES / rate if rate > 0 else 0.0
    roles = [("honest", honest, interval)]
    if attacking:
        roles.append(("attack", attacking, args.attack_rate))
    processes = [multiprocessing.Process(target=client_process, args=(
        role, ws_url, seats, start, args.seconds, pace, results))
        for role, seats, pace in roles]
    for process in processes:
        process.start()
    outs = dict(results.get() for _ in processes)
    for process in processes:
        process.join()
    honest_out = outs["honest"]
    latencies = sorted(honest_out["latencies"])
    refused: Counter[str] = honest_out["refused"]
    phase = {"acks_s": honest_out["acks"] / args.seconds,
             "p50": statistics.median(latencies) * 1000 if latencies else float("nan"),
             "p99": (latencies[max(0, int(len(latencies) * 0.99) - 1)] * 1000
                     if latencies else float("nan")),
             "refused": refused, "attack": outs.get("attack")}
    title = f"with {attackers} attacking tables" if attackers else "without attackers"
    pace = f"{rate:.0f} moves/s offered" if rate > 0 else "flat out"
    print(f"{HONEST_TABLES} honest tables x 4 clients, {pace}, {title}:")
    print(f"  honest acks/s            : {phase['acks_s']:8.1f}")
    print(f"  honest action to ack p50 : {phase['p50']:8.1f} ms, p99 {phase['p99']:.1f} ms")
    print(f"  honest moves refused     : {dict(refused) or 0}")
    if phase["attack"] is not None:
        attack = phase["attack"]
        print(f"  hostile frames sent      : {attack['hostile']} "
              f"({attack['hostile'] / args.seconds:.0f}/s), sockets closed by the server: "
              f"{attack['closed']}")
        print(f"  attackers' answers       : {dict(attack['answers'].most_common())}")
    return phase


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--honest-rate", default="100,0",
                        help="honest moves a second offered over the 4 honest tables, one "
                             "run per comma-separated value (0: as fast as they can)")
    parser.add_argument("--attackers", type=int, default=10)
    parser.add_argument("--attack-rate", type=float, default=18.0,
                        help="frames a second per attacker (the server allows 20)")
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--log", help="keep the server's log in this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        log_path = args.log or f"{scratch}/server.log"
        with open(log_path, "wb") as log, serving(
                args.db, scratch, ("--bot-delay-ms", "0"), log) as (url, ws_url, _):
            print(f"{args.db.split(':')[0] if args.db else 'SQLite'}, {args.seconds:.0f} s "
                  f"a phase; load average before: {os.getloadavg()[0]:.1f} on "
                  f"{os.cpu_count()} cores")
            runs = []
            for rate in (float(value) for value in args.honest_rate.split(",")):
                before = run_phase(url, ws_url, args, rate, 0)
                attacked = run_phase(url, ws_url, args, rate, args.attackers)
                after = run_phase(url, ws_url, args, rate, 0)
                runs.append((rate, before, attacked, after))
        with open(log_path, "rb") as written:
            server_log = written.read()
    print("Summary (with attackers against the mean of the runs before and after)")
    for rate, before, attacked, after in runs:
        baseline = (before["acks_s"] + after["acks_s"]) / 2
        ratio = attacked["acks_s"] / baseline if baseline else float("nan")
        p99 = attacked["p99"] / ((before["p99"] + after["p99"]) / 2)
        refused = sum(n for code, n in attacked["refused"].items() if code != "action.stale")
        print(f"  {f'{rate:.0f} moves/s offered' if rate > 0 else 'flat out'}: honest "
              f"throughput ratio {ratio:.3f} (target >= {TARGET_RATIO:.2f}: "
              f"{'met' if ratio >= TARGET_RATIO else 'MISSED'}), ack p99 ratio {p99:.2f}, "
              f"honest moves refused (action.stale races apart) {refused} "
              f"(target {TARGET_REFUSED}: {'met' if refused <= TARGET_REFUSED else 'MISSED'})")
    print(f"  server log: {len(server_log):,} bytes, "
          f"{server_log.count(b'Traceback'):,} tracebacks, "
          f"{server_log.count(b'storage.failed') + server_log.count(b'could not append'):,} "
          "failed appends")


if __name__ == "__main__":
    main()
