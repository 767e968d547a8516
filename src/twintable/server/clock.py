"""The server's wall clock: the time every action is stamped with (one place, so that a
test can make it drift against the monotonic clock tables sleep on)."""

from __future__ import annotations

import time


def now_ms() -> int:
    return int(time.time() * 1000)
