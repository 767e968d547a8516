"""One client's conversation with a table over its WebSocket: the hello first, then
actions, each checked (size, rate, JSON, schema, seat) and answered in order with the
table's broadcasts. The same session serves a client of another worker through the
cluster bus (``server/relay.py``), over a socket shaped like a WebSocket."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import WebSocket
from pydantic import ValidationError

from twintable.core.errors import RuleError
from twintable.server.bus import RelayedHello
from twintable.server.guards import FLOOD_PAUSE_S, Allowance
from twintable.server.limits import BadJson, bounded_json, glanced_id, readable_id
from twintable.server.moves import check_version, checked_payload
from twintable.server.presence import Connection
from twintable.server.protocol import (
    CLIENT_TYPES,
    PROTOCOL_VERSION,
    ActionMessage,
    ChatReact,
    ChatSay,
    ChatSetting,
    ErrorMessage,
    Hello,
    Ping,
    Pong,
    Welcome,
    chat_refusal,
    client_message,
    quick_action,
)
from twintable.server.seating import digest
from twintable.server.settings import Settings
from twintable.server.tables import Table


class SocketSession:
    """One client's conversation: hello first, then actions, each answered."""

    def __init__(self, websocket: WebSocket, table: Table, settings: Settings,
                 shared: Allowance | None = None, relayed: bool = False):
        self.websocket = websocket
        self.relayed = relayed
        """A client of another worker, whose hello comes as a
        :class:`~twintable.server.bus.RelayedHello` (hashes, never the secrets)."""
        self.shared = shared
        """The allowance every socket of this client's address draws from too."""
        self.table = table
        self.settings = settings
        self.connection: Connection | None = None
        self.allowance = float(settings.message_burst)
        self.checked = time.monotonic()
        self.refused_in_a_row = 0

    async def run(self) -> None:
        while True:
            frame = await self.websocket.receive()
            if frame["type"] == "websocket.disconnect":
                return
            text = frame.get("text")
            if text is None and frame.get("bytes") is not None:
                text = frame["bytes"].decode("utf-8", "replace")
            answer = await self.handle(text or "")
            if answer is not None:
                if isinstance(answer, ErrorMessage):
                    self.refused_in_a_row += 1
                else:
                    self.refused_in_a_row = 0
                await self.send(answer)
                if (isinstance(answer, ErrorMessage) and answer.code == "rate.limited"
                        and self.shared is not None and self.shared.flooded):
                    await asyncio.sleep(FLOOD_PAUSE_S)  # see Allowance: a flood waits
            if self.refused_in_a_row >= self.settings.abuse_limit:
                await self.websocket.close(code=1008, reason="too many bad messages")
                return

    async def send(self, message: Any) -> None:
        text = message if isinstance(message, str) else message.model_dump_json()
        if self.connection is not None:
            self.connection.send(text)  # keeps answers in order with broadcasts
        else:
            await self.websocket.send_text(text)

    def _rate_ok(self) -> bool:
        now = time.monotonic()
        rate, burst = self.settings.messages_per_second, self.settings.message_burst
        self.allowance = min(burst, self.allowance + (now - self.checked) * rate)
        self.checked = now
        if self.allowance < 1 or (self.shared is not None and not self.shared.take()):
            return False
        self.allowance -= 1
        return True

    async def handle(self, text: str) -> Any:
        if len(text.encode()) > self.settings.max_frame_bytes:
            return ErrorMessage(code="message.too_large",
                                message=f"frames are limited to {self.settings.max_frame_bytes}"
                                        " bytes")
        if not self._rate_ok():  # before reading it: a flood's frames cost no parsing
            return ErrorMessage(id=glanced_id(text), code="rate.limited",
                                message="too many messages; slow down")
        refused: BadJson | None = None
        try:
            data = bounded_json(text)
        except BadJson as error:
            data, refused = None, error
        client_id = (data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str)
                     else None)
        if refused is not None:
            code = "message.invalid_json" if refused.code == "json.invalid" else refused.code
            return ErrorMessage(id=readable_id(text), code=code, message=refused.message)
        if not isinstance(data, dict) or data.get("type") not in CLIENT_TYPES:
            return ErrorMessage(code="message.unknown_type",
                                message="expected a message of type hello, action, ping, "
                                        "chat, react or chat_setting")
        message: Any = quick_action(data)
        try:
            if self.relayed and data["type"] == "hello":
                relayed = RelayedHello.model_validate(data)
                return await self.greeted(self.hello(relayed.protocol, relayed.token_hash,
                                                     relayed.key_hash, relayed.since))
            if message is None:
                message = client_message.validate_python(data)
        except ValidationError as error:
            if data["type"] in ("chat", "react", "chat_setting"):
                return chat_refusal(client_id, error)
            first = error.errors()[0]
            return ErrorMessage(id=client_id, code="message.invalid",
                                message=f"{'.'.join(map(str, first['loc']))}: {first['msg']}")
        if isinstance(message, Ping):
            return Pong()
        if isinstance(message, Hello):
            if self.relayed:  # another worker sends hellos only as RelayedHello
                return ErrorMessage(code="message.invalid", message="a relayed hello")
            return await self.greeted(self.hello(message.protocol, digest(message.token),
                                                 digest(message.key), message.since))
        if isinstance(message, ChatSay | ChatReact | ChatSetting):
            if self.connection is None:
                return ErrorMessage(id=message.id, code="auth.required",
                                    message="send hello with your seat token first")
            chat = self.table.chat
            return await asyncio.shield(chat.owned(chat.handle(self.connection, message)))
        return await self.act(message)

    async def greeted(self, answer: Any) -> Any:
        """After a hello's answer: a client now at the table is told its talk so far."""
        if answer is None and self.connection is not None:
            await self.table.chat.tell_history(self.connection)
        return answer

    def hello(self, protocol: int, token_hash: str | None, key_hash: str | None,
              since: int | None = None) -> Any:
        """Greet a client by its seat token's and invite key's hashes; tell it the moves
        after ``since`` that it missed."""
        if self.connection is not None:
            return ErrorMessage(code="hello.repeated", message="already greeted")
        if protocol != PROTOCOL_VERSION:
            return ErrorMessage(code="protocol.unsupported",
                                message=f"this server speaks protocol {PROTOCOL_VERSION}",
                                details={"protocol": PROTOCOL_VERSION})
        seat = self.table.seating.seat_for_hash(token_hash)
        if token_hash is not None and seat is None:
            return ErrorMessage(code="auth.invalid", message="that token holds no seat here")
        if seat is None and not self.table.seating.admits_hash(key_hash):
            return ErrorMessage(code="table.private",
                                message="this table is private: use its invite link")
        self.connection = self.table.presence.connect(self.websocket, seat)
        self.connection.send(Welcome(table=self.table.listing.info(), seat=seat).model_dump_json())
        self.table.presence.catch_up(self.connection, since)
        return None

    async def act(self, message: ActionMessage) -> Any:
        if self.connection is None:
            return ErrorMessage(id=message.id, code="auth.required",
                                message="send hello with your seat token first")
        seat = self.connection.seat
        if seat is None:
            return ErrorMessage(id=message.id, code="auth.spectator",
                                message="spectators cannot act")
        if message.table is not None and message.table != self.table.id:
            return ErrorMessage(id=message.id, code="auth.wrong_table",
                                message="this connection is for another table")
        if message.seat is not None and message.seat != seat:
            return ErrorMessage(id=message.id, code="auth.wrong_seat",
                                message="your token holds another seat")
        if seat in self.table.seating.conceded:
            return ErrorMessage(id=message.id, code="seat.conceded",
                                message="you conceded: a stand-in plays this seat to the end")
        try:
            payload = checked_payload(self.table.game, message.kind, message.payload)
            check_version(self.table.game, message.kind, message.version)
        except RuleError as error:
            return ErrorMessage(id=message.id, code=error.code, message=error.message,
                                details=error.details)
        # Shielded: a dropped connection or a shutdown must not cut a move in half
        # (written to the log but not applied, or applied but not answered).
        return await asyncio.shield(self.table.submit(seat, message.kind, payload,
                                                      message.id, message.version))

    async def close(self) -> None:
        if self.connection is not None:
            await self.table.presence.disconnect(self.connection)
