"""Ending a stopping server's own tasks within a bound.

A task is stopped by cancelling it, but a library may swallow a cancellation: redis-py's
pipeline (8.2) does when one arrives during ``execute`` (252 of 300 tries in a probe
here), and the task then goes back to waiting on its queue for ever. That is how a worker
with players connected hung at SIGTERM (issue #37): its bus publisher never ended and the
worker waited for it. :func:`cancel_within` cancels again until each task has ended and
gives up on one that has not after a bound, so a stop can never hang.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("twintable.server")

#: How often a task that swallowed its cancellation is cancelled again.
RECANCEL_S = 0.05


async def cancel_within(tasks: Iterable[asyncio.Future[Any]], seconds: float,
                        what: str) -> bool:
    """Cancel ``tasks`` and wait until they have ended, cancelling again every
    :data:`RECANCEL_S`; after ``seconds``, stop waiting and log which ``what`` did not
    end. True when every one ended."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    pending = {task for task in tasks if not task.done()}
    while pending:
        left = deadline - loop.time()
        if left <= 0:
            log.warning("tasks did not end when cancelled; left behind",
                        extra={"what": what, "tasks": len(pending)})
            return False
        for task in pending:
            task.cancel()
        done, pending = await asyncio.wait(pending, timeout=min(RECANCEL_S, left))
        for task in done:  # their failures were logged where they ran, if at all
            if not task.cancelled():
                task.exception()
    return True
