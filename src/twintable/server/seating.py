"""Seating: who sits where at one table, who may open it, and the changes of seats
before its start (join, leave, a bot in a seat, a rematch's kept seats).

Seats are held by secret tokens (the server keeps only their hashes); the table's powers
(start, seats, bots) belong to whoever sits in the creator's seat. Every change is saved
with the table's fencing token and announced to everyone at the table.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

from twintable.bots.registry import table_bot
from twintable.core.plugin import GameEntry
from twintable.server.errors import LobbyError
from twintable.server.storage.models import SeatRow
from twintable.server.table_view import TableView

#: ``creator_seat`` when every person has left a table before its start.
NO_CREATOR = -1
#: Names for bot seats: short, easy to say in the four languages of the client, and
#: distinct at a table, so a log line never leaves you wondering which bot it means.
BOT_NAMES = ("Ada", "Bo", "Chen", "Dara", "Emil", "Farah", "Goran", "Hana", "Ines", "Jun",
             "Kofi", "Lina", "Mateo", "Nia", "Oskar", "Priya", "Ravi", "Sofia", "Taro",
             "Uma", "Vera", "Wim", "Yara", "Zeno")


def bot_name(table_id: str, seat: int, taken: set[str]) -> str:
    """A bot seat's name, the same for a table and seat in every process (sha256, never
    ``hash()``), skipping names already at the table (compared without case)."""
    start = int(hashlib.sha256(f"{table_id}:{seat}".encode()).hexdigest(), 16)
    used = {name.casefold() for name in taken}
    for step in range(len(BOT_NAMES)):
        name = BOT_NAMES[(start + step) % len(BOT_NAMES)]
        if name.casefold() not in used:
            return name
    return f"{BOT_NAMES[start % len(BOT_NAMES)]} {seat + 1}"


def seated_bot(entry: GameEntry, bot: str | None) -> str:
    """The bot a seat gets for ``bot`` (a bot's name or level, with a noise or without:
    ``medium@0.2``, :func:`~twintable.bots.registry.table_bot`), or ``bot.unknown``."""
    try:
        seated = None if bot is None else table_bot(entry, bot)
    except ValueError as error:  # a malformed noise (requests' models refuse it first)
        raise LobbyError(422, "bot.unknown", str(error)) from None
    if seated is None:
        raise LobbyError(422, "bot.unknown", f"unknown bot {bot!r} for {entry.id}")
    return seated


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def digest(secret: str | None) -> str | None:
    """A secret's hash, or None for none."""
    return hash_token(secret) if secret else None


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits


def key_opens(invite_hash: object, key: str | None) -> bool:
    """Whether ``key`` opens a table whose invite secret hashes to ``invite_hash``: any
    key when there is none (a public table)."""
    return key_hash_opens(invite_hash, digest(key))


def key_hash_opens(invite_hash: object, key_hash: str | None) -> bool:
    """:func:`key_opens` for a key's hash (another worker sends only that)."""
    if not invite_hash:
        return True
    return bool(key_hash) and secrets.compare_digest(str(invite_hash), key_hash or "")


def token_seat(seats: Sequence[SeatRow], token: str | None) -> int | None:
    """The seat ``token`` holds among ``seats``, compared by hash."""
    return token_hash_seat(seats, digest(token))


def token_hash_seat(seats: Sequence[SeatRow], token_hash: str | None) -> int | None:
    """:func:`token_seat` for a token's hash (another worker sends only that)."""
    if not token_hash:
        return None
    for seat in seats:
        if seat.token_hash is not None and secrets.compare_digest(seat.token_hash,
                                                                  token_hash):
            return seat.seat
    return None


