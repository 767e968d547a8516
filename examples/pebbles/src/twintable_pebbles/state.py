"""The whole state of a Pebbles game (every seat sees all of it). Only the rules change it."""

from __future__ import annotations

from typing import Any

from twintable.core.slots import SlotState

NOBODY = -1


class PebblesState(SlotState):
    """Mutable state with an explicit :meth:`clone`. ``taken`` counts each seat's pebbles;
    ``last`` is the latest move as (seat, count), ``last_taker`` who emptied the heap."""

    __slots__ = ("heap", "last", "last_taker", "options", "over", "players", "taken",
                 "turn", "version")

    def __init__(self, options: dict[str, Any], players: int):
        self.options = options
        self.players = players
        self.version = 0
        self.heap: int = options["heap"]
        self.taken = [0] * players
        self.turn = 0
        self.last: tuple[int, int] | None = None
        self.last_taker = NOBODY
        self.over = False

