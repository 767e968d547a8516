"""A game small enough to break on purpose: seats take turns taking one or two from a
counter, and whoever takes the last wins. Nothing is hidden and nothing is left to
chance; its subclasses each break one promise the kit checks."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, NamedTuple

from twintable.core.errors import RuleError
from twintable.core.game import Game, Outcome
from twintable.core.gametype import Dynamics, GameType, Information
from twintable.core.options import Option, OptionSchema
from twintable.core.plugin import GameEntry
from twintable.core.rng import Rng
from twintable.core.types import Action, Event


class CountdownState:
    __slots__ = ("counter", "players", "rng", "taken", "turn", "version", "winner")

    def __init__(self, counter: int, players: int):
        self.counter = counter
        self.players = players
        self.turn = 0
        self.taken = [0] * players
        self.winner: int | None = None
        self.version = 0
        # Never drawn from (no chance), kept as games keep theirs: a re-deal replaces it.
        self.rng = Rng(0)

    def clone(self) -> CountdownState:
        other = CountdownState(self.counter, self.players)
        other.turn, other.taken, other.winner = self.turn, self.taken[:], self.winner
        other.version, other.rng = self.version, self.rng.clone()
        return other


class CountdownView(NamedTuple):
    viewer: int | None
    counter: int
    turn: int
    legal: tuple[Action, ...]

    def to_json(self) -> dict[str, Any]:
        return {"counter": self.counter, "turn": self.turn, "over": self.counter == 0,
                "legal": [action.payload["count"] for action in self.legal]}


class Countdown(Game[CountdownState]):
    id = "countdown"
    name = "Countdown"
    min_players = 2
    max_players = 3
    options_schema = OptionSchema([Option("start", "int", 9, "the counter at the start",
                                          minimum=3, maximum=30)])
    game_type = GameType(Dynamics.TURN_BASED, Information.PERFECT, chance=False,
                         conserves=("units",))

    def new_state(self, options: Mapping[str, Any] | None, players: int,
                  seed: int) -> CountdownState:
        self.check_players(players, options)
        return CountdownState(self.resolve_options(options)["start"], players)

    def to_act(self, state: CountdownState) -> frozenset[int]:
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal_actions(self, state: CountdownState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [Action(seat, "take", {"count": n}) for n in (1, 2) if n <= state.counter]

    def apply(self, state: CountdownState, action: Action) -> list[Event]:
        return self.dispatch(state, action, {"take": self._take}, state.players)

    def _take(self, state: CountdownState, action: Action) -> list[Event]:
        count = action.payload.get("count")
        if action.seat != state.turn:
            raise RuleError("turn.not_yours", "not your turn")
        if count not in (1, 2) or count > state.counter:
            raise RuleError("take.invalid", "take one or two", {"count": count})
        state.counter -= count
        state.taken[action.seat] += count
        if state.counter == 0:
            state.winner = action.seat
        state.turn = (state.turn + 1) % state.players
        return [Event("took", {"seat": action.seat, "count": count})]

    def view(self, state: CountdownState, viewer: int | None) -> CountdownView:
        legal = tuple(self.legal_actions(state, viewer)) if viewer is not None else ()
        return CountdownView(viewer, state.counter, state.turn, legal)

    def is_over(self, state: CountdownState) -> bool:
        return state.winner is not None

    def outcome(self, state: CountdownState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(tuple(int(seat == state.winner) for seat in range(state.players)),
                       frozenset({state.winner}))

    def conserved(self, state: CountdownState) -> dict[str, Any]:
        return {"units": state.counter + sum(state.taken)}

    def snapshot(self, state: CountdownState) -> dict[str, Any]:
        return {"counter": state.counter, "turn": state.turn, "taken": state.taken[:],
                "winner": state.winner, "version": state.version}


class SeededFirstPlayer(Countdown):
    """Says it has no chance, but the seed picks who starts."""

    def new_state(self, options: Mapping[str, Any] | None, players: int,
                  seed: int) -> CountdownState:
        state = super().new_state(options, players, seed)
        state.turn = random.Random(seed).randrange(players)
        return state


class CarelessRefusal(Countdown):
    """Counts a refused take before refusing it."""

    def _take(self, state: CountdownState, action: Action) -> list[Event]:
        state.taken[action.seat] += 0 if action.seat == state.turn else 1
        return super()._take(state, action)


class Leaky(Countdown):
    """Says a seat cannot see the counter, yet every view shows it."""

    game_type = GameType(Dynamics.TURN_BASED, Information.HIDDEN, chance=False,
                         conserves=("units",))

    def determinize(self, state: CountdownState, viewer: int | None,
                    rng: random.Random) -> CountdownState:
        other = state.clone()
        other.counter = rng.randrange(1, 30)
        return other


class Miscounted(Countdown):
    """Takes two when one is asked for, from the counter but not into the seat's count."""

    def _take(self, state: CountdownState, action: Action) -> list[Event]:
        events = super()._take(state, action)
        if state.counter > 0 and action.payload.get("count") == 1:
            state.counter -= 1
        return events


class CalledSimultaneous(Countdown):
    """Declares simultaneous moves, yet one seat moves at a time."""

    game_type = GameType(Dynamics.SIMULTANEOUS, Information.PERFECT, chance=False,
                         conserves=("units",))


class Undeclared(Countdown):
    """Declares no type at all (a game written before types were data)."""

    game_type = None  # type: ignore[assignment]


def entry_of(game: Game[Any]) -> GameEntry:
    return GameEntry(rules=game, package="tests.kit")
