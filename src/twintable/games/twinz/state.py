"""The full state of a Twinz game. Only the rules module mutates it."""

from __future__ import annotations

from typing import Any

from twintable.core.rng import Rng
from twintable.core.slots import SlotState

DRAW, CLUES, GUESSES, OVER = "draw", "clues", "guesses", "over"
START_POINTS = 3


class TwinzState(SlotState):
    """Mutable state with an explicit :meth:`clone`.

    ``pile`` holds card indexes into the chosen deck, top last; ``card`` is the card in
    play and ``orientation`` which column reads upright. ``clues[seat]`` holds a duo
    member's clue for this attempt, secret until both are revealed, with its arrival time.
    """

    __slots__ = (
        "attempt",
        "attempts",
        "card",
        "cards_won",
        "clock",
        "clue_due",
        "clues",
        "contest",
        "countdown_ends",
        "dismissed",
        "duo",
        "guess_due",
        "guessed",
        "hidden",
        "history",
        "line",
        "opened_ms",
        "options",
        "orientation",
        "pause_until",
        "phase",
        "pile",
        "players",
        "points",
        "recap",
        "revealed",
        "right",
        "rng",
        "round_no",
        "seed",
        "tally",
        "tie_due",
        "used",
        "version",
        "votes",
    )

    def __init__(self, options: dict[str, Any], players: int, seed: int):
        self.options = options
        self.players = players
        self.seed = seed
        self.rng = Rng(seed)
        self.version = 0
        self.clock = 0  # server time of the last accepted action
        self.phase = DRAW
        self.pile: list[int] = []
        self.card = -1
        self.orientation = 0
        self.line = 1
        self.duo = (0, 1)
        self.round_no = 0
        self.opened_ms = 0  # server time the round opened (the last one's result shown)
        # Until then the last round's result stays on screen and nobody may take the next
        # card (option result_pause_ms); None once the card may be taken.
        self.pause_until: int | None = None
        self.attempt = 1
        self.points = [START_POINTS] * players
        self.cards_won = [0] * players
        self.clues: dict[int, tuple[str, int]] = {}  # seat -> (word, t_ms)
        self.revealed: dict[int, str | None] = {}  # this attempt's clues once shown
        self.used: list[str] = []  # folded clue words given so far this game
        self.countdown_ends = 0
        self.clue_due = 0
        self.guess_due = 0
        self.guessed: dict[int, str] = {}  # seat -> this attempt's guess
        self.right: list[int] = []  # seats with a right guess, first first
        # Seats whose guess came in while the tie window was open (the first right guess
        # opens it): word and verdict stay hidden until it closes (RULES.md §4).
        self.hidden: list[int] = []
        self.tie_due: int | None = None
        self.contest: int | None = None  # the duo member whose clue is contested
        self.votes: dict[int, bool] = {}
        self.dismissed: list[int] = []  # duo members whose clue a vote let stand
        self.tally: dict[str, int] = {}
        self.history: list[dict[str, Any]] = []  # finished rounds, for learning bots
        # This round's attempts so far, each a record replaced (never changed in place:
        # clones share it) as guesses come in: clues, penalties, refusals, guesses in order.
        self.attempts: list[dict[str, Any]] = []
        # The last round's recap (RULES.md §4): on the board from the round's end until
        # the duo takes the next card.
        self.recap: dict[str, Any] | None = None


