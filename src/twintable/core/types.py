"""The small records every game speaks: actions in, events out."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

#: The seat used for actions that no player sends, such as a timer firing.
SYSTEM_SEAT = -1
#: The kind of the system action a table sends when a game's deadline passes.
TICK = "tick"

JSONValue = Any
Payload = Mapping[str, JSONValue]
NO_PAYLOAD: Payload = MappingProxyType({})


def _freeze(payload: Payload) -> tuple[tuple[str, JSONValue], ...]:
    return tuple(sorted((key, _frozen(value)) for key, value in payload.items()))


_SCALARS = frozenset({str, int, float, bool, type(None)})


def plain(value: JSONValue) -> JSONValue:
    """The JSON-normal form of a value: tuples become lists, mappings dicts."""
    # Exact scalar types first: every frame's events and legal moves come through here,
    # and ``isinstance(value, Mapping)`` is an abstract-class check, ten times dearer.
    if type(value) in _SCALARS:
        return value
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    return value


def _frozen(value: JSONValue) -> JSONValue:
    """A hashable stand-in for a JSON value (lists become tuples, objects sorted pairs)."""
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, Mapping):
        return _freeze(value)
    return value


class Action(NamedTuple):
    """One thing a seat (or the system clock) does. Read-only, payload included.

    ``t_ms`` is the server's receive time, an input to the engine: engines never read a
    clock. Two actions are the same move when seat, kind and payload match; the time is
    not part of that identity (see :meth:`key`). A named tuple rather than a frozen
    dataclass because it is built on the simulation's hot path and is twice as fast to make.
    """

    seat: int
    kind: str
    payload: Payload = NO_PAYLOAD
    t_ms: int = 0

    def key(self) -> tuple[int, str, tuple[tuple[str, JSONValue], ...]]:
        return (self.seat, self.kind, _freeze(self.payload))

    def at(self, t_ms: int) -> Action:
        """The same move, stamped with another receive time."""
        return Action(self.seat, self.kind, self.payload, t_ms)

    def to_json(self) -> dict[str, JSONValue]:
        return {"seat": self.seat, "kind": self.kind, "payload": plain(self.payload),
                "t_ms": self.t_ms}

    @classmethod
    def from_json(cls, data: Mapping[str, JSONValue]) -> Action:
        return cls(int(data["seat"]), str(data["kind"]), dict(data.get("payload", {})),
                   int(data.get("t_ms", 0)))


class Event(NamedTuple):
    """Something that happened, for the log and the clients.

    ``audience`` is None for a public event; otherwise only those seats may receive it
    (spectators never do). Games emit a private event beside a redacted public one when a
    detail is secret, e.g. the card a player drew.
    """

    kind: str
    data: Mapping[str, JSONValue] = NO_PAYLOAD
    audience: frozenset[int] | None = None

    def visible_to(self, viewer: int | None) -> bool:
        if self.audience is None:
            return True
        return viewer is not None and viewer in self.audience

    def to_json(self) -> dict[str, JSONValue]:
        return {"kind": self.kind, "data": plain(self.data)}


def events_for(events: list[Event], viewer: int | None) -> list[Event]:
    """The events one audience (a seat, or None for spectators) may receive."""
    return [event for event in events if event.visible_to(viewer)]
