"""Presence: who is connected to a table, who is away and since when, and so when a
stand-in bot starts playing a person's seat.

A seat whose person has been away for the table's grace period, or who has not moved
within its time limit, is played by a stand-in (``server/automation.py`` plays it); the
person takes the seat back by reconnecting. Each connection writes through a bounded
queue so that a slow client never holds the table's lock.
"""

from __future__ import annotations

import contextlib
import logging
import time

from fastapi import WebSocket

from twintable.server.connection import Connection
from twintable.server.table_view import TableView

__all__ = ["DEFAULT_GRACE_S", "Connection", "Presence"]

log = logging.getLogger("twintable.server")

DEFAULT_GRACE_S = 60


class Presence:
    """The connections of one table and the times that decide its stand-ins."""

    def __init__(self, table: TableView):
        self.table = table
        self.connections: set[Connection] = set()
        # Nobody is connected yet (a new table, or a restart): the grace period starts now.
        started = time.monotonic()
        self.away_since: dict[int, float] = {s.seat: started for s in table.seats
                                             if s.kind == "human"}
        self.turn_since = started
        """When the last move was made (monotonic): a person's time limit counts from it."""
        self.last_seen = started
        """When someone was last connected (monotonic): a table left waiting is abandoned."""

    def connected_seats(self) -> set[int | None]:
        return {c.seat for c in self.connections}

    # -- stand-ins ----------------------------------------------------------------------
    def stand_in_from(self, seat: int) -> float | None:
        """When a stand-in bot starts playing this person's seat (monotonic seconds): the
        grace period after they left, or the move's time limit, whichever comes first."""
        table = self.table
        if table.seats[seat].kind != "human":
            return None
        if seat in table.seating.conceded:
            return 0.0  # for good: the person gave the game up
        settings = table.row.settings or {}
        times = []
        if seat in self.away_since:
            times.append(self.away_since[seat] + settings.get("grace_s", DEFAULT_GRACE_S))
        if settings.get("turn_limit_s") is not None:
            times.append(self.turn_since + settings["turn_limit_s"])
        return min(times, default=None)

    def stands_in(self, seat: int, now: float) -> bool:
        start = self.stand_in_from(seat)
        return start is not None and now >= start

    # -- connections --------------------------------------------------------------------
    def connect(self, websocket: WebSocket, seat: int | None) -> Connection:
        table = self.table
        settings = table.server.settings
        connection = Connection(websocket, seat, settings.send_queue_frames,
                                settings.send_timeout_s)
        # Only a seat's first connection changes what others see (it is no longer away):
        # spectators and second tabs cost no frame to anyone else, so a crowd joining
        # costs O(1) frames per connection.
        arrives = seat is not None and all(c.seat != seat for c in self.connections)
        self.connections.add(connection)
        self.last_seen = time.monotonic()
        if seat is not None and self.away_since.pop(seat, None) is not None:
            table.automation.wake()  # the player is back: their stand-in hands the seat over
        if arrives:
            table.announce(skip=connection)  # the newcomer learns it from its welcome
        return connection

    def catch_up(self, connection: Connection, since: int | None = None) -> None:
        """The table as it is now, after the moves since version ``since`` that the
        client missed (a drop, a reload: its story stays whole)."""
        table = self.table
        if table.state is None:
            return
        if since is not None and since < table.state.version:
            for frame in table.missed(connection.seat, since):
                connection.send(frame)
        connection.send(table.snapshot(connection.seat))

    async def disconnect(self, connection: Connection) -> None:
        table = self.table
        self.connections.discard(connection)
        self.last_seen = time.monotonic()
        seat = connection.seat
        leaves = seat is not None and all(c.seat != seat for c in self.connections)
        if seat is not None and leaves:
            self.away_since[seat] = time.monotonic()
            if table.state is not None:
                table.automation.wake()
        await connection.close()
        if leaves:
            table.announce()

    async def send_away(self, code: int, last_frame: str | None = None) -> None:
        """Give every connection ``last_frame`` (a ``moved`` naming where the table runs
        now), let it be written, then close with ``code``: the client reads where to go
        before it sees the close."""
        connections, self.connections = list(self.connections), set()
        for connection in connections:
            if last_frame is not None:
                connection.send(last_frame)
            await connection.close()  # the frames queued are written first
            with contextlib.suppress(Exception):
                await connection.websocket.close(code=code)

    async def close_all(self, code: int) -> None:
        """Close every connection with ``code`` (under the table's lock)."""
        for connection in list(self.connections):
            with contextlib.suppress(Exception):
                await connection.websocket.close(code=code)
            await connection.close()
        self.connections.clear()
