"""Play a game's guided first game through on a virtual clock, as a newcomer following
its hints would, and report which steps were reached (``core/tutorial.py``).

The person in seat 0 is the tutorial's ``person`` bot; where the current step names a
move and the bot would make another, the person makes the first legal move of that kind
instead (what the hint asks). Every other seat is the tutorial's own bot, timed by the
game's entry as at a table. Nothing sleeps.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from twintable.bots.registry import bot_factories
from twintable.core.errors import RuleError
from twintable.core.plugin import STEP_MS, GameEntry, Pacing
from twintable.core.schedule import EventKind, Plan, next_event
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


def _person_plan(entry: GameEntry, tutorial: Tutorial, at: int, bot: Any, state: Any,
                 rng: random.Random, now: int) -> tuple[int, Any] | None:
    game = entry.rules
    plan = entry.plan(bot, game.view(state, PERSON), rng, now)
    wanted = tutorial.steps[at].advance.move if at < len(tutorial.steps) else None
    if wanted is None or (plan is not None and plan[1].kind == wanted) or not game.finite_actions:
        return plan
    hinted = [action for action in game.legal_actions(state, PERSON) if action.kind == wanted]
    return (now + STEP_MS, hinted[0]) if hinted else plan


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
    rng = random.Random(tutorial.seed)
    everyone = game.realtime or entry.pacing is Pacing.PEOPLE
    at = now = moves = 0
    refused: set[int] = set()
    refused_at = -1
    early: list[str] = []
    while moves < MAX_MOVES:
        while at < len(steps) and steps[at].advance.move is None \
                and steps[at].advance.event is None:
            at += 1  # a step that only explains: the person reads it and presses Next
        if at == len(steps) or game.is_over(state):
            break
        if refused_at != state.version:
            refused.clear()
        seats = range(tutorial.players) if everyone else sorted(game.to_act(state))
        plans = []
        for seat in seats:
            if seat in refused:
                continue
            plan = (_person_plan(entry, tutorial, at, person, state, rng, now) if seat == PERSON
                    else entry.plan(bots[seat], game.view(state, seat), rng, now))
            plans.append(None if plan is None else Plan(max(plan[0], now), seat, plan[1]))
        event = next_event(plans, game.deadline(state))
        if event is None:
            break
        if event.kind is EventKind.TIMER:
            action, seat = game.timeout_action(state, int(event.at_ms)), -1
            if action is None:
                break
        else:
            assert event.plan is not None
            action, seat = event.plan.action.at(int(event.at_ms)), event.plan.seat
        try:
            events = game.apply(state, action)
        except RuleError:
            refused.add(seat)
            refused_at = state.version
            continue
        now = max(now, action.t_ms)
        moves += 1
        if seat == PERSON:
            early.extend(step.id for step in steps[at + 1:] if step.advance.move == action.kind
                         and step.id not in early)
        at = advance(steps, at, PERSON, seat, action.kind, events)
    outcome = game.outcome(state) if game.is_over(state) else None
    return Walkthrough(tuple(step.id for step in steps[:at]), now, moves,
                       outcome.winners if outcome is not None else frozenset(), tuple(early))
