"""``twintable serve --workers N``: N worker processes on one port serve one platform (a
client's connection lands on either, tables are served through their owner), and the
command refuses what cannot work with one line before starting anything."""

from __future__ import annotations

import asyncio
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx2
from typer.testing import CliRunner

from tests.server.client import free_port
from tests.server.test_cluster_faults import (
    Worker,
    check_logs,
    database,  # noqa: F401 (a fixture)
    open_tables,
    play_all,
    services,  # noqa: F401 (a fixture)
)
from twintable.cli import app


def children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in found]


def test_two_workers_on_one_port_play_every_table_to_its_end(
        database: str, tmp_path: Path) -> None:  # noqa: F811 (the fixture)
    port = free_port()
    log = tmp_path / "serve.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve", "--workers", "2", "--port",
         str(port), "--db", database, "--redis", "redis://127.0.0.1:6379/13",
         "--redis-prefix", f"tt-test-{secrets.token_hex(4)}:", "--lease-ttl-ms", "1500",
         "--bot-delay-ms", "15", "--log-level", "info"],
        stdout=log.open("wb"), stderr=subprocess.STDOUT)
    server = Worker(port, log, process)
    try:
        deadline = time.monotonic() + 40
        while not (server.ready() and len(children(process.pid)) >= 2):
            assert process.poll() is None, log.read_text()[-2000:]
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.2)
        workers = children(process.pid)
        tables = open_tables([server], 6, people=4)
        clients = asyncio.run(play_all(tables, [port], 40))
        assert all(client.done for client in clients)
        # Every request went to the one port; both workers ran tables or served clients.
        listed = httpx2.get(f"{server.base}/api/tables?status=running").json()
        assert listed == []
        text = log.read_text()
        assert len({line.split("]")[0] for line in text.splitlines()
                    if "Started server process" in line}) >= 2, text[-2000:]
        assert len(workers) >= 2  # and multiprocessing's resource tracker
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
        (["serve", "--workers", "2", "--db", "postgresql://127.0.0.1/test", "--redis",
          "redis://127.0.0.1:1/0"], "unreachable"),
        (["serve", "--workers", "0"], "1 or more"),
    ]
    for args, said in cases:
        result = runner.invoke(app, args, env={"TWINTABLE_REDIS_URL": None})
        assert result.exit_code != 0, args
        assert said in result.output, (args, result.output)
        assert len(result.output.strip().splitlines()) == 1, result.output
