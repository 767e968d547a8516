"""Listing: how one table is described to the lobby, and to the shared lobby of every
worker (``server/cluster.py``) when there are several.

The description (:class:`~twintable.server.protocol.TableInfo`) is made once per change
and serves both the table's own frames and the lobby's lists. Private tables are never
listed; a table is listed again under a new status only when its status changes.
"""

from __future__ import annotations

import time

from twintable.server.presence import DEFAULT_GRACE_S
from twintable.server.protocol import SeatInfo, TableInfo
from twintable.server.table_view import TableView

#: A table this worker has not yet described to the shared lobby (no status is empty).
NOT_LISTED_YET = ""


class Listing:
    """One table's description, and where the shared lobby lists it."""

    def __init__(self, table: TableView):
        self.table = table
        self.listed_as: str | None = NOT_LISTED_YET
        """The status the shared lobby lists this table under (several workers)."""

    def info(self) -> TableInfo:
        table = self.table
        row, seating = table.row, table.seating
        connected = table.presence.connected_seats()
        now = time.monotonic()
        return TableInfo(
            id=table.id, game=row.game, name=row.name, players=row.players,
            host_name=(row.settings or {}).get("host_name"), private=seating.private,
            status=row.status,  # type: ignore[arg-type]
            options=dict(row.options),
            seats=[SeatInfo(seat=s.seat, kind=s.kind,  # type: ignore[arg-type]
                            bot=s.bot, display_name=s.display_name,
                            connected=s.kind == "bot" or s.seat in connected,
                            stand_in=table.state is not None
                            and table.presence.stands_in(s.seat, now),
                            reserved=s.kind == "empty" and s.seat in seating.reserved,
                            conceded=s.seat in seating.conceded)
                   for s in table.seats],
            turn_limit_s=(row.settings or {}).get("turn_limit_s"),
            grace_s=(row.settings or {}).get("grace_s", DEFAULT_GRACE_S),
            result=row.result, creator_seat=seating.creator_seat,
            rematch=(row.settings or {}).get("rematch"),
            rematch_of=(row.settings or {}).get("rematch_of"),
            chat=(row.settings or {}).get("chat", True) is not False,
            tutorial=bool((row.settings or {}).get("tutorial")))

    def publish(self, info_json: str) -> None:
        """Give the shared lobby the table's new description (its host tells the other
        workers, if any)."""
        table = self.table
        listed_as = None if table.seating.private else table.status
        table.server.host.publish(table.id, table.row.created_ms, info_json, listed_as,
                                  relist=listed_as != self.listed_as)
        self.listed_as = listed_as
