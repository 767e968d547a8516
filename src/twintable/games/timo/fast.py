"""Timo's Twist on the C engine (``_native.c``): the game simulations and research run on.

:class:`FastTimoGame` is a :class:`TimoGame` whose state lives in C. Its states, legal
actions, views, snapshots and outcomes are the reference rules' own, move for move and
draw for draw (tests/games/timo/test_native.py plays both side by side), and a refused
action gets the reference's error, because the reference judges it. What it leaves out is
the event log: an action that the engine accepts directly reports no events, so tables,
which broadcast events, keep :class:`TimoGame`.

The extension is optional (setup.py): without a C compiler at install time ``NATIVE`` is
False and :meth:`TimoGame.simulator` stays on the Python rules.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from twintable.core.game import Outcome
from twintable.core.rng import Rng
from twintable.core.teams import seat_teams
from twintable.core.types import Action, Event
from twintable.games.timo.cards import COLOURS, Deck, load_deck
from twintable.games.timo.rules import TimoGame, team_outcome
from twintable.games.timo.state import CALL, CATCH, DRAW, PASS, PLAY, TimoState
from twintable.games.timo.views import TimoView

try:
    from twintable.games.timo import _native
except ImportError:  # built without a C compiler: see setup.py
    _native = None  # type: ignore[assignment]

NATIVE = _native is not None
SEED_LIMIT = 1 << 64


def _native_function(name: str) -> Any:
    return getattr(_native, name, None)


def _deck_bytes(deck_option: Any) -> tuple[bytes, bytes, bytes]:
    return _bytes_of(load_deck(deck_option))


@cache
def _bytes_of(deck: Deck) -> tuple[bytes, bytes, bytes]:
    return bytes(deck.colour), bytes(deck.rank), bytes(deck.points)


class FastTimoGame(TimoGame):
    """The rules of :class:`TimoGame`, run by the C engine; ``apply`` reports no events."""

    def __init__(self) -> None:
        if _native is None:
            raise RuntimeError("the C engine of Timo's Twist was not built (no C compiler "
                               "at install time); use TimoGame")
        super().__init__()
        self._reference = TimoGame()
        # The Action of each (seat, move code), filled by the engine as codes come up
        # (from TimoGame's own caches of legal actions).
        self._actions: list[list[Action | None]] = [
            [None] * _native.CODE_COUNT for _ in range(_native.MAX_PLAYERS)]

    def _action_of(self, seat: int, code: int) -> Action:
        native = _native
        assert native is not None
        if code < native.CODE_DRAW:
            card, slot, timo = code // 10, code % 10 // 2, code % 2 == 1
            plays = self._plays(seat, card, slot > 0, True)
            return plays[(slot - 1 if slot else 0) * 2 + timo]
        if code == native.CODE_DRAW:
            return self._simple(seat, DRAW)
        if code == native.CODE_PASS:
            return self._simple(seat, PASS)
        if code == native.CODE_CALL:
            return self._simple(seat, CALL)
        return self._catch_action(seat, code - native.CODE_CATCH)

    def code_of(self, action: Action) -> int:
        """The engine's move code of ``action`` (``_native.c: legal_codes``); the engine
        checks that it is legal where it takes one."""
        native = _native
        assert native is not None
        payload = action.payload
        if action.kind == PLAY:
            colour = payload.get("colour")
            slot = 0 if colour is None else 1 + COLOURS.index(colour)
            return int(payload["card"]) * 10 + slot * 2 + int(bool(payload.get("timo")))
        if action.kind == CATCH:
            return native.CODE_CATCH + int(payload["target"])
        codes = {DRAW: native.CODE_DRAW, PASS: native.CODE_PASS, CALL: native.CODE_CALL}
        return codes[action.kind]

    # -- set-up ---------------------------------------------------------------------
    def new_state(self, options: Mapping[str, Any] | None, players: int, seed: int) -> Any:
        resolved = self.resolve_options(options)
        self.check_players(players, resolved)
        if not 0 <= seed < SEED_LIMIT:
            raise ValueError(f"the C engine takes seeds from 0 to 2**64 - 1, not {seed}")
        assert _native is not None
        colours, ranks, points = _deck_bytes(resolved["deck"])
        return _native.Engine(
            colours, ranks, points, players, seed, resolved["stacking"],
            resolved["draw_when_able"], resolved["target"], load_deck(resolved["deck"]),
            resolved, TimoView, self._actions, self._action_of, self._judge,
            hand_size=resolved["hand_size"], teams=seat_teams(resolved["teams"], players))

    # -- who acts, and how; seeing -------------------------------------------------
    # The engine's own functions, reached straight from the class: a C function is not
    # bound as a method, so a call costs no Python frame (the simulation's hot path).
    to_act = _native_function("to_act")
    legal_actions = _native_function("legal_actions")
    view = _native_function("view")
    is_over = _native_function("is_over")
    apply = _native_function("apply")
    """apply(state, action) -> events. A legal move made of this game's Actions is played
    by the engine and reports no events; anything else goes to :meth:`_judge`."""

    def _own(self, state: Any, viewer: int | None
             ) -> tuple[int | None, tuple[int, ...], int, tuple[Action, ...]]:
        # The engine makes whole views only: the seat's own part is read off its view.
        view = self.view(state, viewer)
        return view.viewer, view.hand, view.drawn, view.legal

    def _judge(self, state: Any, action: Action) -> list[Event]:
        """The reference rules decide on a copy, so the error (or, for an equal action
        built elsewhere, the events) are theirs; the engine then plays what they took."""
        events = self._reference.apply(self.to_reference(state), action)
        key = action.key()
        for code in state.legal(action.seat):
            if self._action_of(action.seat, code).key() == key:
                state.apply(action.seat, code)
                return events
        raise AssertionError(f"the C engine and the rules disagree on {action}")

    def determinize(self, state: Any, viewer: int | None, rng: random.Random) -> Any:
        other = state.clone()
        other.load(self.plain(self._reference.determinize(self.to_reference(state), viewer,
                                                           rng)))
        return other

    # -- between the two engines ----------------------------------------------------
    def to_reference(self, state: Any) -> TimoState:
        """The same game as a :class:`TimoState`, for the reference rules."""
        data = state.state()
        reference = TimoState(state.deck, state.options, state.players, data["seed"])
        reference.rng = Rng(data["seed"], data["rng_counter"])
        reference.hands, reference.scores = data["hands"], data["scores"]
        reference.draw_pile, reference.discard = data["draw_pile"], data["discard"]
        for name in ("colour", "turn", "direction", "penalty", "drawn", "exposed", "caught",
                     "dealer", "round_winner", "turn_count", "version", "over"):
            setattr(reference, name, data[name])
        reference.round_no = data["round"]
        return reference

    def from_reference(self, reference: TimoState) -> Any:
        """A C engine state equal to ``reference``."""
        state = self.new_state(reference.options, reference.players,
                               reference.seed % SEED_LIMIT)
        state.load(self.plain(reference))
        return state

    @staticmethod
    def plain(reference: TimoState) -> dict[str, Any]:
        """What changes in ``reference``, in the shape ``Engine.load`` takes."""
        return {
            "hands": [list(hand) for hand in reference.hands],
            "scores": list(reference.scores), "draw_pile": list(reference.draw_pile),
            "discard": list(reference.discard), "colour": reference.colour,
            "turn": reference.turn, "direction": reference.direction,
            "penalty": reference.penalty, "drawn": reference.drawn,
            "exposed": reference.exposed, "caught": reference.caught,
            "dealer": reference.dealer, "round": reference.round_no,
            "round_winner": reference.round_winner, "turn_count": reference.turn_count,
            "version": reference.version, "over": reference.over,
            "rng_counter": reference.rng.counter, "seed": reference.rng.seed,
        }

    # -- the end --------------------------------------------------------------------
    def outcome(self, state: Any) -> Outcome | None:
        if not state.over:
            return None
        return team_outcome(state.scores, state.round_winner, self.sides(state))

    def sides(self, state: Any) -> tuple[int, ...] | None:
        return seat_teams(state.options["teams"], state.players)

    def stats(self, state: Any) -> dict[str, float]:
        return {"turns": state.turn_count, "rounds": state.round_no}

    def snapshot(self, state: Any) -> dict[str, Any]:
        return self._reference.snapshot(self.to_reference(state))

    def conserved(self, state: Any) -> dict[str, Any]:
        return self._reference.conserved(self.to_reference(state))
