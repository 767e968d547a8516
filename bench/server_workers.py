"""Benchmark: the same load against `twintable serve --workers 1` and `--workers 2`
(PostgreSQL + Redis for both, so the only difference is the second worker), in one run.

The load is `twintable loadtest`'s harness (src/twintable/loadtest/): scripted people in
their own processes open tables through the lobby, play real games over the WebSocket
protocol and start new tables when games end. For each server it reports acknowledged
moves per second, p50/p99 from sending a move to its ack, server CPU per acknowledged
move (user + system time of the server's whole process tree, read from /proc, over the
run: lobby and play), the load processes' own CPU per move and that of PostgreSQL and
Redis (machine-wide: on a shared machine others' queries count too), the Redis commands
per move (what crossing workers costs: leases, lobby, forwarded frames), how busy the whole
machine was (every process, the kernel's own work included); then the ratios of
2 workers to 1, against the targets (throughput >= 1.4x, CPU per move within 15%).

The default rate is far above what one worker acknowledges, and there are enough tables
that the people's own pace (each seat waits for its answer, and sends at most 20 moves a
second) does not cap it either: each server runs flat out and the throughput ratio is a
capacity ratio. On a 2-core machine the load processes share the cores with the workers:
their CPU per move is printed so that the ratios can be read against it, with the most
that 2 workers could do on this machine if crossing workers cost nothing: all its cores
divided by the 1-worker run's CPU per move of the servers, the load and the services
together (one worker alone can use one core only).

Flat out, each of two workers does half the work of one, and a process that does less
batches less (fewer moves per database statement and per wake-up), so its CPU per move
is higher whatever crossing workers costs. The last two runs separate the two: one
worker at 40 % of its flat-out throughput and two workers at twice that rate, the same
load per worker, so their CPU per move differs only by what crossing workers costs.

The figures of moves (throughput, CPU per move, Redis commands, the machine's busy share,
the caps' use) are of the steady play after ``--warmup`` seconds, in which the people open
their tables and connect: that work is per table, not per move, and counted in the run it
made a capped lone worker look slower per move than each of several (ratios above the
number of workers). Latency percentiles and games are of the whole run.

Each server gets a scratch PostgreSQL database of its own (made on the server given by
--db, dropped afterwards; --no-scratch-db uses --db as it is) and a Redis key prefix of
its own, so runs neither see each other's tables nor other users'.
Usage: python bench/server_workers.py [--tables 100] [--clients-per-table 4] [--rate 5000]
       [--seconds 15] [--warmup 10] [--game timo] [--option key=value] [--processes 1]
       [--workers 1 2] [--rounds 3] [--no-same-load]
       [--db postgresql+asyncpg://postgres@127.0.0.1:5432/test]
       [--redis redis://127.0.0.1:6379/0] [--json out.json] [--logs DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx2

from cpu_caps import CpuCap, why_not
from serving import serving
from twintable.loadtest.harness import prepare, run_load

TARGET_THROUGHPUT_RATIO, TARGET_CPU_RATIO = 1.4, 1.15
#: With every worker capped at the same CPU share, the throughput each count should reach
#: as a multiple of one worker's.
CAPPED_TARGETS = {2: 1.7, 3: 2.3}
#: The same-load runs give each worker this share of one worker's flat-out throughput.
SAME_LOAD_SHARE = 0.4
TICKS = os.sysconf("SC_CLK_TCK")


def tree_cpu_s(root: int) -> dict[int, float]:
    """User + system CPU seconds of ``root`` and of every process below it, now, by pid."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # ended meanwhile
        # The command name may hold spaces and parentheses: fields follow the last ")".
        fields = stat[stat.rindex(")") + 2:].split()
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        times[pid] = (int(fields[11]) + int(fields[12])) / TICKS
    tree, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        tree.update(children)
        frontier.extend(children)
    return {pid: times[pid] for pid in tree if pid in times}


