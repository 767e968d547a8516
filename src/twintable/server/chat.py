"""A table's talk: chat lines and quick reactions, their two channels, their limits, the
host's switch, and their log in the store.

Channels. A seated player (or a bot) speaks on the players' channel, which every client
of the table sees; a spectator speaks on the spectators' channel, which only spectators
see while the game is played: a player never reads what someone watching tells them
(a spectator's view of a game may hold more than a player's). Both channels are in the
replay, once the game is over. Chat is never a game view: a line holds what a person
typed, or a bot's emote, and nothing the server knows of the game.

Limits. A line is at most :data:`~twintable.server.protocol.CHAT_MAX_CHARS` characters
(checked by pydantic at the edge, refused as ``chat.too_long``); each person (a seat,
whichever of its tabs speaks, or a spectator's address group) has a token bucket
(:data:`CHAT_BURST` lines at once, then one every ``1 / CHAT_PER_S`` seconds; refused as
``chat.rate_limited``); the table's host (the creator's seat) turns the talk off and on
(``chat.off`` while off, for everyone, bots included). Muting a person is each viewer's
own choice, kept by the browser (``web/table/chat_rules.js``).

Storage. A line is broadcast only once the store has it (as a move is acknowledged only
once logged), numbered per table; the lines are read back the first time a table needs
them, so they survive a restart and a move to another worker like the rest of the
table. With several workers a client of another worker is served by the table's own
worker through the relay, so the talk reaches every client of the table.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Coroutine
from typing import Any, TypeVar

from twintable.server import clock
from twintable.server.address_groups import address_group
from twintable.server.connection import Connection
from twintable.server.guards import Allowance
from twintable.server.protocol import (
    ChatFrame,
    ChatLine,
    ChatReact,
    ChatSay,
    ChatSetting,
    ErrorMessage,
)
from twintable.server.storage.models import ChatLineRow
from twintable.server.storage.moves import FencedOut
from twintable.server.table_view import TableView

log = logging.getLogger("twintable.server")

#: Lines one person may say at once, then :data:`CHAT_PER_S` a second.
CHAT_BURST = 5
CHAT_PER_S = 0.5
#: The latest lines a client is told when it connects.
HISTORY_LINES = 100
#: Lines kept in memory per table (older ones stay in the store and the replay).
KEPT_LINES = 200
#: How long a stopping table waits for its talk being read or kept.
SETTLE_S = 5.0

T = TypeVar("T")

PLAYERS, SPECTATORS = "players", "spectators"

#: Keys the hash that names a spectator by their address: the name is stable at a table
#: while its worker runs it, and nobody can read an address back from it.
_WATCHER_KEY = secrets.token_bytes(16)


def watcher_author(table_id: str, connection: Connection, ipv6_prefix: int = 64) -> str:
    """A spectator's author key: their address group (one person's tabs and reconnections
    alike, so a mute and the rate hold), hashed with the table's id and a secret."""
    client = getattr(connection.websocket, "client", None)
    if isinstance(client, str):  # a client of another worker: its group, made there
        address = client
    else:
        address = address_group(getattr(client, "host", None) or "unknown", ipv6_prefix)
    digest = hashlib.blake2b(f"{table_id}\x00{address}".encode(), key=_WATCHER_KEY,
                             digest_size=5).hexdigest()
    return f"watcher:{digest}"


def line_of(row: ChatLineRow) -> ChatLine:
    return ChatLine(n=row.n, channel=row.channel,  # type: ignore[arg-type]
                    author=row.author, seat=row.seat, name=row.name, bot=row.bot,
                    text=row.text, emote=row.emote, seq=row.seq, t_ms=row.t_ms)


def sees(line: ChatLine, viewer: int | None) -> bool:
    """Whether a client (its seat, None: a spectator) sees a line during the game."""
    return line.channel == PLAYERS or viewer is None


