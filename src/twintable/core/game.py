"""The Game interface every game implements, and the records it hands back.

A game object is stateless apart from its fixed data; every function works on a state
object that the game owns. States are mutable and cloned explicitly (docs/architecture.md
says why: measured). ``apply`` validates everything before it changes anything, so a
:class:`~twintable.core.errors.RuleError` always leaves the state untouched.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from twintable.core.errors import OptionError, RuleError
from twintable.core.gametype import Dynamics, GameType, Information
from twintable.core.options import OptionSchema
from twintable.core.payloads import ActionPayloads
from twintable.core.rng import Rng
from twintable.core.types import SYSTEM_SEAT, TICK, Action, Event


class GameState(Protocol):
    """What the kernel needs from any game's state."""

    version: int
    """Count of accepted actions; a client action made against another version is stale."""

    def clone(self) -> Any: ...


class TimedState(GameState, Protocol):
    """A state whose game has timers (see :meth:`Game.dispatch_timed`)."""

    def adopt(self, other: Any) -> None:
        """Take over ``other``'s contents (a clone on which an action succeeded)."""


class View(Protocol):
    """What one audience may see, and nothing else. Built fresh by ``Game.view``.

    ``legal`` lists the viewer's legal actions (empty for spectators), so a bot needs
    nothing but its view.
    """

    @property
    def viewer(self) -> int | None: ...

    @property
    def legal(self) -> tuple[Action, ...]: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Opening:
    """Turn order at the start of a game: the first player and the dealer (None when no one
    deals). Seats then follow one another from the first player in seat order."""

    first: int
    dealer: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: final scores per seat and the winning seats (ties share). In a
    game played by teams (a ``teams`` option), ``teams`` is the team of each seat (0, 1,
    ...) and ``team_scores`` what each team scored, by team: the winners are then every
    member of the best team (or teams, on a tie)."""

    scores: tuple[int, ...]
    winners: frozenset[int]
    teams: tuple[int, ...] | None = None
    team_scores: tuple[int, ...] | None = None

    def __repr__(self) -> str:
        # A game without teams reads as it always has (the docs print outcomes).
        teams = ("" if self.teams is None
                 else f", teams={self.teams!r}, team_scores={self.team_scores!r}")
        return f"Outcome(scores={self.scores!r}, winners={self.winners!r}{teams})"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"scores": list(self.scores), "winners": sorted(self.winners)}
        if self.teams is not None and self.team_scores is not None:
            data["teams"] = list(self.teams)
            data["team_scores"] = list(self.team_scores)
        return data


S = TypeVar("S", bound=GameState)


class Game(ABC, Generic[S]):
    """One game's rules. Subclasses set the class attributes and implement the methods."""

    id: str
    name: str
    min_players: int
    max_players: int
    options_schema: OptionSchema
    game_type: ClassVar[GameType]
    """What kind of game this is, as data (core/gametype.py): turns, simultaneous commits
    or a race; hidden information or none; chance or none; what moves conserve. Every game
    declares it; the conformance checks pick their checks from it."""
    table_minutes: ClassVar[Mapping[str, tuple[int, float]]] = {}
    """How long a game lasts, for the lobby: per mode ("" for a game without modes) the
    players seated and the median minutes, measured on the simulator's virtual clock with
    a person and the default bots (``sim/durations.py``; a test re-measures them)."""
    finite_actions: bool = True
    """True when ``legal_actions`` lists every legal action (False for free-text words)."""
    payloads: ClassVar[ActionPayloads] = {}
    """Per action kind a client may send, the keys of its payload and their types
    (core/payloads.py): the server refuses any other kind, key or type at its edge."""
    round_name: ClassVar[str] = "round"
    """What the game calls one deal of the cards, for reports ("hand" in Twins)."""
    unversioned_kinds: ClassVar[frozenset[str]] = frozenset()
    """Kinds a client may send without the state version they were made against: moves
    that race by nature and name what they expect instead (a touch names its picture)."""

    @property
    def realtime(self) -> bool:
        """True for a race on the clock (Twin It, Twinz): who moves first is whoever is
        fastest, so a table and the simulator ask every bot *when* it would act
        (``GameEntry.plan``) and play the earliest plan."""
        declared = getattr(self, "game_type", None)
        return declared is not None and declared.dynamics is Dynamics.REAL_TIME

    # -- set-up ---------------------------------------------------------------------
    def resolve_options(self, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return self.options_schema.resolve(raw)

    def player_range(self, options: Mapping[str, Any] | None = None) -> tuple[int, int]:
        """The fewest and most players these options allow (a mode may narrow it)."""
        return self.min_players, self.max_players

    def check_players(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        low, high = self.player_range(options)
        if not low <= players <= high:
            # An option may narrow the range (a bigger hand seats fewer): say so.
            narrowed = (low, high) != (self.min_players, self.max_players)
            raise OptionError(
                "players.invalid", f"{self.name} takes {low} to {high} players"
                + (" with these options" if narrowed else ""),
                {"players": players, "min": low, "max": high},
            )

    @abstractmethod
    def new_state(self, options: Mapping[str, Any] | None, players: int, seed: int) -> S:
        """A fresh game; all chance comes from an RNG seeded with ``seed`` inside the state."""

    # -- play -----------------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """Seats that may act now: one for a turn, several for secret picks or races."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it may not act)."""

    @abstractmethod
    def apply(self, state: S, action: Action) -> list[Event]:
        """Apply one action in place and report what happened, or raise RuleError."""

    def dispatch(self, state: S, action: Action,
                 handlers: Mapping[str, Callable[[S, Action], list[Event]]],
                 players: int) -> list[Event]:
        """The checks every action passes (the end, a known kind, a real seat), then its
        handler; an accepted action bumps the state version."""
        if self.is_over(state):
            raise RuleError("game.over", "the game is over")
        handler = handlers.get(action.kind)
        if handler is None:
            raise RuleError("action.unknown", f"unknown action {action.kind!r}",
                            {"kind": action.kind, "known": sorted(handlers)})
        if not 0 <= action.seat < players:
            raise RuleError("seat.invalid", "no such seat", {"seat": action.seat})
        events = handler(state, action)
        state.version += 1
        return events

    def dispatch_timed(self, state: S, action: Action,
                       handlers: Mapping[str, Callable[[S, Action], list[Event]]],
                       players: int,
                       run_timers: Callable[[S, int], list[Event]]) -> list[Event]:
        """:meth:`dispatch` for games with timers. The table's ``tick`` runs whatever has
        run out. Any other action that arrives at or after a deadline the table has not
        fired yet lets the timers run first (they would have, a moment earlier), on a
        clone, so a refused action still leaves the state exactly as it was."""
        if action.kind == TICK:
            # The clock is not a seat, so it skips dispatch's seat check.
            if self.is_over(state):
                raise RuleError("game.over", "the game is over")
            if action.seat != SYSTEM_SEAT:
                raise RuleError("tick.system_only", "only the table's clock sends ticks")
            due = self.deadline(state)
            if due is None or action.t_ms < due:
                raise RuleError("tick.early", "no timer has run out yet", {"deadline": due})
            events = run_timers(state, action.t_ms)
            state.version += 1
            return events
        due = self.deadline(state)
        if due is None or action.t_ms < due or self.is_over(state):
            return self.dispatch(state, action, handlers, players)
        trial = state.clone()
        events = []
        while due is not None and due <= action.t_ms and not self.is_over(trial):
            events += run_timers(trial, due)
            due = self.deadline(trial)
        events += self.dispatch(trial, action, handlers, players)
        cast(TimedState, state).adopt(trial)
        return events

    def deadline(self, state: S) -> int | None:
        """Server time (ms) at which the table must send a timeout action, if any."""
        return None

    @property
    def has_deadlines(self) -> bool:
        """False for a game that never sets a deadline: time is then no input to its
        rules, and a simulation need neither ask for deadlines nor stamp actions."""
        return type(self).deadline is not Game.deadline

    def timeout_action(self, state: S, now_ms: int) -> Action | None:
        """The system action to apply once ``deadline`` has passed, if any."""
        return None

    def tick_when_due(self, state: S, now_ms: int) -> Action | None:
        """The table clock's ``tick`` once ``deadline`` has passed: the timeout action of
        every game whose timers run through :meth:`dispatch_timed`."""
        due = self.deadline(state)
        if due is None or now_ms < due:
            return None
        return Action(SYSTEM_SEAT, TICK, {}, now_ms)

    # -- seeing ---------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, viewer: int | None) -> View:
        """What seat ``viewer`` (None: a spectator) may see."""

    def views_json(self, state: S, viewers: Iterable[int | None]
                   ) -> tuple[dict[str, Any], dict[int | None, dict[str, Any]]]:
        """Several audiences' views as JSON at once: the keys they all see alike, and
        each audience's own keys (never the same keys): ``viewer``'s view is
        ``shared | own[viewer]``, the JSON of :meth:`view`. The server writes the shared
        keys of a move's frames once for every seat (issue 28). By default nothing is
        shared; a game whose seats see much alike (a discard pile, the scores) says
        what. The server only encodes these dicts, so a game may hand out the same
        inner objects again (Timo's legal moves come from a cache)."""
        return {}, {viewer: self.view(state, viewer).to_json() for viewer in viewers}

    def determinize(self, state: S, viewer: int | None, rng: random.Random) -> S:
        """A copy of ``state`` with everything ``viewer`` cannot see re-dealt at random.

        The conformance suite uses it to check that views leak nothing: a seat's view of
        a state and of its determinized copy must be equal. The copy's RNG is replaced
        too (from ``rng``): the draws to come are hidden from every seat, and a search
        that kept the real RNG would know the next card.

        A game with perfect information has nothing to re-deal: by default its copy
        differs only by that fresh RNG (a state keeping its chance as ``rng``, a
        :class:`~twintable.core.rng.Rng`). A game with hidden information overrides it.
        """
        declared = getattr(self, "game_type", None)
        if declared is None or declared.information is not Information.PERFECT:
            raise NotImplementedError
        other = state.clone()
        if isinstance(getattr(other, "rng", None), Rng):
            other.rng = Rng(rng.getrandbits(64))
        return cast(S, other)

    def conserved(self, state: S) -> dict[str, Any]:
        """What no move may change, per name the game type's ``conserves`` declares
        (``{"cards": sorted card ids}``, ``{"chips": total}``): the conformance checks
        compare it after every move. Empty for a game that declares nothing."""
        return {}

    # -- the end --------------------------------------------------------------------
    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Final scores and winners once the game is over, else None."""

    def stats(self, state: S) -> dict[str, float]:
        """Figures about a finished game for simulation reports (turns, rounds, ...)."""
        return {}

    # -- for studies of balance (sim/) ----------------------------------------------
    def opening(self, state: S) -> Opening | None:
        """Who deals and who plays first in a game just set up, so that reports can give
        results by turn order (the first dealer is drawn at random, so seat number is not
        turn order); None for a game without turns."""
        return None

    def cooperative(self, options: Mapping[str, Any]) -> bool:
        """Whether these options make the seats play together against the game (Twin It's
        coop mode): a finished game then reports ``success`` (1 or 0) in :meth:`stats`,
        and simulation reports give a success rate, not win rates."""
        return False

    def round_number(self, state: S) -> int:
        """The round (or hand) being played, from 1, for games that score round by round:
        a report follows :meth:`running_scores` as it changes ("the leader after round k
        wins"). Games that override it also override :meth:`running_scores`."""
        raise NotImplementedError

    def running_scores(self, state: S) -> tuple[int, ...]:
        """The scores so far (points, chips), per seat."""
        raise NotImplementedError

    @property
    def scores_by_round(self) -> bool:
        """Whether this game reports :meth:`round_number` and :meth:`running_scores`."""
        return type(self).round_number is not Game.round_number

    def sides(self, state: S) -> tuple[int, ...] | None:
        """The team of each seat when seats win together (Twin It's team mode, a
        ``teams`` option in Timo's Twist and Twins), else None: reports then count a
        team's win once, against an even line of one team in so many."""
        return None

    @abstractmethod
    def snapshot(self, state: S) -> dict[str, Any]:
        """The full state as JSON-compatible data, RNG included, for tests and audits."""