def worker_pids(server: int, workers: int) -> list[int]:
    """The worker processes of a ``serve --workers N`` (itself for one worker): the
    supervisor's children that multiprocessing spawned, once every one of them is up."""
    if workers == 1:
        return [server]
    deadline = time.monotonic() + 30
    while True:
        found = []
        for entry in Path("/proc").iterdir():
            try:
                stat = (entry / "stat").read_text() if entry.name.isdigit() else ""
                command = (entry / "cmdline").read_bytes() if stat else b""
            except OSError:
                continue
            if stat and int(stat[stat.rindex(")") + 2:].split()[1]) == server \
                    and b"spawn_main" in command:
                found.append(int(entry.name))
        if len(found) == workers:
            return sorted(found)
        if time.monotonic() > deadline:
            raise SystemExit(f"found {len(found)} worker processes of {workers}")
        time.sleep(0.1)


def services_cpu_s() -> dict[int, float]:
    """CPU seconds of every PostgreSQL and Redis process on the machine, now, by pid
    (whoever else uses them on a shared machine is counted too)."""
    found: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text() if entry.name.isdigit() else ""
        except OSError:
            continue
        if stat[stat.find("(") + 1:stat.rfind(")")].startswith(("postgres", "redis-server")):
            fields = stat[stat.rindex(")") + 2:].split()
            found[int(entry.name)] = (int(fields[11]) + int(fields[12])) / TICKS
    return found


def cpu_since(before: dict[int, float], after: dict[int, float]) -> dict[int, float]:
    """CPU seconds each process used between two readings (a process that ended in
    between is left out: its time is gone from /proc)."""
    return {pid: cpu - before.get(pid, 0.0) for pid, cpu in after.items()}


