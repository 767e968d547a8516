"""The table engine: what a table does next by itself, and a table played on a virtual clock.

Every shell that runs a game (the simulator, the conformance checks, the research
environments, the server's tables) moves a table on in the same three ways: a bot acts,
the game's timer runs out, or a person is waited for. This module decides which, once:

- :func:`next_step` is the decision, pure: the game's state, the time now, the bots'
  plans and an optional wake give the next :class:`Step` (or None: the table waits for a
  person). A timer that has already run out fires first, at its deadline, before any
  bot is asked (so no bot's draw is spent on a move that would come too late); otherwise
  the earliest of the plans, the deadline and the wake happens (``core/schedule.py``:
  timer, then bot, then wake on a tie).
- Players say what the bots would do: :class:`TakeTurns` (the seats to act, asked in a
  seeded order; the first that acts moves now) and :class:`Race` (every seat plans when
  it would act; the earliest moves). :func:`table_players` picks them for a table of
  bots, as the simulator and the server's tables both do (a seat a person plays has no
  bot and is never asked). A shell with other players (a person's pace, a guided game's
  hints, the conformance checks' random moves) writes its own :class:`Players`.
- :class:`TableEngine` plays a table on a virtual clock: it asks :func:`next_step`,
  applies the step, moves its clock on, and lets a seat whose move was refused (a race
  lost to a change) sit out until the state changes.
- :func:`run_timers` fires every timer that has run out by a moment, each at its own
  deadline (an environment's tick).

Pure and deterministic: time is an input (milliseconds of the game's clock), every draw
comes from the random generators the caller hands in, and nothing here reads a clock,
sleeps or does I/O. The same state, clock, players and seeds give the same steps.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence, Set
from typing import Any, NamedTuple, Protocol

from twintable.core.errors import RuleError
from twintable.core.game import Game
from twintable.core.plugin import PlanMove
from twintable.core.schedule import EventKind, Plan, next_event
from twintable.core.types import SYSTEM_SEAT, Action, Event


class TableStuck(RuntimeError):
    """The table cannot move on: nobody acts and no timer is set, a timer ran out without
    a timeout action, or the game did not end within the steps allowed."""


class Step(NamedTuple):
    """One automatic step: a bot's move, the game's timer or a wake (someone else plays a
    seat from ``at_ms``: plan again). ``action`` is stamped with ``at_ms``; ``seat`` is
    :data:`~twintable.core.types.SYSTEM_SEAT` for a timer or a wake, and ``action`` None
    for a wake."""

    kind: EventKind
    at_ms: int
    seat: int
    action: Action | None


class Players(Protocol):
    """The bots of a table: what each would do at ``now_ms``. ``step`` counts the steps
    asked so far (a race rotates who is asked first by it); ``refused`` holds the seats
    sitting out this state (their last move was refused). Plans are read lazily: a
    generator that stops at the first willing bot asks no other."""

    def plans(self, state: Any, now_ms: int, step: int,
              refused: Set[int]) -> Iterable[Plan | None]: ...


def timeout_step(game: Game[Any], state: Any, at_ms: int) -> Step:
    """The game's timer firing at ``at_ms`` (its deadline): its timeout action."""
    action = game.timeout_action(state, at_ms)
    if action is None:
        raise TableStuck(f"{game.id}: deadline passed but no timeout action")
    return Step(EventKind.TIMER, at_ms, SYSTEM_SEAT, action)


def next_step(game: Game[Any], state: Any, now_ms: int, plans: Iterable[Plan | None],
              wake_ms: float | None = None) -> Step | None:
    """What the table does next at ``now_ms``: a timer that has run out (at its deadline,
    before any plan is read), else the earliest of ``plans``, the game's deadline and
    ``wake_ms``; None when nothing is scheduled (the table waits for a person)."""
    deadline = game.deadline(state)
    if deadline is not None and deadline <= now_ms:
        return timeout_step(game, state, deadline)
    event = next_event(plans, deadline, wake_ms)
    if event is None:
        return None
    at = int(event.at_ms)
    if event.kind is EventKind.TIMER:
        return timeout_step(game, state, at)
    if event.kind is EventKind.WAKE:
        return Step(EventKind.WAKE, at, SYSTEM_SEAT, None)
    plan = event.plan
    assert plan is not None
    return Step(EventKind.BOT, at, plan.seat, plan.action.at(at))


def run_timers(game: Game[Any], state: Any, now_ms: int) -> int:
    """Fire, in place, every timer that has run out by ``now_ms``, each at its own
    deadline (a tick of an environment's clock); the number fired."""
    fired = 0
    while not game.is_over(state):
        deadline = game.deadline(state)
        if deadline is None or deadline > now_ms:
            break
        game.apply(state, timeout_step(game, state, deadline).action)  # type: ignore[arg-type]
        fired += 1
    return fired


