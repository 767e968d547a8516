"""What each kind of action carries: its payload keys and their types, declared as data.

A game declares, per action kind a client may send, the keys of the payload and what
each holds. The server turns these declarations into strict schemas and checks every
move at its edge (unknown keys refused, types exact, numbers and strings bounded), then
stores the checked, canonical payload; the engine's hot path never sees them. Kinds a
client may not send (the table clock's ``tick``) are simply not declared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

PayloadType = Literal["int", "bool", "str", "int_list"]


@dataclass(frozen=True, slots=True)
class PayloadField:
    """One key of an action's payload.

    ``int``: a whole number in [minimum, maximum] (never a boolean or a float);
    ``bool``: true or false; ``str``: at most ``max_length`` characters, one of
    ``choices`` when given; ``int_list``: at most ``max_items`` whole numbers, each in
    [minimum, maximum].
    """

    type: PayloadType
    required: bool = True
    minimum: int = 0
    maximum: int = 10_000
    max_length: int = 64
    max_items: int = 16
    choices: tuple[str, ...] | None = None


#: Per action kind, its payload's keys. A kind with no keys takes an empty payload.
ActionPayloads = Mapping[str, Mapping[str, PayloadField]]

#: A seat number in a payload (a catch's target, a contested duo member).
SEAT = PayloadField("int", maximum=63)