def machine_ticks() -> tuple[int, int]:
    """Busy and total clock ticks of every core since boot (/proc/stat's first line)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and waiting for I/O
    return sum(fields) - idle, sum(fields)


def redis_commands(url: str) -> int:
    """Commands the Redis server has run since it started (every client's)."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        return int(client.info("stats")["total_commands_processed"])
    finally:
        client.close()


def load_cpu_s() -> float:
    """CPU seconds of this process's finished children (the load processes, once joined)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@contextmanager
def scratch_database(url: str, name: str, wanted: bool) -> Iterator[str]:
    """A new, empty database on ``url``'s server, dropped afterwards (or ``url`` itself)."""
    if not wanted:
        yield url
        return
    import asyncpg

    parts = urlsplit(url)
    plain = urlunsplit(("postgresql", parts.netloc, parts.path, "", ""))

    async def run(statement: str) -> None:
        connection = await asyncpg.connect(plain)
        try:
            await connection.execute(statement)
        finally:
            await connection.close()

    asyncio.run(run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    asyncio.run(run(f'CREATE DATABASE "{name}"'))
    try:
        yield urlunsplit((parts.scheme, parts.netloc, f"/{name}", "", ""))
    finally:
        asyncio.run(run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def drop_redis_keys(url: str, prefix: str) -> None:
    """Remove what a run left in Redis under its own prefix (fencing counters...)."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        for chunk in _chunks(client.scan_iter(match=f"{prefix}*", count=1000), 500):
            client.delete(*chunk)
    finally:
        client.close()


def _chunks(items: Iterator[Any], size: int) -> Iterator[list[Any]]:
    chunk: list[Any] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def wait_until_every_worker_answers(url: str, checks: int = 20) -> None:
    """``/readyz`` answered by whichever worker took the connection: ask a few times in
    a row, on fresh connections, so that a second worker still starting is waited for."""
    in_a_row, deadline = 0, time.monotonic() + 60
    while in_a_row < checks and time.monotonic() < deadline:
        try:
            ok = httpx2.get(f"{url}/readyz", timeout=2).status_code == 200
        except httpx2.HTTPError:
            ok = False
        in_a_row = in_a_row + 1 if ok else 0
        time.sleep(0.05)


def one_server(args: argparse.Namespace, workers: int, scratch: str) -> dict[str, Any]:
    name = f"twintable_bench_{os.getpid()}_w{workers}"
    with ExitStack() as stack, scratch_database(args.db, name, args.scratch_db) as db:
        extra = ["--workers", str(workers), "--redis", args.redis, "--redis-prefix",
                 f"{name}:", "--bot-delay-ms", "0"]
        stack.callback(drop_redis_keys, args.redis, f"{name}:")
        logs = args.logs or Path(scratch)
        with open(logs / f"server-w{workers}.log", "wb") as log, \
                serving(db, scratch, extra, log) as (url, _ws_url, server):
            wait_until_every_worker_answers(url)
            if server.poll() is not None:
                raise SystemExit(f"the {workers}-worker server ended; see {log.name}")
            caps = []
            if args.cpu_share:
                # Each worker alone in a cgroup capped at the same share of a core; the
                # load, PostgreSQL and Redis have the rest of the machine.
                for n, pid in enumerate(worker_pids(server.pid, workers)):
                    cap = CpuCap(f"{name}_{n}", args.cpu_share)
                    stack.callback(cap.remove)
                    cap.add(pid)
                    caps.append(cap)
            plan = prepare(url, args.game, args.tables, args.clients_per_table, args.rate,
                           args.warmup + args.seconds, args.processes,
                           options=table_options(args.option))
            before: dict[str, Any] = {}

            def measure_from_here(elapsed: float, acks: int) -> None:
                before.update(elapsed=elapsed, acks=acks, server=tree_cpu_s(server.pid),
                              load=load_cpu_s(), services=services_cpu_s(),
                              ticks=machine_ticks(), commands=redis_commands(args.redis),
                              caps=[(cap.usage_s(), cap.throttling()) for cap in caps])

            def after_warmup(elapsed: float, totals: Any) -> None:
                # The people open their tables, sit down and connect at the start: work per
                # table, not per move, and a capped lone worker spends seconds of its run
                # on it. The figures are of the steady play after it.
                if not before and elapsed >= args.warmup:
                    measure_from_here(elapsed, totals.acks)

            if args.warmup <= 0:
                measure_from_here(0.0, 0)
            report = run_load(plan, on_progress=after_warmup)
            if not before:
                raise SystemExit(f"the run ended before its {args.warmup:g} s warm-up")
            server_before, load_before = before["server"], before["load"]
            services_before = before["services"]
            busy_before, total_before = before["ticks"]
            commands_before = before["commands"]
            caps_before = before["caps"]
            report["elapsed_s"] = round(report["elapsed_s"] - before["elapsed"], 3)
            report["moves_acknowledged"] -= before["acks"]
            report["moves_per_s"] = round(report["moves_acknowledged"]
                                          / max(report["elapsed_s"], 1e-9), 2)
            caps_after = [(cap.usage_s(), cap.throttling()) for cap in caps]
            commands = redis_commands(args.redis) - commands_before
            busy_after, total_after = machine_ticks()
            server_after = tree_cpu_s(server.pid)
            load_cpu = load_cpu_s() - load_before
            services_cpu = sum(cpu_since(services_before, services_cpu_s()).values())
    # Per process: how the work spread over the workers (the supervisor does little).
    used = cpu_since(server_before, server_after)
    by_process = sorted((round(cpu, 2) for cpu in used.values()), reverse=True)
    server_cpu = sum(used.values())
    acks = max(report["moves_acknowledged"], 1)
    capped: dict[str, Any] = {}
    if caps:
        # The workers' time as the cgroups counted it (the supervisor's, outside them,
        # from /proc), and the share of the quota's periods in which a worker was held
        # back: near 1, the cap is what limits it.
        usages = [after[0] - before[0] for before, after in zip(caps_before, caps_after,
                                                                  strict=True)
                  if before[0] is not None and after[0] is not None]
        if len(usages) == len(caps):
            supervisor = used.get(server.pid, 0.0) if workers > 1 else 0.0
            server_cpu = sum(usages) + supervisor
            by_process = sorted((round(u, 2) for u in usages), reverse=True)
        periods = [after[1][0] - before[1][0] for before, after in zip(caps_before, caps_after,
                                                                         strict=True)]
        throttled = [after[1][1] - before[1][1] for before, after in zip(caps_before,
                                                                           caps_after,
                                                                           strict=True)]
        capped = {"cpu_share": args.cpu_share,
                  "throttled_share": [round(t / max(p, 1), 2)
                                      for t, p in zip(throttled, periods, strict=True)],
                  "worker_cores": [round(u / max(report["elapsed_s"], 1e-9), 3)
                                   for u in usages] if len(usages) == len(caps) else []}
    return report | capped | {"workers": workers, "server_cpu_s": round(server_cpu, 3),
                     "server_cpu_s_by_process": by_process,
                     "server_cpu_ms_per_move": round(1000 * server_cpu / acks, 4),
                     "load_cpu_s": round(load_cpu, 3),
                     "load_cpu_ms_per_move": round(1000 * load_cpu / acks, 4),
                     "postgres_redis_cpu_ms_per_move": round(1000 * services_cpu / acks, 4),
                     "redis_commands_per_move": round(commands / acks, 3),
                     "machine_busy": round((busy_after - busy_before)
                                           / max(total_after - total_before, 1), 3)}


def table_options(pairs: list[str] | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, _, raw = pair.partition("=")
        try:
            options[key] = json.loads(raw)
        except ValueError:
            options[key] = raw
    return options


def throughput_bound(base: dict[str, Any], workers: int) -> float | None:
    """The most ``workers`` workers could acknowledge, as a multiple of ``base`` (one
    worker), if each move cost the whole machine what it did in the base run: the cores
    (as many as the workers at most) over the CPU per move of the servers, the load and
    PostgreSQL + Redis."""
    per_move_ms = (base["server_cpu_ms_per_move"] + base["load_cpu_ms_per_move"]
                   + base["postgres_redis_cpu_ms_per_move"])
    cores = os.cpu_count() or 1
    # The load and the services need their share even when the workers alone could use
    # every core; the workers themselves can use at most one core each.
    # Capped, each worker can do at most what the one capped worker did.
    alone = (workers * base["moves_per_s"] if base.get("cpu_share")
             else workers * 1000 / base["server_cpu_ms_per_move"])
    bound = min(cores * 1000 / per_move_ms, alone)
    return ratio(bound, base["moves_per_s"])


def ratio(new: float | None, base: float | None) -> float | None:
    return None if not new or not base else round(new / base, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--clients-per-table", type=int, default=4)
    parser.add_argument("--rate", type=float, default=5000.0)
    parser.add_argument("--seconds", type=float, default=15.0,
                        help="How long the figures are measured, after the warm-up.")
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="Seconds of play before the figures start (the people open "
                             "their tables and connect then); 0 measures from the start.")
    parser.add_argument("--game", default="timo")
    parser.add_argument("--option", action="append",
                        help="A table option, key=value (default: the harness's).")
    # One load process: it keeps up with two workers here and costs less CPU per move
    # than two (it is busier), which leaves more of the cores to the servers.
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=3,
                        help="Runs of every server, alternating; the ratios' medians too.")
    parser.add_argument("--same-load", action=argparse.BooleanOptionalAction, default=True,
                        help="Then 1 worker and N workers at the same load per worker.")
    parser.add_argument("--db", default=os.environ.get(
        "TWINTABLE_TEST_POSTGRES", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--scratch-db", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--cpu-share", type=float,
                        help="Cap every worker at this share of one core (a cgroup each; "
                             "needs root), e.g. 0.4; the load and the services get the rest.")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--logs", type=Path, help="Keep the servers' logs in this folder.")
    args = parser.parse_args()
    if args.cpu_share is not None:
        if not 0 < args.cpu_share <= 1:
            raise SystemExit("--cpu-share takes a share of one core: 0 < share <= 1")
        if (reason := why_not()) is not None:
            print(f"skipped: cannot cap the workers' CPU here: {reason}")
            return
        if args.workers == [1, 2]:  # the default: with caps, 3 workers too
            args.workers = [1, 2, 3]
    print(f"{args.tables} {args.game} tables x {args.clients_per_table} people, "
          f"{args.rate:g} moves/s asked, {args.seconds:g} s, {args.processes} load processes, "
          f"{os.cpu_count()} cores"
          + (f", each worker capped at {args.cpu_share:g} of a core" if args.cpu_share else ""),
          flush=True)
    runs = []
    summary: dict[str, Any] = {"runs": runs, "ratios": [], "medians": {}}
    with tempfile.TemporaryDirectory() as scratch:
        # Rounds alternate the servers, so that a noisy neighbour slows both alike.
        for round_number in range(1, args.rounds + 1):
            in_round = []
            for workers in args.workers:
                run = one_server(args, workers, scratch) | {"round": round_number}
                in_round.append(run)
                print_run(run)
            runs.extend(in_round)
            base, *others = in_round
            for run in others:
                ratios = compare(run, base)
                summary["ratios"].append(ratios)
                print_ratios(ratios)
        if args.same_load and len(args.workers) > 1:
            summary["same_load_per_worker"] = same_load_per_worker(args, runs, scratch)
    if args.rounds > 1:
        for workers in args.workers[1:]:
            mine = [r for r in summary["ratios"] if r["workers"].startswith(f"{workers} ")]
            medians = {name: statistics.median(r[name] for r in mine if r[name] is not None)
                       for name in ("throughput", "throughput_bound", "p99",
                                    "server_cpu_per_move")}
            summary["medians"][mine[0]["workers"]] = medians
            print_ratios({"workers": f"median of {args.rounds} rounds, {mine[0]['workers']}",
                          "target": mine[0]["target"], **medians})
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2) + "\n")
    if any(run["errors"] for run in runs):
        sys.exit(1)


def same_load_per_worker(args: argparse.Namespace, runs: list[dict[str, Any]],
                         scratch: str) -> dict[str, Any]:
    """One worker at a rate it carries easily, and N workers at N times that rate: the
    same load per worker, so the CPU per move differs only by what crossing workers
    costs (flat out, each of N workers also does 1/N of the work of one, and a process
    that does less batches less: fewer moves per database statement, per wake-up)."""
    one = statistics.median(r["moves_per_s"] for r in runs if r["workers"] == 1)
    rate = round(SAME_LOAD_SHARE * one)
    paced = []
    for workers in (1, args.workers[-1]):
        run = one_server(argparse.Namespace(**{**vars(args), "rate": rate * workers}),
                         workers, scratch)
        print_run(run)
        paced.append(run)
    ratios = compare(paced[1], paced[0])
    print(f"the same load per worker ({rate} moves/s each): server CPU per move "
          f"x{ratios['server_cpu_per_move']:.3g} (the cost of crossing workers; target <= "
          f"{TARGET_CPU_RATIO}), p99 x{ratios['p99']:.3g}", flush=True)
    return {"rate_per_worker": rate, "runs": paced, "ratios": ratios}


def print_run(run: dict[str, Any]) -> None:
    latency = run["latency_ms"]
    print(f"{run['workers']} worker(s): {run['moves_per_s']:8.1f} acked moves/s  "
          f"p50 {latency['p50']} ms  p99 {latency['p99']} ms  "
          f"server CPU {run['server_cpu_ms_per_move']:.3f} ms/move  "
          f"load CPU {run['load_cpu_ms_per_move']:.3f} ms/move  "
          f"PostgreSQL+Redis CPU {run['postgres_redis_cpu_ms_per_move']:.3f} ms/move  "
          f"Redis commands {run['redis_commands_per_move']:.2f}/move  "
          f"machine busy {run['machine_busy']:.0%}  "
          f"games {run['games_finished']}  errors {run['errors'] or 'none'}  "
          f"server CPU s by process {run['server_cpu_s_by_process']}"
          + (f"  capped at {run['cpu_share']:g} core each: used {run['worker_cores']} of a "
             f"core, throttled in {run['throttled_share']} of periods"
             if run.get("cpu_share") else ""), flush=True)


def compare(run: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    return {
        "workers": f"{run['workers']} vs {base['workers']}",
        "target": (CAPPED_TARGETS.get(run["workers"]) if run.get("cpu_share")
                   else TARGET_THROUGHPUT_RATIO),
        "throughput": ratio(run["moves_per_s"], base["moves_per_s"]),
        "throughput_bound": throughput_bound(base, run["workers"]),
        "p99": ratio(run["latency_ms"]["p99"], base["latency_ms"]["p99"]),
        "server_cpu_per_move": ratio(run["server_cpu_ms_per_move"],
                                     base["server_cpu_ms_per_move"]),
    }


def _times(value: float | None) -> str:
    """A ratio, or what stands for one that could not be taken (a run acknowledged none)."""
    return "x-" if value is None else f"x{value:.3g}"


def print_ratios(ratios: dict[str, Any]) -> None:
    print(f"{ratios['workers']}: throughput {_times(ratios['throughput'])} "
          f"(target >= {ratios.get('target')}; at most {_times(ratios['throughput_bound'])} "
          f"on {os.cpu_count()} cores if crossing workers cost nothing), "
          f"p99 {_times(ratios['p99'])}, server CPU per move "
          f"{_times(ratios['server_cpu_per_move'])} (target <= {TARGET_CPU_RATIO})", flush=True)


if __name__ == "__main__":
    main()