class Seating:
    """The seats of one table and the lobby's changes to them."""

    def __init__(self, table: TableView):
        self.table = table
        for seat_row in table.seats:  # bot seats made before bots had names get theirs now
            if seat_row.kind == "bot" and not seat_row.display_name:
                seat_row.display_name = self.bot_name(seat_row.seat)

    # -- who is who ---------------------------------------------------------------------
    @property
    def creator_seat(self) -> int:
        return int((self.table.row.settings or {}).get("creator_seat", 0))

    @property
    def private(self) -> bool:
        return bool((self.table.row.settings or {}).get("invite_hash"))

    def admits(self, key: str | None) -> bool:
        """Whether ``key`` opens this table: any key for a public one, the invite link's
        secret for a private one (compared by hash: the server keeps only that)."""
        return key_opens((self.table.row.settings or {}).get("invite_hash"), key)

    def admits_hash(self, key_hash: str | None) -> bool:
        """:meth:`admits` for a key's hash (another worker sends only that)."""
        return key_hash_opens((self.table.row.settings or {}).get("invite_hash"), key_hash)

    @property
    def joined_from(self) -> dict[int, str]:
        """The address group each person who joined a seat came from (by seat)."""
        joined = (self.table.row.settings or {}).get("joined_from", {})
        return {int(seat): str(group) for seat, group in joined.items()}

    @property
    def kicked(self) -> set[str]:
        """Profiles and address groups the creator removed from a seat: they may watch,
        not sit here again (a kicked seat was taken back 20 of 20 times in issue #38)."""
        return set((self.table.row.settings or {}).get("kicked", []))

    @property
    def reserved(self) -> set[int]:
        """Empty seats a rematch keeps for the people of the previous game."""
        return set((self.table.row.settings or {}).get("reserved", []))

    @property
    def conceded(self) -> set[int]:
        """Seats whose person conceded: a stand-in plays them to the end."""
        return set((self.table.row.settings or {}).get("conceded", []))

    async def concede(self, seat: int) -> None:
        """The person in ``seat`` gives the game up: from now on a stand-in plays the seat
        (``Presence.stand_in_from``) and the game is rated a loss for them."""
        table = self.table
        if table.seats[seat].kind != "human":
            raise LobbyError(409, "seat.not_human", "only a person's seat can concede")
        if table.row.status != "running" or table.state is None \
                or table.game.is_over(table.state):
            raise LobbyError(409, "table.not_running", "only a game in play can be conceded")
        if seat in self.conceded:
            raise LobbyError(409, "seat.conceded", "this seat has conceded already")
        table.row.settings = {**(table.row.settings or {}),
                              "conceded": sorted(self.conceded | {seat})}
        await table.server.store.save_settings(table.id, table.row.settings, table.fence)
        table.automation.wake()
        table.announce()

    async def _set_reserved(self, seats: set[int]) -> None:
        table = self.table
        table.row.settings = {**(table.row.settings or {}), "reserved": sorted(seats)}
        await table.server.store.save_settings(table.id, table.row.settings, table.fence)

    def bot_name(self, seat: int) -> str:
        taken = {s.display_name for s in self.table.seats
                 if s.seat != seat and s.display_name}
        return bot_name(self.table.id, seat, taken)

    def seat_for_token(self, token: str | None) -> int | None:
        return token_seat(self.table.seats, token)

    def seat_for_hash(self, token_hash: str | None) -> int | None:
        """The seat a token holds, from the token's hash (another worker sends only that)."""
        return token_hash_seat(self.table.seats, token_hash)

    def is_creator(self, token_hash: str | None) -> bool:
        """The table's powers (start, seats, bots) belong to whoever sits in the creator's
        seat, not to a token: a creator who leaves leaves them to the next person."""
        seat = self.seat_for_hash(token_hash)
        return seat is not None and seat == self.creator_seat

    def require_open(self) -> None:
        if self.table.row.status != "open":
            raise LobbyError(409, "table.started", "the table has already started")

    # -- lobby changes (before the start) -----------------------------------------------
    async def join(self, display_name: str, player_id: str | None,
                   seat: int | None, token_hash: str, client: str | None = None) -> int:
        """Seat a person (held by the token whose hash is ``token_hash``; ``client``: the
        address group they came from): the seat."""
        table = self.table
        async with table.lock:
            self.require_open()
            if (player_id is not None and player_id in self.kicked) or (
                    client is not None and client in self.kicked):
                raise LobbyError(403, "seat.kicked",
                                 "the table's creator took you off this table")
            free = [s for s in table.seats if s.kind == "empty" and s.seat not in self.reserved]
            if seat is not None:
                free = [s for s in free if s.seat == seat]
            if not free:
                raise LobbyError(409, "table.full" if seat is None else "seat.taken",
                                 "no free seat" if seat is None else "that seat is taken")
            if player_id is not None and any(s.player_id == player_id and s.kind == "human"
                                             for s in table.seats):
                # One person, one seat: two seats would be rated for one profile.
                raise LobbyError(409, "profile.seated",
                                 "your profile already holds a seat at this table")
            chosen = free[0]
            chosen.kind, chosen.display_name, chosen.player_id = "human", display_name, player_id
            chosen.token_hash, chosen.bot = token_hash, None
            await table.server.store.save_seat(chosen, table.fence)
            if client is not None:
                joined = {**self.joined_from, chosen.seat: client}
                table.row.settings = {**(table.row.settings or {}),
                                      "joined_from": {str(s): g for s, g in joined.items()}}
                await table.server.store.save_settings(table.id, table.row.settings,
                                                       table.fence)
            if self.creator_seat == NO_CREATOR:  # everyone had left: this person leads now
                table.row.settings = {**(table.row.settings or {}), "creator_seat": chosen.seat}
                await table.server.store.save_settings(table.id, table.row.settings,
                                                       table.fence)
            table.announce()
            return chosen.seat

    async def claim(self, seat: int, token_hash: str) -> None:
        """The person this rematch keeps ``seat`` for takes it, held by the token whose
        hash is ``token_hash``."""
        table = self.table
        async with table.lock:
            self.require_open()
            row = table.seats[seat]
            if row.kind != "empty" or seat not in self.reserved:
                raise LobbyError(409, "seat.taken", "that seat is no longer kept for you")
            row.kind, row.token_hash, row.bot = "human", token_hash, None
            await table.server.store.save_seat(row, table.fence)
            await self._set_reserved(self.reserved - {seat})
            table.announce()

    async def leave(self, seat: int) -> None:
        async with self.table.lock:
            self.require_open()
            await self._empty_seat(seat)

    async def _kick(self, seat: int) -> None:
        """The creator takes a person off a seat: their profile and the address group
        they joined from may not sit at this table again."""
        table = self.table
        row = table.seats[seat]
        if row.kind != "human":
            return
        barred = self.kicked | {who for who in (row.player_id, self.joined_from.get(seat))
                                if who is not None}
        table.row.settings = {**(table.row.settings or {}), "kicked": sorted(barred)}
        await table.server.store.save_settings(table.id, table.row.settings, table.fence)

    async def set_bot(self, seat: int, bot: str | None) -> None:
        table = self.table
        async with table.lock:
            self.require_open()
            if not 0 <= seat < len(table.seats):
                raise LobbyError(404, "seat.unknown", "no such seat")
            await self._kick(seat)
            if bot is None:
                await self._empty_seat(seat)
                return
            bot = seated_bot(table.entry, bot)
            row = table.seats[seat]
            if row.kind != "bot":
                row.display_name = self.bot_name(seat)
            row.kind, row.bot = "bot", bot
            row.player_id = row.token_hash = None
            await table.server.store.save_seat(row, table.fence)
            if seat in self.reserved:
                await self._set_reserved(self.reserved - {seat})
            table.automation.load_bots()
            table.announce()

    async def _empty_seat(self, seat: int) -> None:
        table = self.table
        if not 0 <= seat < len(table.seats):
            raise LobbyError(404, "seat.unknown", "no such seat")
        row = table.seats[seat]
        row.kind, row.bot, row.display_name, row.player_id, row.token_hash = (
            "empty", None, None, None, None)
        await table.server.store.save_seat(row, table.fence)
        if seat in self.joined_from:  # the seat no longer counts for its address
            table.row.settings = {**(table.row.settings or {}), "joined_from": {
                str(s): g for s, g in self.joined_from.items() if s != seat}}
            await table.server.store.save_settings(table.id, table.row.settings, table.fence)
        if seat in self.reserved:  # the creator opens a kept seat to anyone
            await self._set_reserved(self.reserved - {seat})
        if seat == self.creator_seat:
            await self._pass_creator_role(seat)
        for connection in [c for c in table.presence.connections if c.seat == seat]:
            connection.seat = None  # a kicked player keeps watching as a spectator
        table.automation.load_bots()
        table.announce()

    async def _pass_creator_role(self, left: int) -> None:
        """The creator left: the next person seated after them (clockwise) takes over; with
        nobody seated, the next person to join does (see :meth:`join`)."""
        table = self.table
        count = len(table.seats)
        heir = next((table.seats[(left + step) % count].seat for step in range(1, count)
                     if table.seats[(left + step) % count].kind == "human"), NO_CREATOR)
        table.row.settings = {**(table.row.settings or {}), "creator_seat": heir}
        await table.server.store.save_settings(table.id, table.row.settings, table.fence)
