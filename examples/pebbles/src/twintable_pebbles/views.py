"""What a seat, or a spectator, sees of a Pebbles game: everything, since nothing is
hidden; the view is still its own type, so that a field added to the state stays out of
it until someone adds it here on purpose."""

from __future__ import annotations

from typing import Any, NamedTuple

from twintable.core.types import Action


class PebblesView(NamedTuple):
    viewer: int | None
    options: dict[str, Any]
    players: int
    heap: int
    taken: tuple[int, ...]
    turn: int
    last: tuple[int, int] | None
    over: bool
    winners: tuple[int, ...]
    legal: tuple[Action, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "pebbles",
            "viewer": self.viewer,
            "options": dict(self.options),
            "players": self.players,
            "heap": self.heap,
            "taken": list(self.taken),
            "turn": self.turn,
            "last": None if self.last is None else {"seat": self.last[0],
                                                    "count": self.last[1]},
            "over": self.over,
            "winners": list(self.winners),
            "legal": [{"kind": action.kind, "payload": dict(action.payload)}
                      for action in self.legal],
        }
