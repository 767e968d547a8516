"""Bots' quick reactions: part of a table's automation, the emotes its bots send now and
then, from signals every game gives alike (never from a game's own events, which this
shell does not read).

Two signals, both public to everyone at the table: the end of the game (its outcome's
winners) and, in a game that keeps running scores (``Game.running_scores``, points or
chips every seat sees), a big change of a bot's own score. Bots stay sparing: at most one
reaction per :data:`REACT_EVERY` moves, only some of the signals that qualify (a draw of
the table's own random numbers, seeded by the table's seed, so a table's reactions follow
from its seed and its moves), and none while the table's chat is off. An emote needs no
language, so a bot speaks to everyone in theirs.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from twintable.core.game import Game

#: At most one bot reaction per this many moves.
REACT_EVERY = 8
#: A bot's score change counts as big from this share of the largest score at the table
#: (before or after the move), and at least one point or chip.
BIG_SHARE = 0.25
#: The chance that a qualifying signal makes a bot react.
REACT_CHANCE = 0.6

WIN, GOOD_GAME, GAIN, LOSS = "🎉", "🤝", "👍", "😮"


class BotReactions:
    """When a table's bots react; ``react(seat, emote)`` sends one."""

    def __init__(self, game: Game[Any], seed: int, bot_seats: Callable[[], list[int]],
                 react: Callable[[int, str], None], enabled: Callable[[], bool]):
        self.game = game
        self.rng = random.Random(seed ^ 0xC4A7_7E)
        self.bot_seats = bot_seats
        self.react = react
        self.enabled = enabled
        self.quiet_for = 0
        """Moves left before a bot may react again."""
        self.scores: tuple[int, ...] | None = None

    def _scores(self, state: Any) -> tuple[int, ...] | None:
        if not self.game.scores_by_round:
            return None
        try:
            return tuple(self.game.running_scores(state))
        except NotImplementedError:
            return None

    def _send(self, seat: int, emote: str) -> None:
        self.quiet_for = REACT_EVERY
        if self.enabled():
            self.react(seat, emote)

    def track(self, state: Any) -> None:
        """The scores to compare the next move with (a new game, or one read back)."""
        self.scores = self._scores(state)

    def after_move(self, state: Any) -> None:
        """A move was made: a bot whose score changed a lot may react."""
        before, after = self.scores, self._scores(state)
        self.scores = after
        if self.quiet_for > 0:
            self.quiet_for -= 1
            return
        if before is None or after is None or len(before) != len(after):
            return
        scale = max(1, *map(abs, before), *map(abs, after))
        moved = [(abs(after[s] - before[s]), s) for s in self.bot_seats()
                 if s < len(after) and abs(after[s] - before[s]) >= max(1, BIG_SHARE * scale)]
        if not moved:
            return
        if self.rng.random() >= REACT_CHANCE:
            return
        _, seat = max(moved)
        self._send(seat, GAIN if after[seat] > before[seat] else LOSS)

    def at_end(self, winners: frozenset[int]) -> None:
        """The game is over: one bot says so, always (a winner cheers, else one offers a
        handshake)."""
        bots = sorted(self.bot_seats())
        if not bots:
            return
        won = [seat for seat in bots if seat in winners]
        if won:
            self._send(self.rng.choice(won), WIN)
        else:
            self._send(self.rng.choice(bots), GOOD_GAME)
