"""One WebSocket client of a table, written to through a bounded queue (the table's
presence, ``server/presence.py``, keeps them)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import WebSocket

log = logging.getLogger("twintable.server")


class Connection:
    """One WebSocket client; frames go through a queue so a slow client never holds a
    table's lock.

    The queue is bounded and each send has a time limit: a client that stops reading
    (a stalled phone, a hostile script) would otherwise keep every frame of the game in
    memory. Past either bound its queue is dropped and its socket closed (1008); the
    client reconnects and resumes from a fresh snapshot like after any network drop."""

    def __init__(self, websocket: WebSocket, seat: int | None, max_frames: int = 256,
                 send_timeout_s: float = 10.0):
        self.websocket = websocket
        self.seat = seat
        self.max_frames = max_frames
        self.send_timeout_s = send_timeout_s
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.dropped = False
        self.writer = asyncio.create_task(self._write())

    def send(self, frame: str) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= self.max_frames:
            self._drop("the client stopped reading")
            return
        self.queue.put_nowait(frame)

    def _drop(self, why: str) -> None:
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)
        log.info("slow connection closed", extra={"why": why})
        asyncio.get_running_loop().create_task(self._close_socket())

    async def _close_socket(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(code=1008, reason="too slow"),
                                   self.send_timeout_s)

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        # One deadline for the writer's life, moved for each send: ``wait_for`` made a
        # task and a timer per frame, five frames a move (issue 28's hot path).
        deadline = asyncio.timeout(None)
        try:
            async with deadline:
                while (frame := await self.queue.get()) is not None:
                    deadline.reschedule(loop.time() + self.send_timeout_s)
                    try:
                        await self.websocket.send_text(frame)
                    except Exception:  # the client went away; the reader notices
                        log.debug("send failed; connection writer stops", exc_info=True)
                        return
                    deadline.reschedule(None)
        except TimeoutError:
            self._drop("a send timed out")

    async def close(self) -> None:
        self.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await self.writer
