"""What kind of game a game is, declared as data (OpenSpiel's ``GameType``): how its
seats take turns, what they cannot see, whether chance plays a part, and what its moves
never create or destroy.

Shells and checks read the declaration instead of guessing from a game's behaviour: the
table and the simulator ask bots *when* they act in a real-time game, and the
conformance checks (``core/conformance.py``, ``twintable check``) decide from it which
checks apply: a game with nothing hidden needs no re-deal to prove its views leak
nothing, and a game without chance must play the same whatever its seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Dynamics(StrEnum):
    """How seats take their moves."""

    TURN_BASED = "turn-based"
    """One seat moves at a time, in an order the rules set (a short race for a call
    may open between two turns, as Timo's TIMO!)."""
    SIMULTANEOUS = "simultaneous"
    """Several seats commit moves at once, none seeing the others' until all are in."""
    REAL_TIME = "real-time"
    """A race on the clock: whoever is fastest moves first (``Game.realtime``)."""


class Information(StrEnum):
    """What a seat may not see."""

    PERFECT = "perfect"
    """Every seat sees the whole game (the RNG aside, which no view shows)."""
    HIDDEN = "hidden"
    """Some of the state is hidden from some seats: hands, a deck, secret picks."""


@dataclass(frozen=True, slots=True)
class GameType:
    """A game's type: ``dynamics``, ``information``, ``chance`` (whether the seed changes
    the game: a shuffle, a draw), and ``conserves``: the names of the quantities the game
    reports in ``Game.conserved`` that no move may change (``("cards",)``: every card
    is somewhere exactly once; ``("chips",)``: chips only change hands)."""

    dynamics: Dynamics
    information: Information
    chance: bool
    conserves: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"dynamics": self.dynamics.value, "information": self.information.value,
                "chance": self.chance, "conserves": list(self.conserves)}


__all__ = ["Dynamics", "GameType", "Information"]
