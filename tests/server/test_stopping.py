"""Stopping a server's own tasks (``server/stopping.py``): a task that swallows its
cancellation, as redis-py's pipeline does, still ends, and one that never ends is left
behind after the bound instead of hanging the stop."""

from __future__ import annotations

import asyncio

from twintable.server.stopping import cancel_within


async def _swallows_one_cancellation(queue: asyncio.Queue[int], ended: list[str]) -> None:
    """Like a bus publisher whose library ate the cancellation in the middle of a send:
    it goes back to waiting on its queue."""
    swallowed = False
    try:
        while True:
            await queue.get()
            try:
                await asyncio.sleep(3600)  # a send in flight
            except asyncio.CancelledError:
                if swallowed:
                    raise
                swallowed = True
    finally:
        ended.append("publisher")


def test_a_task_that_swallows_a_cancellation_still_ends() -> None:
    async def run() -> tuple[bool, list[str]]:
        queue: asyncio.Queue[int] = asyncio.Queue()
        ended: list[str] = []
        task = asyncio.create_task(_swallows_one_cancellation(queue, ended))
        queue.put_nowait(1)
        await asyncio.sleep(0.01)
        return await cancel_within([task], 5.0, "publisher"), ended

    finished, ended = asyncio.run(run())
    assert finished and ended == ["publisher"]


def test_one_cancellation_is_not_enough_for_such_a_task() -> None:
    """The failure the helper exists for: cancel once and wait, and the task lives on."""
    async def run() -> bool:
        queue: asyncio.Queue[int] = asyncio.Queue()
        task = asyncio.create_task(_swallows_one_cancellation(queue, []))
        queue.put_nowait(1)
        await asyncio.sleep(0.01)
        task.cancel()
        done, _ = await asyncio.wait([task], timeout=0.3)
        alive = not done
        await cancel_within([task], 5.0, "publisher")
        return alive

    assert asyncio.run(run())


def test_a_task_that_never_ends_is_left_behind_after_the_bound() -> None:
    async def run() -> tuple[bool, bool]:
        released = asyncio.Event()

        async def stubborn() -> None:  # refuses every cancellation until released
            while not released.is_set():
                try:
                    await released.wait()
                except asyncio.CancelledError:
                    continue

        task = asyncio.create_task(stubborn())
        await asyncio.sleep(0)
        finished = await asyncio.wait_for(cancel_within([task], 0.3, "stubborn"), 5)
        still_running = not task.done()
        released.set()
        await task
        return finished, still_running

    finished, still_running = asyncio.run(run())
    assert not finished and still_running