class TableChat:
    """One table's talk: its lines, its people's buckets, its switch."""

    def __init__(self, table: TableView):
        self.table = table
        self.lines: list[ChatLine] | None = None
        """The latest lines, oldest first (None: not read from the store yet)."""
        self.last_n = 0
        self.lock = asyncio.Lock()
        self.buckets: dict[str, Allowance] = {}
        self.pending: set[asyncio.Task[Any]] = set()

    @property
    def enabled(self) -> bool:
        return (self.table.row.settings or {}).get("chat", True) is not False

    async def _loaded(self) -> list[ChatLine]:
        """The lines, read from the store the first time (call under :attr:`lock`)."""
        if self.lines is None:
            rows = await self.table.server.store.load_chat(self.table.id)
            self.lines = [line_of(row) for row in rows[-KEPT_LINES:]]
            self.last_n = rows[-1].n if rows else 0
        return self.lines

    def owned(self, work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """``work`` as a task of the table's, not of the socket that asked for it: a
        client that leaves mid-query cancels its session, and a query cancelled half-way
        left aiosqlite's connection to be torn down while the server stopped (a hang at
        exit). A socket awaits it shielded; :meth:`settle` waits for it."""
        task = asyncio.get_running_loop().create_task(work)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)
        return task

    async def settle(self) -> None:
        """Wait (a few seconds at most) for the talk being read or kept to be done."""
        if self.pending:
            await asyncio.wait(set(self.pending), timeout=SETTLE_S)

    async def _read(self) -> list[ChatLine]:
        async with self.lock:
            return list(await self._loaded())

    async def tell_history(self, connection: Connection) -> None:
        """A client that just connected: the latest lines it may see (nothing when
        there are none)."""
        try:
            lines = await asyncio.shield(self.owned(self._read()))
        except asyncio.CancelledError:
            raise
        except Exception:  # the talk is a bonus: a database hiccup must not stop a hello
            log.warning("could not read the table's chat", extra={"table": self.table.id},
                        exc_info=True)
            return
        seen = [line for line in lines if sees(line, connection.seat)][-HISTORY_LINES:]
        if seen:
            connection.send(ChatFrame(lines=seen, history=True).model_dump_json())

    def _author(self, connection: Connection) -> str:
        if connection.seat is not None:
            return f"seat:{connection.seat}"
        return watcher_author(self.table.id, connection,
                              self.table.server.settings.ipv6_prefix)

    def _bucket_allows(self, author: str) -> bool:
        bucket = self.buckets.get(author)
        if bucket is None:
            if len(self.buckets) > 1_000:  # spectators long gone
                self.buckets.clear()
            bucket = self.buckets[author] = Allowance(CHAT_PER_S, CHAT_BURST)
        return bucket.take()

    async def handle(self, connection: Connection,
                     message: ChatSay | ChatReact | ChatSetting) -> ErrorMessage | None:
        """A client's chat message: said (None), or the refusal."""
        if isinstance(message, ChatSetting):
            return await self.switch(connection, message)
        if not self.enabled:
            return ErrorMessage(id=message.id, code="chat.off",
                                message="the table's host turned chat off")
        author = self._author(connection)
        if not self._bucket_allows(author):
            return ErrorMessage(id=message.id, code="chat.rate_limited",
                                message="you are chatting too fast; wait a few seconds")
        seat = connection.seat
        name = (message.name if seat is None else self.table.seats[seat].display_name) or ""
        text = message.text if isinstance(message, ChatSay) else None
        emote = message.emote if isinstance(message, ChatReact) else None
        return await self.post(PLAYERS if seat is not None else SPECTATORS, author, seat,
                               name, text=text, emote=emote, message_id=message.id)

    async def switch(self, connection: Connection, message: ChatSetting) -> ErrorMessage | None:
        table = self.table
        if connection.seat is None or connection.seat != table.seating.creator_seat:
            return ErrorMessage(id=message.id, code="chat.host_only",
                                message="only the table's host can turn chat on or off")
        if message.enabled == self.enabled:
            return None
        settings = {**(table.row.settings or {}), "chat": message.enabled}
        try:
            await table.server.store.save_settings(table.id, settings, table.fence)
        except FencedOut:
            return ErrorMessage(id=message.id, code="table.moved",
                                message="another server runs this table now; reconnect")
        except Exception:
            log.warning("could not save the chat setting", extra={"table": table.id},
                        exc_info=True)
            return ErrorMessage(id=message.id, code="storage.failed",
                                message="the database is out of reach; try again in a moment")
        table.row.settings = settings
        table.announce()
        return None

    async def post(self, channel: str, author: str, seat: int | None, name: str, *,
                   text: str | None = None, emote: str | None = None, bot: bool = False,
                   message_id: str | None = None) -> ErrorMessage | None:
        """Store one line, then tell everyone who may see it."""
        table = self.table
        async with self.lock:
            lines = await self._loaded()
            row = ChatLineRow(table_id=table.id, n=self.last_n + 1, channel=channel,
                              author=author, seat=seat, name=name, bot=bot, text=text,
                              emote=emote, seq=table.seq, t_ms=clock.now_ms())
            try:
                await table.server.store.append_chat_line(row, table.fence)
            except FencedOut:
                return ErrorMessage(id=message_id, code="table.moved",
                                    message="another server runs this table now; reconnect")
            except Exception:
                log.warning("could not keep a chat line", extra={"table": table.id},
                            exc_info=True)
                return ErrorMessage(id=message_id, code="storage.failed",
                                    message="the database is out of reach; the line was not "
                                            "sent, try again in a moment")
            self.last_n = row.n
            line = line_of(row)
            lines.append(line)
            del lines[:-KEPT_LINES]
            frame = ChatFrame(lines=[line]).model_dump_json()
            for connection in table.presence.connections:
                if sees(line, connection.seat):
                    connection.send(frame)
        return None

    def post_later(self, seat: int, emote: str) -> None:
        """A bot's reaction, stored and told after the move that prompted it (a move's
        lock is held while it is decided)."""
        self.owned(self.post(PLAYERS, f"seat:{seat}", seat, "", emote=emote, bot=True))

    async def stored(self) -> list[ChatLine]:
        """Every line of the table, both channels (for the replay)."""
        rows = await self.table.server.store.load_chat(self.table.id)
        return [line_of(row) for row in rows]
