"""Replay pages and views, made off the event loop, kept, and bounded per address.

Making every step's view of a long game is the costliest request the server answers
(0.51 s on the event loop for a 2,392-move game, and 16 at once pushed ``/healthz``'s
p99 to 1.6 s in issue #38). A finished game never changes, so each answer is made once,
in a worker thread (one at a time: the event loop keeps its turns between the thread's,
rather than waiting for a whole game's views), encoded to JSON (and gzip) there too, and
kept in a cache bounded by size; requests for an answer being made wait for it instead of
making it again. Making an answer the cache lacks draws on the asking address group's
allowance (a few a second), so one address cannot keep the thread busy for everyone.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from twintable.server.errors import LobbyError
from twintable.server.guards import Allowance

#: Bytes of answers kept (plain and gzipped JSON together).
CACHE_BYTES = 64 * 2**20
#: Answers one address group may have made a second (the cache's are free), and at once.
BUILDS_PER_SECOND, BUILD_BURST = 2.0, 10


@dataclass(frozen=True, slots=True)
class Encoded:
    """An answer as JSON, plain and gzipped."""

    plain: bytes
    gzipped: bytes

    @property
    def size(self) -> int:
        return len(self.plain) + len(self.gzipped)


def to_json(data: Any) -> bytes:
    """``data`` as compact JSON, a list's items and a mapping's values one at a time:
    the C encoder keeps the interpreter's lock for all it is given, and a whole game's
    views at once held the event loop for tens of milliseconds."""
    if isinstance(data, list):
        return b"[" + b",".join(map(to_json, data)) + b"]"
    if isinstance(data, dict) and any(isinstance(v, list) for v in data.values()):
        return b"{" + b",".join(to_json(str(key)) + b":" + to_json(value)
                                for key, value in data.items()) + b"}"
    return json.dumps(data, ensure_ascii=False, allow_nan=False,
                      separators=(",", ":")).encode()


def encode(data: Any) -> Encoded:
    body = to_json(data)
    return Encoded(body, gzip.compress(body, compresslevel=5))


class ReplayCache:
    """Answers by key (a table and what was asked of it); see the module."""

    def __init__(self, capacity_bytes: int = CACHE_BYTES):
        self.capacity = capacity_bytes
        self.kept: OrderedDict[tuple[Any, ...], Encoded] = OrderedDict()
        self.size = 0
        self.making: dict[tuple[Any, ...], asyncio.Future[Encoded]] = {}
        self.thread = asyncio.Semaphore(1)
        self.allowances: dict[str, Allowance] = {}

    async def get(self, key: tuple[Any, ...],
                  prepare: Callable[[], Awaitable[Callable[[], Any]]],
                  client: str) -> Encoded:
        """The answer for ``key``: kept, being made, or made now (once ``client``'s
        allowance agreed): ``prepare`` reads what it needs on the loop (the game's log)
        and gives the function that makes the answer in the thread."""
        if (kept := self.kept.get(key)) is not None:
            self.kept.move_to_end(key)
            return kept
        if (pending := self.making.get(key)) is not None:
            return await asyncio.shield(pending)
        self._allow(client)
        future: asyncio.Future[Encoded] = asyncio.get_running_loop().create_future()
        self.making[key] = future
        try:
            make = await prepare()
            async with self.thread:
                made = await asyncio.to_thread(lambda: encode(make()))
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: the waiters, if any, raise it themselves
            raise
        finally:
            self.making.pop(key, None)
        future.set_result(made)
        self._keep(key, made)
        return made

    def _allow(self, client: str) -> None:
        allowance = self.allowances.get(client)
        if allowance is None:
            if len(self.allowances) > 10_000:  # forget the addresses seen long ago
                self.allowances.clear()
            allowance = self.allowances[client] = Allowance(BUILDS_PER_SECOND, BUILD_BURST)
        if not allowance.take():
            raise LobbyError(429, "replay.rate_limited",
                             "too many replays asked for at once; try again in a moment",
                             retry_after_s=1)

    def _keep(self, key: tuple[Any, ...], made: Encoded) -> None:
        if made.size > self.capacity:
            return
        self.kept[key] = made
        self.size += made.size
        while self.size > self.capacity:
            _, dropped = self.kept.popitem(last=False)
            self.size -= dropped.size
