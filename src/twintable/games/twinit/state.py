"""The full state of a Twin It game, and how its visible cards are addressed.

Cards are numbered 0-134 (``deck.DECK``); ``up[card]`` says which face shows. A card is in
exactly one place: a seat's pile (its last element is the top), a centre slot, a side's
captured set, a side's taboo row, or (between time-attack rounds) the box. A *side* owns
sets: the seat itself in competitive play, a team in team play, everyone together in
cooperative play.

Players point at visible things with short references, never card numbers (a number
would give away the hidden face): ``c7`` centre slot 7, ``p2`` the top of seat 2's pile,
``s1.0`` side 1's first set, ``t0.2`` side 0's third taboo card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from twintable.core.rng import Rng
from twintable.core.slots import Copy, SlotState
from twintable.games.twinit.deck import DECK

READY, PLAY, OVER = "ready", "play", "over"
COMPETITIVE, TEAM, COOP, TIME_ATTACK = "competitive", "team", "coop", "timeattack"
FLIP, TOUCH, TURN_OVER, START = "flip", "touch", "turn_over", "start"
#: A person cannot touch more often than this in any second; more is refused.
MAX_TOUCHES_PER_S = 8


class Hand:
    """One hand on one visible thing: who, where, when it lifts by itself."""

    __slots__ = ("lift_ms", "ref", "seat")

    def __init__(self, seat: int, ref: str, lift_ms: int):
        self.seat = seat
        self.ref = ref
        self.lift_ms = lift_ms

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "card": self.ref, "lift_ms": self.lift_ms}


class TwinItState(SlotState):
    """Mutable state with an explicit :meth:`clone`; only the rules module mutates it."""

    __slots__ = (
        "box", "centre", "claim_ms", "claims", "clock", "contenders", "ends_ms", "errors",
        "finish_due", "finishers", "hands", "options", "pair_since", "phase", "piles",
        "players", "points", "public_cache", "rng", "round_no", "round_points", "seed",
        "sets", "side_of", "sides", "started_ms", "taboo", "takes", "tally", "touches",
        "triple_due", "turn", "up", "version", "winners",
    )

    #: How :meth:`clone` copies each changing field (the rest never change in place); the
    #: public view's cache starts empty in a copy.
    COPIES: ClassVar[Mapping[str, Copy]] = {
        "rng": "clone", "public_cache": "reset", "sets": "lists2",
        "hands": lambda hands: {ref: Hand(h.seat, h.ref, h.lift_ms)
                                for ref, h in hands.items()},
        **dict.fromkeys(("piles", "taboo", "touches"), "lists"),
        **dict.fromkeys(("box", "centre", "claim_ms", "claims", "errors", "points",
                         "round_points", "takes", "up"), "list"),
        **dict.fromkeys(("pair_since", "tally", "triple_due"), "dict"),
        **dict.fromkeys(("clock", "contenders", "ends_ms", "finish_due", "finishers",
                         "options", "phase", "players", "round_no", "seed", "side_of",
                         "sides", "started_ms", "turn", "version", "winners"), "share"),
    }

    def __init__(self, options: dict[str, Any], players: int, seed: int, side_of: list[int]):
        self.options = options
        self.players = players
        self.seed = seed
        self.rng = Rng(seed)
        self.version = 0
        self.clock = 0
        self.phase = PLAY
        self.side_of = side_of
        self.sides = max(side_of) + 1
        self.up = [0] * len(DECK)
        self.piles: list[list[int]] = [[] for _ in range(players)]
        self.centre: list[int] = []  # card per slot, -1 for an empty slot
        self.sets: list[list[list[int]]] = [[] for _ in range(self.sides)]
        self.taboo: list[list[int]] = [[] for _ in range(self.sides)]
        self.box: list[int] = []
        self.hands: dict[str, Hand] = {}
        self.touches: list[list[int]] = [[] for _ in range(players)]  # recent touch times
        self.triple_due: dict[int, int] = {}  # picture -> when all three flip
        self.turn = 0
        self.ends_ms: int | None = None  # time attack: the round's end
        self.round_no = 1
        self.round_points = [0] * self.sides
        self.points: list[int] = [0] * self.sides  # time attack: rounds summed
        self.contenders: frozenset[int] | None = None  # ko sudden death: who plays on
        self.finish_due: int | None = None  # ko: when a shared finish is settled
        self.finishers: frozenset[int] = frozenset()
        self.winners: frozenset[int] = frozenset()
        self.started_ms: int | None = None
        # For reports: takes and errors per seat, and how long each seat's claims took
        # from the moment their pair became visible.
        self.takes = [0] * players
        self.errors = [0] * players
        self.claims = [0] * players
        self.claim_ms = [0] * players
        self.pair_since: dict[int, int] = {}  # picture -> when a second copy showed
        self.tally: dict[str, int] = {}
        self.public_cache: Any = None


    def picture(self, card: int) -> int:
        return DECK[card][self.up[card]]


def too_fast(state: TwinItState, seat: int, t: int) -> bool:
    """Whether one more touch at ``t`` would exceed the touch rate a person can make."""
    recent = state.touches[seat]
    return len(recent) >= MAX_TOUCHES_PER_S and recent[-MAX_TOUCHES_PER_S] > t - 1000


def ref_side(ref: str) -> int:
    """The side that owns a set or taboo ref: ``"s1.0"`` -> 1."""
    return int(ref[1:ref.index(".")])
