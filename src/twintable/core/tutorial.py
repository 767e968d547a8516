"""A guided first game, declared by a game: the deal, the bot across the table and the
ordered steps a coach mark walks a new player through.

A game's package declares one :class:`Tutorial` (``GameEntry.tutorial``); shells read it
without naming the game: the server makes a table from its ``seed``, ``options``,
``players`` and ``bot``, ``/api/games`` sends its steps, and the browser points at each
step's ``anchor`` with the text of its ``text`` key until its :class:`Advance` is met.
The engine stays deterministic: the deal is only a seed chosen so that every step
happens when the person does what the hints say (each game's walkthrough test plays it).
A real person strays (a pair taken while a hint is read): the browser then ends the
hints that wait for a move when the game ends (``web/table/coach_steps.js``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from twintable.core.types import Event


class GuideBot(Protocol):
    """The bot a tutorial seats: a :class:`~twintable.core.plugin.BotLevel` (named here
    by its shape, as the plug-in module names this one)."""

    @property
    def name(self) -> str: ...
    @property
    def level(self) -> str: ...
    @property
    def make(self) -> Callable[..., Any]: ...
    @property
    def available(self) -> Callable[[], bool]: ...


@dataclass(frozen=True, slots=True)
class Advance:
    """When a step is done: the player made a move of kind ``move``; or an event of kind
    ``event`` came (``mine``: in answer to the player's own move); or, with neither, the
    player pressed the bubble's "Next" (a step that only explains)."""

    move: str | None = None
    event: str | None = None
    mine: bool = False

    def __post_init__(self) -> None:
        if self.move is not None and self.event is not None:
            raise ValueError("a step advances on a move or on an event, not both")

    def met(self, me: int, seat: int, kind: str, events: Iterable[str]) -> bool:
        """Whether an accepted move of ``kind`` by ``seat`` (-1: the clock), which told
        the player ``events``, completes the step for the player in seat ``me``."""
        if self.move is not None:
            return seat == me and kind == self.move
        if self.event is not None:
            return (not self.mine or seat == me) and self.event in events
        return False

    def to_json(self) -> dict[str, Any]:
        if self.move is not None:
            return {"move": self.move}
        if self.event is not None:
            return {"event": self.event, "mine": self.mine}
        return {"next": True}


#: A step the player reads, then presses "Next".
READ = Advance()


@dataclass(frozen=True, slots=True)
class Step:
    """One hint: ``anchor``, a CSS selector of what it points at on the table page (the
    game's board or the shell's seats and log; the first match that is visible, or none:
    the bubble then stands at the top of the board); ``text``, its catalogue key (the
    game's own ``web/i18n``); ``advance``, when it is done; ``keep``, a CSS selector of
    what the bubble must leave in sight while this hint shows (the word to give a clue
    for), besides the player's seat and hand."""

    id: str
    anchor: str
    text: str
    advance: Advance = READ
    keep: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "anchor": self.anchor, "text": self.text,
                "advance": self.advance.to_json(), "keep": self.keep}


@dataclass(frozen=True)
class Tutorial:
    """A game's guided first game: the person sits in seat 0; every other seat holds
    ``bot`` (a bot only tutorials seat: slow enough for a newcomer to follow);
    ``person``: the bot name a walkthrough test seats for the person, who follows each
    step's hint where it names a move."""

    seed: int
    players: int
    bot: GuideBot
    steps: tuple[Step, ...]
    person: str
    options: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        ids = [step.id for step in self.steps]
        if not ids or len(set(ids)) != len(ids):
            raise ValueError("a tutorial has steps, each with its own id")

    def to_json(self) -> dict[str, Any]:
        """What a client needs to draw the hints (the deal stays on the server)."""
        return {"steps": [step.to_json() for step in self.steps]}


def advance(steps: tuple[Step, ...], at: int, me: int, seat: int, kind: str,
            events: Iterable[Event]) -> int:
    """The step after an accepted move (``at`` when it completes nothing): the browser's
    ``web/table/coach_steps.js`` reads frames the same way. Only events the player may
    see count."""
    if at >= len(steps):
        return at
    kinds = [event.kind for event in events if event.visible_to(me)]
    return at + 1 if steps[at].advance.met(me, seat, kind, kinds) else at
