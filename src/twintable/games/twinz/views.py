"""What one seat, or a spectator, may see of a Twinz game.

The mystery word is shown only to the duo. A duo member sees their own clue as soon as
they give it, and nobody sees the other's until both are revealed together; everyone
sees who has given a clue, the revealed clues, the guesses, points and cards.

A guess that came in while the tie window is open (RULES.md §4) shows to the others as a
guess without its word (``word`` None, its seat in ``hidden``); its guesser sees their own
word. Nobody sees a verdict before the window closes: a guess on view with its word and
not hidden was wrong.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from twintable.core.types import Action, plain


class TwinzView(NamedTuple):
    viewer: int | None
    options: dict[str, Any]
    players: int
    phase: str
    now_ms: int
    opened_ms: int
    """When this round opened: the previous round's result went on screen then."""
    pause_until: int | None
    """Until then that result stays on screen and nobody may take the card; None once the
    duo may."""
    round_no: int
    attempt: int
    duo: tuple[int, int]
    line: int
    pile: int
    mystery: str | None
    countdown_ends: int
    clue_due: int
    guess_due: int | None
    clue_given: tuple[bool, ...]
    my_clue: str | None
    clues: tuple[str | None, ...] | None
    guessed: tuple[tuple[int, str | None], ...]
    hidden: tuple[int, ...]
    used: tuple[str, ...]
    points: tuple[int, ...]
    cards: tuple[int, ...]
    contest: int | None
    votes: int
    recap: dict[str, Any] | None
    """The last round, once over, until the next card is dealt: its word, duo, result and
    winners, and each attempt's clues, penalties, refused clues (which clue, why, for
    which word) and guesses in the order they came (RULES.md §4)."""
    legal: tuple[Action, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "twinz", "viewer": self.viewer, "options": plain(self.options),
            "players": self.players, "phase": self.phase, "now_ms": self.now_ms,
            "opened_ms": self.opened_ms, "pause_until": self.pause_until,
            "round": self.round_no,
            "attempt": self.attempt, "duo": list(self.duo), "line": self.line,
            "pile": self.pile, "mystery": self.mystery, "countdown_ends": self.countdown_ends,
            "clue_due": self.clue_due, "guess_due": self.guess_due,
            "clue_given": list(self.clue_given), "my_clue": self.my_clue,
            "clues": list(self.clues) if self.clues is not None else None,
            "guesses": [{"seat": seat, "word": word, "hidden": seat in self.hidden}
                        for seat, word in self.guessed],
            "used": list(self.used), "points": list(self.points), "cards": list(self.cards),
            "contest": self.contest, "votes": self.votes, "recap": plain(self.recap),
            "legal": [action.to_json() for action in self.legal],
        }
