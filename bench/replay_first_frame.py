"""Benchmark: time to the first frame of a whole Twin It replay in Chromium.

One finished Twin It game (four seats unless told: a scripted person and real-time bots,
played in process on a SQLite file), then `twintable serve` on that file and Chromium opening
``#/replay/<table>/0`` in a fresh context, timed from the navigation to the first frame
drawn (``#seek`` and the board). With ``--baseline-src`` (an older checkout's ``src``, e.g.
``git archive dc971c8 src | tar -x -C /tmp/old``) a second server runs that code on the
same game, measured in the same run, alternately, and the ratio is printed.
Also printed: the server alone, the whole answer (``/replay/views?every_seat=true``)
against the first page (``/replay/steps?every_seat=true``), when the server has it.

Usage: python bench/replay_first_frame.py [--repeats 5] [--players 4] [--sets 20]
       [--baseline-src /tmp/old/src]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx2
from playwright.sync_api import sync_playwright

from serving import serving

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.server.client import app_client, create_table, hello, play_to_end
from tests.server.test_play import twinit_chooser


def finished_twinit(db: str, players: int, sets: int) -> tuple[str, int]:
    """A finished game of Twin It to ``sets`` sets, a scripted person and three
    real-time bots (as in tests/server/test_play.py): (table id, its number of moves)."""
    with app_client(db, realtime_bot_pace=0.05) as client:
        joined = create_table(client, "twinit", players, {"sets_to_win": sets})
        table_id, token = joined["table"]["id"], joined["token"]
        client.post(f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {token}"})
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)
            play_to_end(ws, twinit_chooser())
        moves = len(client.get(f"/api/tables/{table_id}/replay").json()["actions"])
    return str(table_id), moves


@contextmanager
def server_of(db: str, scratch: str, src: str | None) -> Iterator[str]:
    """A server on ``db`` running this checkout, or the code under ``src``."""
    before = os.environ.get("PYTHONPATH")
    if src is not None:
        os.environ["PYTHONPATH"] = src
    try:
        with serving(db, scratch) as (url, _, _):
            os.environ.pop("PYTHONPATH", None)
            if before is not None:
                os.environ["PYTHONPATH"] = before
            yield url
    finally:
        os.environ.pop("PYTHONPATH", None)
        if before is not None:
            os.environ["PYTHONPATH"] = before


def first_frame_s(browser: object, url: str, table_id: str) -> float:
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    try:
        start = time.perf_counter()
        page.goto(f"{url}/#/replay/{table_id}/0")
        page.wait_for_selector("#seek", timeout=300_000)
        page.wait_for_selector("#board > *", timeout=300_000)
        return time.perf_counter() - start
    finally:
        context.close()


def fetch_s(url: str, path: str) -> float:
    start = time.perf_counter()
    response = httpx2.get(url + path, headers={"accept-encoding": "gzip"}, timeout=300)
    assert response.status_code == 200, response.text[:300]
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--baseline-src", default=None)
    parser.add_argument("--sets", type=int, default=20, help="Twin It's sets_to_win")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, ExitStack() as stack:
        db = f"{scratch}/bench.sqlite3"
        table_id, moves = finished_twinit(f"sqlite+aiosqlite:///{db}", args.players,
                                          args.sets)
        print(f"Twin It, {args.players} seats, {args.sets} sets to win: {moves} moves")
        urls = {"this": stack.enter_context(server_of(f"sqlite:///{db}", scratch, None))}
        if args.baseline_src:  # a copy: a SQLite file has one server
            shutil.copy(db, f"{scratch}/baseline.sqlite3")
            urls["baseline"] = stack.enter_context(
                server_of(f"sqlite:///{scratch}/baseline.sqlite3", scratch, args.baseline_src))
        times: dict[str, list[float]] = {name: [] for name in urls}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
            for _ in range(args.repeats):
                for name, url in urls.items():
                    times[name].append(first_frame_s(browser, url, table_id))
            browser.close()
        for name, each in times.items():
            print(f"first frame, {name}: median {statistics.median(each):.2f} s "
                  f"(min {min(each):.2f}, max {max(each):.2f}, {len(each)} runs)")
        if "baseline" in times:
            ratio = statistics.median(times["baseline"]) / statistics.median(times["this"])
            print(f"baseline / this: {ratio:.1f}x")
        url = urls["this"]
        whole = statistics.median(fetch_s(url, f"/api/tables/{table_id}/replay/views"
                                          "?every_seat=true") for _ in range(args.repeats))
        page = statistics.median(fetch_s(url, f"/api/tables/{table_id}/replay/steps"
                                         "?every_seat=true&count=25") for _ in range(args.repeats))
        print(f"server: whole answer {whole * 1000:.0f} ms, first page of 25 "
              f"{page * 1000:.0f} ms ({whole / page:.1f}x)")


if __name__ == "__main__":
    main()
