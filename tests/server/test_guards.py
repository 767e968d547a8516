"""What one address may hold (``server/guards.py``): unfinished tables, whether waiting or
running, counted atomically; running tables nobody looks at end as abandoned."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx2

from tests.server.client import app_client, auth, create_table, free_port, running_server
from tests.server.test_cluster_faults import database, services, workers  # noqa: F401

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]


def test_running_tables_count_toward_an_address_share(sqlite_url: str) -> None:
    with app_client(sqlite_url, max_open_tables_per_client=3) as client:
        for _ in range(3):  # create, join, start: each table leaves "waiting"
            made = create_table(client, "timo", 2, seats=TWO_PEOPLE)
            table_id = made["table"]["id"]
            joined = client.post(f"/api/tables/{table_id}/join",
                                 json={"display_name": "Bob"})
            assert joined.status_code == 200, joined.text
            started = client.post(f"/api/tables/{table_id}/start", headers=auth(made["token"]))
            assert started.json()["status"] == "running"
        refused = client.post("/api/tables", json={"game": "timo", "players": 2,
                                                   "display_name": "Ann"})
        assert refused.status_code == 429, refused.text
        assert refused.json()["code"] == "tables.too_many"


def _create_at_once(bases: list[str], count: int) -> list[int]:
    async def run() -> list[int]:
        async with httpx2.AsyncClient(timeout=20) as http:
            answers = await asyncio.gather(*(
                http.post(f"{bases[n % len(bases)]}/api/tables",
                          json={"game": "timo", "players": 2, "display_name": "Ann"})
                for n in range(count)))
        return [answer.status_code for answer in answers]

    return asyncio.run(run())


def test_creates_at_once_cannot_pass_the_share_together(sqlite_url: str,
                                                        tmp_path: Path) -> None:
    port = free_port()
    with running_server(sqlite_url, port):
        statuses = _create_at_once([f"http://127.0.0.1:{port}"], 60)
    assert statuses.count(201) == 20, statuses  # the default share
    assert set(statuses) == {201, 429}


def test_the_share_holds_across_workers(database: str, tmp_path: Path) -> None:  # noqa: F811
    with workers(database, "redis://127.0.0.1:6379/13", tmp_path) as pair:
        statuses = _create_at_once([worker.base for worker in pair], 60)
    assert statuses.count(201) == 20, statuses
    assert set(statuses) == {201, 429}


def test_a_running_table_nobody_looks_at_is_abandoned(sqlite_url: str) -> None:
    with app_client(sqlite_url, unattended_after_s=0.3, bot_delay_ms=60_000) as client:
        server = client.app.state.server  # type: ignore[attr-defined]
        left, watched = (client.post("/api/tables", json={
            "game": "timo", "players": 2, "display_name": "Ann", "grace_s": 0,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}).json()
            for _ in range(2))
        client.post(f"/api/tables/{left['table']['id']}/start", headers=auth(left["token"]))
        client.post(f"/api/tables/{watched['table']['id']}/start",
                    headers=auth(watched["token"]))
        with client.websocket_connect(f"/ws/tables/{watched['table']['id']}") as ws:
            ws.send_json({"type": "hello", "token": watched["token"]})
            assert ws.receive_json()["type"] == "welcome"
            deadline = time.monotonic() + 10
            while left["table"]["id"] in server.tables:
                assert time.monotonic() < deadline, "the table nobody looks at stayed"
                time.sleep(0.05)
            assert server.tables[watched["table"]["id"]].status == "running"
        info = client.get(f"/api/tables/{left['table']['id']}").json()
        assert info["status"] == "abandoned"
