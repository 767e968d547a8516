"""Replay answers (``server/replay_cache.py``): made once in a thread and kept, shared by
requests that ask at once, bounded in size, and a limited number made per address."""

from __future__ import annotations

import asyncio
import gzip
import json
import threading
from collections.abc import Callable
from typing import Any

import pytest

from twintable.server.errors import LobbyError
from twintable.server.replay_cache import BUILD_BURST, ReplayCache, to_json


def counting(made: list[str], data: Any) -> Callable[[], Any]:
    async def prepare() -> Callable[[], Any]:
        def make() -> Any:
            made.append(threading.current_thread().name)
            return data
        return make
    return prepare  # type: ignore[return-value]


def test_an_answer_is_made_once_off_the_loop_and_kept() -> None:
    async def run() -> tuple[list[str], list[Any]]:
        cache, made = ReplayCache(), []
        prepare = counting(made, {"steps": [1, 2, 3]})
        answers = await asyncio.gather(*(cache.get(("t", "views"), prepare, "a")
                                         for _ in range(5)))
        answers.append(await cache.get(("t", "views"), prepare, "a"))
        return made, answers

    made, answers = asyncio.run(run())
    assert len(made) == 1 and made[0] != threading.main_thread().name
    assert all(answer is answers[0] for answer in answers)
    assert json.loads(answers[0].plain) == {"steps": [1, 2, 3]}
    assert gzip.decompress(answers[0].gzipped) == answers[0].plain


def test_one_address_may_have_only_so_many_answers_made() -> None:
    async def run() -> tuple[int, LobbyError | None, int]:
        cache, made = ReplayCache(), []
        refused = None
        count = 0
        for n in range(BUILD_BURST + 5):
            try:
                await cache.get(("t", "steps", n), counting(made, [n]), "greedy")
                count += 1
            except LobbyError as error:
                refused = error
        # Another address is not held back, and kept answers cost nothing.
        await cache.get(("t", "steps", 99), counting(made, [99]), "other")
        await cache.get(("t", "steps", 0), counting(made, [0]), "greedy")
        return count, refused, len(made)

    count, refused, made = asyncio.run(run())
    assert BUILD_BURST <= count < BUILD_BURST + 5
    assert refused is not None and refused.status == 429 and refused.retry_after_s == 1
    assert made == count + 1


def test_the_cache_keeps_to_its_size() -> None:
    async def run() -> ReplayCache:
        cache = ReplayCache(capacity_bytes=3_000)
        for n in range(10):
            await cache.get(("t", n), counting([], ["x" * 500, n]), f"a{n}")
        return cache

    cache = asyncio.run(run())
    assert cache.size <= 3_000 and len(cache.kept) < 10
    assert ("t", 9) in cache.kept and ("t", 0) not in cache.kept


def test_a_failure_reaches_every_waiter_and_is_not_kept() -> None:
    async def run() -> ReplayCache:
        cache = ReplayCache()

        async def prepare() -> Callable[[], Any]:
            raise LobbyError(422, "replay.past_end", "past the end")

        for _ in range(2):
            with pytest.raises(LobbyError):
                await cache.get(("t", "steps", 900), prepare, "a")
        return cache

    cache = asyncio.run(run())
    assert not cache.kept and not cache.making


def test_json_made_in_pieces_is_the_same_json() -> None:
    data = {"start": 3, "moves": 9, "steps": [
        {"view": {"hand": ["r5", "g+2"], "é": None}, "events": [], "views": [[1.5, True]]},
        {"view": {}, "events": [{"kind": "play"}]}], "note": "«ok»"}
    assert json.loads(to_json(data)) == data
    assert to_json(data) == json.dumps(data, ensure_ascii=False,
                                       separators=(",", ":")).encode()
