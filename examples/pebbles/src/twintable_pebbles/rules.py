"""The rules of Pebbles.

A heap of pebbles (``heap``, 21 by default) lies between the players. Seats take turns,
seat 0 first, then round the table: each takes at least one pebble and at most
``max_take`` (3 by default), never more than the heap holds. Whoever takes the last
pebble wins; with ``last_loses`` (the misère variant), whoever takes it loses and every
other seat wins. Nothing is hidden and nothing is drawn: the seed changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from twintable.core.errors import RuleError
from twintable.core.game import Game, Opening, Outcome
from twintable.core.gametype import Dynamics, GameType, Information
from twintable.core.options import Option, OptionSchema
from twintable.core.payloads import ActionPayloads, PayloadField
from twintable.core.types import Action, Event

from twintable_pebbles.state import PebblesState
from twintable_pebbles.views import PebblesView

TAKE = "take"

OPTIONS = OptionSchema([
    Option("heap", "int", 21, "pebbles in the heap at the start", minimum=5, maximum=60),
    Option("max_take", "int", 3, "the most pebbles one turn may take", minimum=2,
           maximum=6),
    Option("last_loses", "bool", False, "whoever takes the last pebble loses"),
])


class PebblesGame(Game[PebblesState]):
    id = "pebbles"
    name = "Pebbles"
    min_players = 2
    max_players = 4
    options_schema = OPTIONS
    game_type = GameType(Dynamics.TURN_BASED, Information.PERFECT, chance=False,
                         conserves=("pebbles",))
    # Measured: twintable.sim.durations.typical_minutes(entry, "", 2).
    table_minutes: ClassVar[Mapping[str, tuple[int, float]]] = {"": (2, 0.6)}
    payloads: ClassVar[ActionPayloads] = {TAKE: {"count": PayloadField("int", maximum=6)}}

    def new_state(self, options: Mapping[str, Any] | None, players: int,
                  seed: int) -> PebblesState:
        resolved = self.resolve_options(options)
        self.check_players(players, resolved)
        return PebblesState(resolved, players)

    # -- play -----------------------------------------------------------------------
    def to_act(self, state: PebblesState) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.turn})

    def legal_actions(self, state: PebblesState, seat: int) -> list[Action]:
        if state.over or seat != state.turn:
            return []
        most = min(state.options["max_take"], state.heap)
        return [Action(seat, TAKE, MappingProxyType({"count": count}))
                for count in range(1, most + 1)]

    def apply(self, state: PebblesState, action: Action) -> list[Event]:
        return self.dispatch(state, action, {TAKE: self._take}, state.players)

    def _take(self, state: PebblesState, action: Action) -> list[Event]:
        count = action.payload.get("count")
        if action.seat != state.turn:
            raise RuleError("turn.not_yours", "it is not your turn",
                            {"seat": action.seat, "turn": state.turn})
        most = min(state.options["max_take"], state.heap)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= most:
            raise RuleError("take.invalid", f"take between 1 and {most} pebbles",
                            {"count": count, "most": most})
        state.heap -= count
        state.taken[action.seat] += count
        state.last = (action.seat, count)
        events = [Event("took", {"seat": action.seat, "count": count, "left": state.heap})]
        if state.heap == 0:
            state.over = True
            state.last_taker = action.seat
            events.append(Event("game_over", {"winners": self.winners(state)}))
        else:
            state.turn = (state.turn + 1) % state.players
        return events

    def winners(self, state: PebblesState) -> list[int]:
        if not state.over:
            return []
        if state.options["last_loses"]:
            return [seat for seat in range(state.players) if seat != state.last_taker]
        return [state.last_taker]

    # -- seeing ---------------------------------------------------------------------
    def view(self, state: PebblesState, viewer: int | None) -> PebblesView:
        legal = tuple(self.legal_actions(state, viewer)) if viewer is not None else ()
        return PebblesView(viewer, state.options, state.players, state.heap,
                           tuple(state.taken), state.turn, state.last, state.over,
                           tuple(self.winners(state)), legal)

    # -- the end --------------------------------------------------------------------
    def is_over(self, state: PebblesState) -> bool:
        return state.over

    def outcome(self, state: PebblesState) -> Outcome | None:
        if not state.over:
            return None
        winners = frozenset(self.winners(state))
        return Outcome(tuple(int(seat in winners) for seat in range(state.players)),
                       winners)

    def stats(self, state: PebblesState) -> dict[str, float]:
        return {"turns": float(state.version)}

    def opening(self, state: PebblesState) -> Opening | None:
        return Opening(first=0)

    def conserved(self, state: PebblesState) -> dict[str, Any]:
        """No pebble appears or vanishes: the heap and every seat's pebbles add up."""
        return {"pebbles": state.heap + sum(state.taken)}

    def snapshot(self, state: PebblesState) -> dict[str, Any]:
        return {"options": dict(state.options), "players": state.players,
                "version": state.version, "heap": state.heap, "taken": state.taken[:],
                "turn": state.turn, "last": list(state.last) if state.last else None,
                "last_taker": state.last_taker, "over": state.over}
