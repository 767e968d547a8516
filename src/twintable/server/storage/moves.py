"""What the move log holds, and how a write to it is refused: shared by the log's
writers (:mod:`twintable.server.storage.sqlite_log` on SQLite, the store's asyncpg path
on PostgreSQL) and the store that owns them."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any


class FencedOut(Exception):
    """A write for a table that a newer owner (a higher fencing token) has claimed."""

    def __init__(self, table_id: str, fence: int):
        super().__init__(f"table {table_id} belongs to a newer owner than fence {fence}")
        self.table_id, self.fence = table_id, fence


@dataclass(slots=True)
class StoredAction:
    seq: int
    seat: int
    kind: str
    payload: dict[str, Any]
    t_ms: int
    client_id: str | None


#: A move waiting for the log: its table, the move, its fencing token, its answer.
Pending = tuple[str, StoredAction, int | None, "asyncio.Future[None]"]

#: The most moves one transaction commits.
BATCH_LIMIT = 500
