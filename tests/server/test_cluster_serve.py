"""``twintable serve --workers N``: N worker processes on one port serve one platform (a
client's connection lands on either; new tables are shared between them; a client that
follows redirects is sent to the table's worker's own port, any other is served through
it), and the command refuses what cannot work with one line before starting anything."""

from __future__ import annotations

import asyncio
import json
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
from typer.testing import CliRunner
from websockets.asyncio.client import connect

from tests.server.client import free_port_run
from tests.server.test_cluster_faults import (
    ONE_MACHINE,
    Worker,
    check_logs,
    database,  # noqa: F401 (a fixture)
    open_tables,
    play_all,
    services,  # noqa: F401 (a fixture)
    unfinished,
)
from twintable.cli import app
from twintable.loadtest.harness import prepare, run_load


def children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in found]


async def first_answer(url: str, token: str) -> dict[str, str]:
    """The first frame a hello that follows redirects gets at ``url``."""
    async with connect(url, proxy=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "redirects": True}))
        return json.loads(await ws.recv())  # type: ignore[no-any-return]


async def where_tables_run(port: int, own_ports: list[int],
                           tables: list[dict[str, Any]]) -> list[int]:
    """Each table's worker, by its own port. From the shared port or from a worker's own
    port, a client that follows redirects is served at once or sent (``moved``) to the
    table's worker's own port, and served there."""
    found = []
    for table in tables:
        owner = None
        for start in (port, own_ports[0]):
            url = f"ws://127.0.0.1:{start}/ws/tables/{table['id']}"
            answer = await first_answer(url, table["token"])
            if answer["type"] == "moved":
                url = answer["url"]
                answer = await first_answer(url, table["token"])
            assert answer["type"] == "welcome", answer
            if start != port:
                owner = int(url.split(":")[2].split("/")[0])
        assert owner in own_ports
        found.append(owner)
    return found