def asked_seats(game: Game[Any], state: Any, players: int) -> list[int]:
    """The seats whose bots the players of :func:`table_players` ask at ``state``, in
    seat order: every seat in a race on the clock, else the seats to act. A shell that
    makes its players on demand (the server's stand-ins) makes these."""
    return list(range(players)) if game.realtime else sorted(game.to_act(state))


class TakeTurns:
    """Turn by turn: the seats to act that have a bot (a None bot is a person's seat,
    never asked) are asked in a seeded order (one seat: no draw), and the first whose bot
    acts moves ``think_ms`` after ``now`` (the server's thinking delay; the simulator
    moves its clock after the move instead). ``shuffle=False`` asks them in seat order."""

    __slots__ = ("bots", "every_seat", "rng", "shuffle", "think_ms", "to_act", "view")

    def __init__(self, game: Game[Any], bots: Sequence[Any], rng: random.Random,
                 shuffle: bool = True, think_ms: int = 0):
        self.bots = bots
        self.every_seat = all(bot is not None for bot in bots)
        """Every seat has a bot (a simulation): no seat to pass over."""
        self.rng = rng
        self.shuffle = shuffle
        self.think_ms = think_ms
        self.to_act = game.to_act
        self.view = game.view

    def plans(self, state: Any, now_ms: int, step: int,
              refused: Set[int]) -> Iterator[Plan]:
        bots = self.bots
        seats = sorted(self.to_act(state))
        if not self.every_seat:
            seats = [seat for seat in seats if bots[seat] is not None]
        if len(seats) > 1 and self.shuffle:
            self.rng.shuffle(seats)
        for seat in seats:
            action = bots[seat].act(self.view(state, seat), self.rng)
            if action is not None:
                yield Plan(now_ms + self.think_ms, seat, action)
                return


class Race:
    """A race on the clock: every seat with a bot (from seat ``step mod n`` on, so no
    seat always wins a tie) plans when it would act, except those sitting out; the
    earliest acts. ``everyone=False`` asks only the seats to act (a turn-based game whose
    bots race like people: Timo's TIMO! calls and catches). ``pace`` stretches every plan
    from ``now`` (the server's faster or slower bots; 1: as planned)."""

    __slots__ = ("bots", "everyone", "pace", "plan_move", "rng", "to_act", "view")

    def __init__(self, game: Game[Any], bots: Sequence[Any], plan_move: PlanMove,
                 rng: random.Random, everyone: bool = True, pace: float = 1.0):
        self.bots = bots
        self.plan_move = plan_move
        self.rng = rng
        self.everyone = everyone
        self.pace = pace
        self.to_act = game.to_act
        self.view = game.view

    def plans(self, state: Any, now_ms: int, step: int,
              refused: Set[int]) -> Iterator[Plan | None]:
        bots, pace = self.bots, self.pace
        players = len(bots)
        acting = None if self.everyone else self.to_act(state)
        for offset in range(players):
            seat = (step + offset) % players
            if seat in refused or bots[seat] is None or (acting is not None
                                                         and seat not in acting):
                continue
            planned = self.plan_move(bots[seat], self.view(state, seat), self.rng, now_ms)
            if planned is None:
                yield None
            elif pace == 1.0:
                yield Plan(planned[0], seat, planned[1])
            else:
                yield Plan(now_ms + (planned[0] - now_ms) * pace, seat, planned[1])


def table_players(game: Game[Any], bots: Sequence[Any], rng: random.Random,
                  plan_move: PlanMove, *, people_pace: bool = False, think_ms: int = 0,
                  pace: float = 1.0) -> Players:
    """The players of a table of ``bots`` (None: a seat a person plays, never asked):
    a race on the clock (``game.realtime``) is a :class:`Race` of every seat; a game
    whose bots keep ``people_pace`` races the seats to act (a tie goes to the seat asked
    first); otherwise the seats to act take turns (:class:`TakeTurns`), moving
    ``think_ms`` after now. ``pace`` stretches a race's plans."""
    if game.realtime or people_pace:
        return Race(game, bots, plan_move, rng, everyone=game.realtime, pace=pace)
    return TakeTurns(game, bots, rng, think_ms=think_ms)


