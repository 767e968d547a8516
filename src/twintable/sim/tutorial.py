"""Play a game's guided first game through on a virtual clock, as a newcomer following
its hints would, and report which steps were reached (``core/tutorial.py``).

The person in seat 0 is the tutorial's ``person`` bot; where the current step names a
move and the bot would make another, the person makes the first legal move of that kind
instead (what the hint asks). Every other seat is the tutorial's own bot, timed by the
game's entry as at a table. Nothing sleeps.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Set
from dataclasses import dataclass
from typing import Any

from twintable.bots.registry import bot_factories
from twintable.core.plugin import STEP_MS, GameEntry, Pacing
from twintable.core.schedule import Plan
from twintable.core.table_engine import TableEngine, TableStuck
from twintable.core.tutorial import Tutorial, advance

#: Moves after which a walkthrough gives up (a tutorial's deal is a few minutes' play).
MAX_MOVES = 5000
PERSON = 0


@dataclass(frozen=True, slots=True)
class Walkthrough:
    """The ids of the steps reached, in order, the virtual time (ms) and accepted moves it
    took to reach the last one, the seats that had won by then (none: not over), and the
    ids of steps whose move the person had to make before its hint came (the deal taught
    it out of order: a hint saying "you are guessing" to a player giving a clue)."""

    reached: tuple[str, ...]
    at_ms: int
    moves: int
    winners: frozenset[int] = frozenset()
    early: tuple[str, ...] = ()


class _Newcomer:
    """The players of a guided game: the person in seat 0 follows the hints (the first
    legal move of the kind the current step names, when its bot would make another),
    every other seat is the tutorial's bot, timed by the game's entry. Where the game is a
    race or paces its bots like people every seat plans; otherwise the seats to act do."""

    def __init__(self, entry: GameEntry, tutorial: Tutorial, bots: list[Any],
                 rng: random.Random):
        self.entry, self.game, self.tutorial, self.bots, self.rng = (
            entry, entry.rules, tutorial, bots, rng)
        self.everyone = self.game.realtime or entry.pacing is Pacing.PEOPLE
        self.at = 0
        """The step the person is on."""

    def _person_plan(self, state: Any, now: int) -> tuple[int, Any] | None:
        game, steps = self.game, self.tutorial.steps
        plan = self.entry.plan(self.bots[PERSON], game.view(state, PERSON), self.rng, now)
        wanted = steps[self.at].advance.move if self.at < len(steps) else None
        if wanted is None or (plan is not None and plan[1].kind == wanted) \
                or not game.finite_actions:
            return plan
        hinted = [action for action in game.legal_actions(state, PERSON)
                  if action.kind == wanted]
        return (now + STEP_MS, hinted[0]) if hinted else plan

    def plans(self, state: Any, now_ms: int, step: int,
              refused: Set[int]) -> Iterator[Plan | None]:
        game = self.game
        seats = range(self.tutorial.players) if self.everyone else sorted(game.to_act(state))
        for seat in seats:
            if seat in refused:
                continue
            plan = (self._person_plan(state, now_ms) if seat == PERSON
                    else self.entry.plan(self.bots[seat], game.view(state, seat), self.rng,
                                         now_ms))
            yield None if plan is None else Plan(max(plan[0], now_ms), seat, plan[1])


def walk(entry: GameEntry, tutorial: Tutorial | None = None) -> Walkthrough:
    """Play ``tutorial`` (the entry's own by default) until every step is reached or the
    game ends."""
    tutorial = tutorial or (entry.tutorial() if entry.tutorial is not None else None)
    if tutorial is None:
        raise ValueError(f"{entry.id} declares no guided game")
    game = entry.rules
    steps = tutorial.steps
    person = bot_factories(entry)[tutorial.person]()
    bots = [person, *(tutorial.bot.make() for _ in range(tutorial.players - 1))]
    state = game.new_state(game.resolve_options(dict(tutorial.options)), tutorial.players,
                           tutorial.seed)
    newcomer = _Newcomer(entry, tutorial, bots, random.Random(tutorial.seed))
    table = TableEngine(game, state, newcomer, sit_out_refused=True)
    early: list[str] = []
    while table.moves < MAX_MOVES:
        at = newcomer.at
        while at < len(steps) and steps[at].advance.move is None \
                and steps[at].advance.event is None:
            at += 1  # a step that only explains: the person reads it and presses Next
        newcomer.at = at
        if at == len(steps) or game.is_over(state):
            break
        try:
            step = table.next()
        except TableStuck:  # a timer without a timeout action: the walk ends there
            break
        if step is None:
            break
        if not table.play(step):
            continue  # refused: the seat sits out until the table changes
        assert step.action is not None
        if step.seat == PERSON:
            early.extend(later.id for later in steps[at + 1:]
                         if later.advance.move == step.action.kind and later.id not in early)
        newcomer.at = advance(steps, at, PERSON, step.seat, step.action.kind, table.events)
    at, now, moves = newcomer.at, table.now_ms, table.moves
    outcome = game.outcome(state) if game.is_over(state) else None
    return Walkthrough(tuple(step.id for step in steps[:at]), now, moves,
                       outcome.winners if outcome is not None else frozenset(), tuple(early))
