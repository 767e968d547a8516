"""One WebSocket client of a table, written to at once while its socket takes frames and
through a bounded queue when it does not (the table's presence, ``server/presence.py``,
keeps them)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Coroutine, Generator
from typing import Any

from fastapi import WebSocket

log = logging.getLogger("twintable.server")


class Connection:
    """One WebSocket client; a slow client never holds a table's lock.

    A frame is written in the caller's step when nothing is waiting before it: uvicorn's
    WebSocket send only waits when the socket's write buffer is full, so almost every send
    finishes without yielding, and a task and a queue per frame (five frames a move) were a
    sixth of the server's CPU at 1,000 moves/s (issue 28). A send that has to wait goes on
    in a task of its own, and the frames after it wait in order in a queue behind it.

    The queue is bounded and each waiting send has a time limit: a client that stops
    reading (a stalled phone, a hostile script) would otherwise keep every frame of the
    game in memory. Past either bound its queue is dropped and its socket closed (1008);
    the client reconnects and resumes from a fresh snapshot like after any network drop."""

    def __init__(self, websocket: WebSocket, seat: int | None, max_frames: int = 256,
                 send_timeout_s: float = 10.0):
        self.websocket = websocket
        self.seat = seat
        self.max_frames = max_frames
        self.send_timeout_s = send_timeout_s
        self.queue: deque[str] = deque()
        """Frames waiting behind a send that could not finish at once."""
        self.waiting: asyncio.Task[None] | None = None
        """That send, then the queue behind it, written in order (None: nothing waits)."""
        self.dropped = False
        self.failed = False
        """A send failed: the client went away (its reader notices); later frames go
        nowhere."""

    def send(self, frame: str) -> None:
        if self.dropped or self.failed:
            return
        if self.waiting is not None:
            if len(self.queue) >= self.max_frames:
                self._drop("the client stopped reading")
                return
            self.queue.append(frame)
            return
        coroutine = self.websocket.send_text(frame)
        try:
            awaited = coroutine.send(None)
        except StopIteration:
            return  # written
        except Exception:
            self._fail()
            return
        self.waiting = asyncio.get_running_loop().create_task(self._write_on(coroutine, awaited))

    def _fail(self) -> None:
        log.debug("send failed; the connection sends no more", exc_info=True)
        self.failed = True
        self.queue.clear()

    async def _write_on(self, started: Coroutine[Any, Any, None], awaited: Any) -> None:
        """Finish a send that had to wait, then write the frames queued behind it."""
        try:
            async with asyncio.timeout(self.send_timeout_s):
                await _Resumed(started, awaited)
            while self.queue and not self.dropped:
                async with asyncio.timeout(self.send_timeout_s):
                    await self.websocket.send_text(self.queue.popleft())
        except TimeoutError:
            self._drop("a send timed out")
        except Exception:  # not a cancellation (a drop's): that is no failure of the client
            self._fail()
        finally:
            self.waiting = None

    def _drop(self, why: str) -> None:
        self.dropped = True
        self.queue.clear()
        waiting, self.waiting = self.waiting, None
        if waiting is not None and waiting is not asyncio.current_task():
            waiting.cancel()
        log.info("slow connection closed", extra={"why": why})
        asyncio.get_running_loop().create_task(self._close_socket())

    async def _close_socket(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(code=1008, reason="too slow"),
                                   self.send_timeout_s)

    async def close(self) -> None:
        """Wait for the frames still queued (within their time limit), then send no more."""
        waiting = self.waiting
        if waiting is not None:
            with contextlib.suppress(BaseException):
                await waiting
        self.failed = True


class _Resumed:
    """An awaitable that runs the rest of a coroutine whose first step the caller took
    itself (``coroutine.send(None)`` gave ``awaited``): it waits for what the coroutine
    waits for, then steps it again, as a task would (Python 3.12's eager tasks do the
    same)."""

    def __init__(self, coroutine: Coroutine[Any, Any, None], awaited: Any):
        self.coroutine = coroutine
        self.awaited = awaited

    def __await__(self) -> Generator[Any, None, None]:
        coroutine, awaited = self.coroutine, self.awaited
        while True:
            try:
                if awaited is None:  # a bare yield: give the loop one turn
                    yield
                else:
                    awaited._asyncio_future_blocking = False
                    yield from asyncio.wait((awaited,)).__await__()
            except BaseException as error:  # cancelled (a time limit): tell the coroutine
                with contextlib.suppress(BaseException):
                    coroutine.throw(error)
                coroutine.close()
                raise
            try:
                awaited = coroutine.send(None)
            except StopIteration:
                return