class TableEngine:
    """A table played on a virtual clock: ``state`` (changed in place) and its bots.

    ``gap_ms``: the time a move takes before the table looks again (the simulator's
    turn-based games: a second a move; 0 in a race, where the plans carry the times).
    A timer that had run out when the table looked takes no time. With
    ``sit_out_refused`` a bot whose move the game refuses (a race lost to a change) sits
    out until the state changes; otherwise the refusal is raised (a bot's bug).
    ``record`` keeps every played action, stamped with its time, in :attr:`actions`.
    """

    def __init__(self, game: Game[Any], state: Any, players: Players, *, now_ms: int = 0,
                 gap_ms: int = 0, sit_out_refused: bool = False, record: bool = False):
        self.game = game
        self.state = state
        self.players = players
        self.now_ms = now_ms
        self.gap_ms = gap_ms
        self.sit_out_refused = sit_out_refused
        self.actions: list[Action] | None = [] if record else None
        self.steps = 0
        """Steps asked so far, refused ones included."""
        self.moves = 0
        """Actions the game accepted (bots' and timers')."""
        self.events: list[Event] = []
        """What the last accepted action did."""
        self.refused: set[int] = set()
        self._refused_at = -1

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    def next(self) -> Step | None:
        """What happens next (nothing is played); None when nothing is scheduled."""
        state = self.state
        if self.refused and self._refused_at != state.version:
            self.refused.clear()
        plans = self.players.plans(state, self.now_ms, self.steps, self.refused)
        return next_step(self.game, state, self.now_ms, plans)

    def play(self, step: Step) -> bool:
        """Apply ``step`` and move the clock on: True when the game accepted it, False
        when it refused it and the seat sits out (with ``sit_out_refused``)."""
        self.steps += 1
        action = step.action
        assert action is not None, "a wake is no move"
        state = self.state
        try:
            self.events = self.game.apply(state, action)
        except RuleError:
            if not self.sit_out_refused:
                raise
            self.refused.add(step.seat)
            self._refused_at = state.version
            return False
        if step.kind is EventKind.BOT or step.at_ms > self.now_ms:
            self.now_ms = max(self.now_ms, step.at_ms + self.gap_ms)
        self.moves += 1
        if self.actions is not None:
            self.actions.append(action)
        return True

    def step(self) -> bool:
        """Play the next step (see :meth:`play`); :class:`TableStuck` when nothing is
        scheduled."""
        step = self.next()
        if step is None:
            raise TableStuck(f"{self.game.id}: no bot acted and no deadline is set")
        return self.play(step)

    def run(self, max_steps: int, after: Callable[[Any], None] | None = None) -> None:
        """Play to the end; ``after(state)`` follows every accepted action.
        :class:`TableStuck` when the game has not ended within ``max_steps`` steps."""
        players = self.players
        if (type(players) is TakeTurns and not self.game.has_deadlines
                and not self.sit_out_refused and players.think_ms == 0
                and players.every_seat):
            self._run_turns(max_steps, after)
            return
        is_over, state = self.game.is_over, self.state
        for _ in range(max_steps):
            if is_over(state):
                return
            if self.step() and after is not None:
                after(state)
        if not is_over(state):
            raise TableStuck(f"{self.game.id}: game did not end in {max_steps} steps")

    def _run_turns(self, max_steps: int, after: Callable[[Any], None] | None) -> None:
        """:meth:`run` for turns without timers, the simulator's hot loop: the same steps
        as the general loop (one seat to act asks its bot, several go through
        :class:`TakeTurns`), without building a step per move. A game without timers
        never reads an action's time, so it is stamped only to record."""
        players = self.players
        assert isinstance(players, TakeTurns)
        game, state, actions, gap = self.game, self.state, self.actions, self.gap_ms
        is_over, to_act, view, apply = game.is_over, game.to_act, game.view, game.apply
        bots, rng, refused = players.bots, players.rng, self.refused
        now, moves = self.now_ms, self.moves
        try:
            for _ in range(max_steps):
                if is_over(state):
                    return
                acting = to_act(state)
                if len(acting) == 1:
                    (seat,) = acting
                    action = bots[seat].act(view(state, seat), rng)
                else:
                    plan = next(iter(players.plans(state, now, moves, refused)), None)
                    action = plan.action if plan is not None else None
                if action is None:
                    raise TableStuck(f"{game.id}: no bot acted and the game has no timers")
                if actions is not None:
                    action = action.at(now)
                    actions.append(action)
                apply(state, action)
                if after is not None:
                    after(state)
                now += gap
                moves += 1
        finally:
            self.now_ms, self.moves = now, moves
            self.steps = moves
        if not is_over(state):
            raise TableStuck(f"{game.id}: game did not end in {max_steps} steps")


__all__ = ["EventKind", "Plan", "Players", "Race", "Step", "TableEngine", "TableStuck",
           "TakeTurns", "asked_seats", "next_step", "run_timers", "table_players",
           "timeout_step"]
