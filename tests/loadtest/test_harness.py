"""``twintable loadtest`` against a real ``twintable serve``: short runs of real games
report acknowledged moves, finished games and no errors; the plan's bounds, the loopback
rule and bad URLs are refused in one line before anything starts; Ctrl-C stops a run
and still writes its report."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import typer
from typer.testing import CliRunner

from tests.server.client import free_port, running_server
from tests.server.test_cluster_faults import ONE_MACHINE
from twintable.loadtest.cli import loadtest
from twintable.loadtest.harness import (
    DRAIN_S,
    LoadTestError,
    Totals,
    prepare,
    refuse_remote,
    run_load,
)

#: What fair clients meet in play: a move made against a view that another move just
#: replaced, or a race lost. Anything else (an illegal move, a malformed one) is a fault.
RACES = {"action.stale", "game.over", "catch.too_late", "card.covered", "card.changed",
         "round.running"}

app = typer.Typer()
app.command()(loadtest)


@app.command()
def version() -> None:
    """A second command, so that ``loadtest`` is named as it will be in ``twintable``."""


runner = CliRunner()


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("loadtest") / "twintable.sqlite3"
    port = free_port()
    # Every scripted person comes from this machine: the per-address limits are raised,
    # as docs/loadtest.md says a load test's server needs.
    with running_server(f"sqlite+aiosqlite:///{db}", port, extra_args=ONE_MACHINE):
        url = f"http://127.0.0.1:{port}"
        # A table started first, so that no run pays for the server's first one (imports,
        # the first statements prepared) within its few seconds.
        for game in ("timo", "twins", "twinit"):
            joined = httpx2.post(f"{url}/api/tables", json={
                "game": game, "players": 3, "display_name": "warm"}).json()
            httpx2.post(f"{url}/api/tables/{joined['table']['id']}/start",
                        headers={"Authorization": f"Bearer {joined['token']}"})
        yield url


def check_clean(report: dict[str, Any]) -> None:
    assert report["errors"] == {}, report
    assert set(report["refusals"]) <= RACES, report
    assert report["moves_acknowledged"] > 0, report
    assert report["moves_per_s"] > 0
    latency = report["latency_ms"]
    assert 0 < latency["p50"] <= latency["p90"] <= latency["p99"] <= latency["max"]


def test_timo_tables_in_two_processes_play_whole_games(server_url: str) -> None:
    plan = prepare(server_url, "timo", tables=6, clients_per_table=2, rate=400,
                   duration_s=3.5, processes=2, options={"target": 1})
    report = run_load(plan)
    check_clean(report)
    assert report["games_finished"] >= 1, report
    assert report["tables_started"] >= report["games_finished"]
    assert not report["interrupted"] and report["processes"] == 2


def test_the_command_plays_twins_with_a_bot_and_writes_the_report(server_url: str,
                                                                  tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = runner.invoke(app, ["loadtest", server_url, "--game", "twins", "--tables", "2",
                                 "--clients-per-table", "2", "--players", "3", "--rate", "300",
                                 "--duration", "3", "--processes", "1", "--json", str(out),
                                 "--option", "max_hands=1"])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    check_clean(report)
    assert report["games_finished"] >= 1 and report["bots"] == 1, report
    assert "acknowledged moves" in result.output and "p99" in result.output


def test_twinit_clients_touch_pairs_without_errors(server_url: str) -> None:
    plan = prepare(server_url, "twinit", tables=2, clients_per_table=2, rate=200,
                   duration_s=2.5, processes=1, options={"mode": "timeattack",
                                                          "duration_s": 10})
    check_clean(run_load(plan))


@pytest.mark.parametrize("url", ["http://10.1.2.3:8000", "http://[2001:db8::1]:8000",
                                 "http://192.168.0.10"])
def test_an_address_outside_this_machine_is_refused(url: str) -> None:
    with pytest.raises(LoadTestError, match=r"not a loopback address.*--allow-remote"):
        refuse_remote(url)
    result = runner.invoke(app, ["loadtest", url, "--duration", "1"])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert "not a loopback address" in result.output


def test_loopback_names_and_addresses_are_allowed() -> None:
    for url in ("http://localhost:8000", "http://127.0.0.2:1", "http://[::1]:8000"):
        refuse_remote(url)


@pytest.mark.parametrize(("args", "complaint"), [
    (["--tables", "0"], "--tables must be"),
    (["--tables", "100000"], "--tables must be"),
    (["--clients-per-table", "11"], "--clients-per-table must be"),
    (["--tables", "1000", "--clients-per-table", "10"], "at most 5000"),
    (["--rate", "0"], "--rate must be"),
    (["--rate", "1e9"], "--rate must be"),
    (["--duration", "86400"], "--duration must be"),
    (["--processes", "3", "--tables", "2"], "--processes must be"),
    (["--game", "chess"], "unknown game"),
])
def test_absurd_plans_are_refused_in_one_line(args: list[str], complaint: str) -> None:
    result = runner.invoke(app, ["loadtest", "http://127.0.0.1:1", *args])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert complaint in result.output


@pytest.mark.parametrize(("url", "complaint"), [
    ("ftp://127.0.0.1/", "not a server URL"),
    ("127.0.0.1:8000", "not a server URL"),
    ("http://127.0.0.1:99999", "not a URL"),
    ("http://127.0.0.1:8000/api/games", "without a path"),
    ("http://no-such-host.invalid:8000", "cannot resolve"),
    (None, "no Twin Table server answers"),
])
def test_a_bad_or_silent_url_is_one_line(url: str | None, complaint: str) -> None:
    result = runner.invoke(app, ["loadtest", url or f"http://127.0.0.1:{free_port()}"])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert complaint in result.output


def test_players_must_fit_the_game(server_url: str) -> None:
    with pytest.raises(LoadTestError, match="twins takes 3 to 6 players, not 2"):
        prepare(server_url, "twins", tables=1, clients_per_table=1, rate=10, duration_s=1,
                players=2)
    with pytest.raises(LoadTestError, match="do not fit"):
        prepare(server_url, "timo", tables=1, clients_per_table=4, rate=10, duration_s=1,
                players=3)


def test_ctrl_c_stops_the_run_and_still_reports(server_url: str, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    command = ("import sys, typer; from twintable.loadtest.cli import loadtest; "
               "sys.argv[0] = 'loadtest'; typer.run(loadtest)")
    process = subprocess.Popen(
        [sys.executable, "-c", command, server_url, "--tables", "2", "--duration", "600",
         "--processes", "1", "--json", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        # Whether the load has begun or not by then, the run must end and say so.
        with pytest.raises(subprocess.TimeoutExpired):
            process.wait(timeout=3)
        process.send_signal(signal.SIGINT)
        # The harness waits up to DRAIN_S for its processes' last figures, then 5 s for
        # each to end: on a loaded machine the stop takes that long (30 s was too short).
        output = process.communicate(timeout=DRAIN_S + 30)[0].decode()
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, output
    report = json.loads(out.read_text())
    assert report["interrupted"] and report["errors"] == {}
    assert "interrupted" in output


def test_seats_come_back_after_the_server_restarts(tmp_path: Path) -> None:
    """A server stopped and started again mid-run: every seat comes back, says hello
    again, sends again what was unanswered and plays on; the run reports the reconnects
    and the longest pause a table saw."""
    db = f"sqlite+aiosqlite:///{tmp_path / 'restart.sqlite3'}"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    seen: list[Totals] = []
    stop = threading.Event()
    results: list[dict[str, Any]] = []
    with running_server(db, port, extra_args=ONE_MACHINE) as first:
        plan = prepare(url, "timo", tables=3, clients_per_table=2, rate=60,
                       duration_s=90, processes=1, options={"target": 500})
        loading = threading.Thread(target=lambda: results.append(
            run_load(plan, lambda _, totals: seen.append(totals), stop)))
        loading.start()
        while not seen or seen[-1].acks < 30:
            assert loading.is_alive(), results
            time.sleep(0.1)
        first.send_signal(signal.SIGTERM)
        first.wait(timeout=20)
    try:
        with running_server(db, port, extra_args=ONE_MACHINE):
            before = seen[-1].acks
            deadline = time.monotonic() + 60
            # Every seat back, and the tables playing on.
            while seen[-1].reconnects < 6 or seen[-1].acks < before + 30:
                assert time.monotonic() < deadline, vars(seen[-1])
                time.sleep(0.1)
            stop.set()  # while the server runs: its stop would drop the seats again
            loading.join(timeout=60)
    finally:
        stop.set()
        loading.join(timeout=60)
    [report] = results
    assert report["reconnects"] >= 6, report
    assert "ws.closed" not in report["errors"], report
    # What the restart cost: lobby requests that found no server, nothing else.
    assert set(report["errors"]) <= {"connection.ConnectError"}, report
    assert report["longest_pause_s"] > 0, report
