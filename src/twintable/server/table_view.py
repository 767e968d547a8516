"""What a table's parts (``server/seating.py``, ``presence.py``, ``automation.py``,
``listing.py``) see of their table, and what a table sees of the game server.

These are protocols: :class:`~twintable.server.tables.Table` and
:class:`~twintable.server.game_server.GameServer` satisfy them, and the parts name only
them, so that the parts, the table and the game server import one way
(tests/test_layers.py finds import circles, type-only imports included).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, Protocol

from twintable.core.game import Game
from twintable.core.plugin import GameEntry
from twintable.core.registry import GameRegistry
from twintable.server.connection import Connection
from twintable.server.hosting import TableHost
from twintable.server.settings import Settings
from twintable.server.storage.models import SeatRow, TableRow
from twintable.server.storage.store import Store


class ServerView(Protocol):
    """What a table and its parts use of the game server that runs it."""

    @property
    def registry(self) -> GameRegistry: ...
    @property
    def settings(self) -> Settings: ...
    @property
    def store(self) -> Store: ...
    @property
    def metrics(self) -> Any: ...
    @property
    def host(self) -> TableHost:
        """Whether this process may run a table, and who else does."""
    @property
    def records(self) -> dict[str, list[dict[str, Any]]]:
        """Finished rounds by game, for bots that learn from people."""
    @property
    def tables(self) -> Mapping[str, object]:
        """The tables this process runs, by id."""

    def lose_later(self, table_id: str) -> None: ...
    def retire_later(self, table_id: str) -> None: ...


class SeatingView(Protocol):
    """What the other parts read of a table's seating."""

    @property
    def creator_seat(self) -> int: ...
    @property
    def private(self) -> bool: ...
    @property
    def reserved(self) -> set[int]: ...
    @property
    def conceded(self) -> set[int]: ...


class PresenceView(Protocol):
    """What the other parts read of who is at a table."""

    @property
    def connections(self) -> set[Connection]: ...

    def connected_seats(self) -> set[int | None]: ...
    def stand_in_from(self, seat: int) -> float | None: ...
    def stands_in(self, seat: int, now: float) -> bool: ...


class AutomationView(Protocol):
    """What the other parts ask of a table's automatic moves."""

    def wake(self) -> None: ...
    def load_bots(self) -> None: ...


class TableView(Protocol):
    """What a table's parts use of their table: its rows, state and lock, its move
    pipeline, its announcements, and each other."""

    @property
    def id(self) -> str: ...
    @property
    def server(self) -> ServerView: ...
    @property
    def row(self) -> TableRow: ...
    @property
    def seats(self) -> list[SeatRow]: ...
    @property
    def entry(self) -> GameEntry: ...
    @property
    def game(self) -> Game[Any]: ...
    @property
    def state(self) -> Any: ...
    @property
    def seq(self) -> int:
        """The moves made so far."""
    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def fence(self) -> int | None: ...
    @property
    def unsure(self) -> bool: ...
    @property
    def status(self) -> str: ...
    @property
    def seating(self) -> SeatingView: ...
    @property
    def presence(self) -> PresenceView: ...
    @property
    def automation(self) -> AutomationView: ...

    def snapshot(self, viewer: int | None) -> str: ...
    def missed(self, viewer: int | None, since: int) -> list[str]: ...
    def announce(self, skip: Connection | None = None) -> None: ...
    async def submit(self, seat: int, kind: str, payload: dict[str, Any],
                     client_id: str | None, version: int | None,
                     not_before_ms: int | None = None) -> str: ...
