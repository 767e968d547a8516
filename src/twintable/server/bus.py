"""The messages workers send each other over the cluster bus (``server/cluster.py``).

Two conversations cross workers:

- **A forwarded client.** A worker serving a client whose table runs elsewhere opens a
  socket on the owner (:class:`SocketOpened`), then both send the client's and the
  table's frames (:class:`SocketFrame`) until either closes (:class:`SocketClosed`).
- **A lobby call.** A lobby request about a table goes to the worker that owns it, a
  new table to the worker chosen for it, and the tables of a draining worker to the
  workers that take them over: a :class:`LobbyCall` carrying one typed request
  (:data:`TableCall`, told apart by its ``op``), answered by a :class:`LobbyAnswer`.

No secret crosses: a profile's secret is checked by the worker that took the request,
and seat tokens and invite keys travel as their SHA-256 (what the database keeps, and
what the table's worker compares), so reading Redis (MONITOR, a replica, a dump) gives
nobody a way in.

On the wire each message is one line ``kind:ident:body`` (``ident``: the forwarded
connection's or the call's id), which the cluster sends behind its sender and number
(``server/cluster.py``). A frame's body is the client's text as it is, so the
hot path of a forwarded game costs no encoding of its own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from twintable.server.protocol import CreateTable, TableInfo


class Call(BaseModel):
    model_config = ConfigDict(frozen=True)


class TableCall(Call):
    """A request about one table, run by the worker that owns it."""

    table: str


class JoinCall(TableCall):
    op: Literal["join"] = "join"
    display_name: str
    player_id: str | None = None
    """Checked against its secret by the worker that took the request."""
    seat: int | None = None
    key_hash: str | None = None
    """The hash of the invite key the client gave (a private table needs it)."""
    token_hash: str
    """The hash of the new seat's token, made by the worker that answers the client."""
    client: str | None = None
    """The joiner's address group: its seats are bounded, and a kicked one stays out."""


class LeaveCall(TableCall):
    op: Literal["leave"] = "leave"
    token_hash: str | None


class ConcedeCall(TableCall):
    op: Literal["concede"] = "concede"
    token_hash: str | None


class StartCall(TableCall):
    op: Literal["start"] = "start"
    token_hash: str | None


class SeatBotCall(TableCall):
    """A bot in a seat, or the seat emptied (``bot`` None)."""

    op: Literal["bot"] = "bot"
    token_hash: str | None
    seat: int
    bot: str | None


class RematchCall(TableCall):
    op: Literal["rematch"] = "rematch"
    token_hash: str | None
    """The hash of the caller's token at the finished table."""
    new_token_hash: str
    """The hash of the caller's token at the rematch."""
    client: str
    """The caller's address, whose share of unfinished tables a new rematch counts in."""


class CreateCall(Call):
    """A new table, made on the worker placement chose (``reservation`` counts it there
    until it is made). The request carries no profile secret (the worker that took it
    checked the profile), and the creator's token and a private table's invite key
    travel as hashes: the worker that answers the client made them."""

    op: Literal["create"] = "create"
    request: CreateTable
    client: str
    reservation: str | None
    token_hash: str
    invite_hash: str | None = None


class TakeOverCall(Call):
    """A draining worker gave these tables' leases back: run them here now, rather than
    at the next scan (``GameServer.drain``). The answer names each table's socket here
    (None: not taken, or no address of this worker's own)."""

    op: Literal["take_over"] = "take_over"
    tables: list[str]


class Seated(BaseModel):
    """The answer to a create, a join or a rematch: the table and the caller's seat (the
    caller's token and key never leave the worker that made them)."""

    table: TableInfo
    seat: int
    socket: str | None = None
    """The table's WebSocket at the address of the worker that runs it (see
    :attr:`~twintable.server.protocol.Joined.socket`)."""


class RelayedHello(BaseModel):
    """A forwarded client's hello as the worker it reached sends it on to the table's
    worker: its seat token and invite key as their hashes (what the table keeps)."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["hello"]
    protocol: int
    token_hash: str | None = None
    key_hash: str | None = None
    since: int | None = None


OwnerCall = JoinCall | LeaveCall | ConcedeCall | StartCall | SeatBotCall | RematchCall
"""A call the table's owner runs."""
AnyCall = Annotated[OwnerCall | CreateCall | TakeOverCall, Field(discriminator="op")]
_CALL: TypeAdapter[AnyCall] = TypeAdapter(AnyCall)


class CallError(BaseModel):
    status: int
    code: str
    message: str


class CallAnswer(BaseModel):
    """A call's result (its JSON data) or the refusal it met."""

    ok: Any = None
    error: CallError | None = None


@dataclass(frozen=True, slots=True)
class SocketOpened:
    kind: ClassVar[str] = "o"
    ident: str
    table: str
    peer: str
    """The worker the client is connected to, where the table's frames go."""
    client: str
    """The client's address, for the owner's limits."""

    def body(self) -> str:
        return json.dumps({"table": self.table, "from": self.peer, "client": self.client})


@dataclass(frozen=True, slots=True)
class SocketFrame:
    kind: ClassVar[str] = "f"
    ident: str
    text: str

    def body(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class SocketClosed:
    kind: ClassVar[str] = "c"
    ident: str
    code: int

    def body(self) -> str:
        return str(self.code)


@dataclass(frozen=True, slots=True)
class LobbyCall:
    kind: ClassVar[str] = "r"
    ident: str
    peer: str
    """The worker that asks, where the answer goes."""
    call: AnyCall

    def body(self) -> str:
        return json.dumps({"from": self.peer, "call": self.call.model_dump(mode="json")})


@dataclass(frozen=True, slots=True)
class LobbyAnswer:
    kind: ClassVar[str] = "a"
    ident: str
    answer: CallAnswer

    def body(self) -> str:
        return self.answer.model_dump_json()


BusMessage = SocketOpened | SocketFrame | SocketClosed | LobbyCall | LobbyAnswer


def encode(message: BusMessage) -> str:
    return f"{message.kind}:{message.ident}:{message.body()}"


def decode(data: str) -> BusMessage:
    """A message from its wire form; ValueError for a line no worker sends."""
    kind, ident, body = data.split(":", 2)
    if kind == SocketFrame.kind:
        return SocketFrame(ident, body)
    if kind == SocketClosed.kind:
        return SocketClosed(ident, int(body))
    if kind == SocketOpened.kind:
        opened = json.loads(body)
        return SocketOpened(ident, opened["table"], opened["from"], opened["client"])
    if kind == LobbyCall.kind:
        asked = json.loads(body)
        return LobbyCall(ident, asked["from"], _CALL.validate_python(asked["call"]))
    if kind == LobbyAnswer.kind:
        return LobbyAnswer(ident, CallAnswer.model_validate_json(body))
    raise ValueError(f"unknown bus message kind {kind!r}")