async def talk_across_workers(owner_url: str, other_url: str, host: str, guest: str) -> None:
    """A table's talk reaches its clients on either worker: a seated guest and a
    spectator served through the worker that does not run the table (no redirects)
    chat and react; the host, on the table's own worker, hears the guest but not the
    spectator, who hears everyone."""
    async def until(ws: Any, kind: str) -> dict[str, Any]:
        while (frame := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != kind:
            pass
        return frame  # type: ignore[no-any-return]

    async with connect(owner_url, proxy=None) as at_home, \
            connect(other_url, proxy=None) as afar, connect(other_url, proxy=None) as watcher:
        for ws, token in ((at_home, host), (afar, guest), (watcher, None)):
            await ws.send(json.dumps({"type": "hello", "token": token}))
            await until(ws, "welcome")
        await afar.send(json.dumps({"type": "chat", "text": "hello from afar"}))
        line = (await until(at_home, "chat"))["lines"][0]
        assert (line["text"], line["channel"]) == ("hello from afar", "players")
        await watcher.send(json.dumps({"type": "react", "emote": "👏", "name": "Cy"}))
        heard = [(await until(watcher, "chat"))["lines"][0] for _ in range(2)]
        assert [(x["text"] or x["emote"], x["channel"]) for x in heard] == [
            ("hello from afar", "players"), ("👏", "spectators")]
        await at_home.send(json.dumps({"type": "chat", "text": "and back"}))
        assert (await until(at_home, "chat"))["lines"][0]["text"] == "and back"
        assert [(await until(afar, "chat"))["lines"][0]["text"] for _ in range(2)] == [
            "hello from afar", "and back"]


def test_two_workers_on_one_port_play_every_table_to_its_end(
        database: str, tmp_path: Path) -> None:  # noqa: F811 (the fixture)
    port = free_port_run(3)  # the shared port, then one of its own per worker
    log = tmp_path / "serve.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve", "--workers", "2", "--port",
         str(port), "--db", database, "--redis", "redis://127.0.0.1:6379/13",
         "--redis-prefix", f"tt-test-{secrets.token_hex(4)}:", "--lease-ttl-ms", "1500",
         "--bot-delay-ms", "15", "--log-level", "info",
         # Every scripted person is this machine: one address's allowance, now shared by
         # both workers, would stand for the whole crowd.
         *ONE_MACHINE],
        stdout=log.open("wb"), stderr=subprocess.STDOUT)
    server = Worker(port, log, process)
    try:
        # Both workers answer on their own ports (the shared one answers as soon as one
        # of them is up, and tables made then would all go to it).
        own_ports = [port + 1, port + 2]
        deadline = time.monotonic() + 40
        while not (server.ready() and len(children(process.pid)) >= 2
                   and all(Worker(own, log, process).ready() for own in own_ports)):
            assert process.poll() is None, log.read_text()[-2000:]
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.2)
        workers = children(process.pid)
        tables = open_tables([server], 6, people=4)
        # Either worker lists the tables of both.
        running = httpx2.get(f"{server.base}/api/tables?status=running").json()
        assert sorted(info["id"] for info in running) == sorted(t["id"] for t in tables)
        # Each worker has its own port (the two after the shared one), which the page's
        # policy lets it reach; the tables were shared between the workers.
        policy = httpx2.get(f"{server.base}/").headers["content-security-policy"]
        assert all(f"ws://127.0.0.1:{own}" in policy for own in own_ports), policy
        owners = asyncio.run(where_tables_run(port, own_ports, tables))
        assert sorted(owners) == [port + 1] * 3 + [port + 2] * 3, owners
        # The lobby's answer names the table's socket at the worker that runs it, so a
        # client connects there at once; a join names it whichever worker it reached
        # (one of the two asks the other over the bus).
        assert [table["socket"] for table in tables] == [
            f"ws://127.0.0.1:{owner}/ws/tables/{table['id']}"
            for owner, table in zip(owners, tables, strict=True)]
        waiting = httpx2.post(f"{server.base}/api/tables", json={
            "game": "timo", "players": 3, "display_name": "Ann",
            "seats": [{"kind": "human"}] * 3}).json()
        named = {waiting["socket"]}
        guests = []
        for own in own_ports:
            joined = httpx2.post(f"http://127.0.0.1:{own}/api/tables/"
                                 f"{waiting['table']['id']}/join",
                                 json={"display_name": f"P{own}"})
            assert joined.status_code == 200, joined.text
            named.add(joined.json()["socket"])
            guests.append(joined.json()["token"])
        (socket,) = named
        assert asyncio.run(first_answer(socket, waiting["token"]))["type"] == "welcome"
        other = next(own for own in own_ports if f":{own}/" not in socket)
        afar = f"ws://127.0.0.1:{other}/ws/tables/{waiting['table']['id']}"
        asyncio.run(talk_across_workers(socket, afar, waiting["token"], guests[0]))
        # People who play a card when they can: random draws made a one-round game
        # last 19 s on an idle machine, past 40 s under CI's load once.
        clients = asyncio.run(play_all(tables, [f"127.0.0.1:{port}"], 40, plays_first=True))
        assert not unfinished(clients), unfinished(clients)
        # Every request went to the one port; both workers ran tables or served clients.
        listed = httpx2.get(f"{server.base}/api/tables?status=running").json()
        assert listed == []
        text = log.read_text()
        assert len({line.split("]")[0] for line in text.splitlines()
                    if "Started server process" in line}) >= 2, text[-2000:]
        assert len(workers) >= 2  # and multiprocessing's resource tracker
        # The load harness's people connect where the lobby's answers say (the table's
        # worker): none is sent on, and they play without an error.
        report = run_load(prepare(server.base, "timo", tables=4, clients_per_table=2,
                                  rate=200, duration_s=3, processes=1,
                                  options={"target": 1}))
        assert report["errors"] == {} and report["moves_acknowledged"] > 0, report
        assert report["redirects"] == 0, report
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    check_logs(database, tables, clients)


def test_several_workers_need_redis_and_postgresql() -> None:
    runner = CliRunner()
    cases = [
        (["serve", "--workers", "2", "--db", "postgresql://127.0.0.1/test"], "need Redis"),
        (["serve", "--workers", "2", "--db", "sqlite:///x.sqlite3", "--redis",
          "redis://127.0.0.1:6379/0"], "need PostgreSQL"),
        # A free port: this refusal comes after the port is found free (a server left on
        # 8000 answered "address already in use" instead).
        (["serve", "--workers", "2", "--db", "postgresql://127.0.0.1/test", "--redis",
          "redis://127.0.0.1:1/0", "--port", str(free_port_run(3))], "unreachable"),
        (["serve", "--workers", "0"], "1 or more"),
        (["serve", "--workers", "2", "--advertise-url", "/w1"], "port of its own"),
        (["serve", "--workers", "2", "--worker-ports", "many"], "range of ports"),
        (["serve", "--workers", "2", "--worker-ports", "9000-8000"], "no such range"),
        (["serve", "--public-url", "play.example.org"], "--public-url takes"),
        (["serve", "--public-url", "http://0.0.0.0:8000"], "not 0.0.0.0"),
        (["serve", "--advertise-url", "//evil.example/w1"], "--advertise-url takes"),
    ]
    for args, said in cases:
        result = runner.invoke(app, args, env={"TWINTABLE_REDIS_URL": None})
        assert result.exit_code != 0, args
        assert said in result.output, (args, result.output)
        assert len(result.output.strip().splitlines()) == 1, result.output
