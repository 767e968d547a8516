"""Twin It rules (RULES.md §3): the hands model, takes, steals, chains, ties, triples,
errors and their penalties, taboo cards, sudden death, and the four modes.

Everything happens through three kinds of player action, ``flip`` (turn over the top of
your pile, on your turn), ``touch`` (put a hand on a visible thing) and ``turn_over``
(time attack: turn any centre card), plus ``start`` for a time-attack round and the
system's ``tick`` when a timer runs out. Timers are deadlines in the state; a player's
action that arrives after a deadline the server has not fired yet first lets the timer
run (on a copy, so a refused action still changes nothing).

The option schema and the deal are in :mod:`.deal`; refs and the card moves the rules
make on the table are in :mod:`.board`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from twintable.core.errors import RuleError
from twintable.core.game import Game, Outcome
from twintable.core.gametype import Dynamics, GameType, Information
from twintable.core.payloads import ActionPayloads, PayloadField
from twintable.core.rng import Rng
from twintable.core.types import Action, Event
from twintable.games.twinit.board import (
    flip_cards,
    lift_row,
    next_turn,
    parse_ref,
    place_in_centre,
    ref_object,
    ref_picture,
    time_attack_points,
)
from twintable.games.twinit.deal import (
    DEFAULT_DURATION_S,
    OPTIONS,
    PLAYER_RANGE,
    TABOO_CARDS,
    deal,
    seat_sides,
    team_sides,
)
from twintable.games.twinit.deck import DECK
from twintable.games.twinit.scores import game_stats, seat_scores, snapshot
from twintable.games.twinit.state import (
    COMPETITIVE,
    COOP,
    FLIP,
    MAX_TOUCHES_PER_S,
    OVER,
    PLAY,
    READY,
    START,
    TEAM,
    TIME_ATTACK,
    TOUCH,
    TURN_OVER,
    Hand,
    TwinItState,
    ref_side,
    too_fast,
)
from twintable.games.twinit.views import (
    TwinItView,
    build_view,
    visible_items,
)

# The set-up and the table helpers live in .deal and .board; these names stay importable
# from here.
__all__ = [
    "DEFAULT_DURATION_S", "OPTIONS", "PLAYER_RANGE", "TABOO_CARDS", "TwinItGame",
    "parse_ref", "team_sides",
]


class TwinItGame(Game[TwinItState]):
    id = "twinit"
    name = "Twin It"
    min_players = 1
    max_players = 6
    options_schema = OPTIONS
    table_minutes: ClassVar[Mapping[str, tuple[int, float]]] = {
        COMPETITIVE: (3, 0.9), TEAM: (4, 0.8), COOP: (3, 2.0), TIME_ATTACK: (3, 6.1)}
    game_type = GameType(Dynamics.REAL_TIME, Information.HIDDEN, chance=True,
                         conserves=("cards",))
    payloads: ClassVar[ActionPayloads] = {
        FLIP: {}, START: {},
        TOUCH: {"card": PayloadField("str", max_length=12),
                "picture": PayloadField("int", required=False, maximum=999)},
        TURN_OVER: {"card": PayloadField("str", max_length=12),
                    "picture": PayloadField("int", required=False, maximum=999)}}
    # A touch races every other hand and names the picture it expects (RULES §3).
    unversioned_kinds = frozenset({TOUCH, TURN_OVER})

    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[TwinItState, Action], list[Event]]] = {
            FLIP: self._flip, TOUCH: self._touch, TURN_OVER: self._turn_over,
            START: self._start,
        }

    # -- set-up ---------------------------------------------------------------------
    def player_range(self, options: Mapping[str, Any] | None = None) -> tuple[int, int]:
        return PLAYER_RANGE[self.resolve_options(options)["mode"]]

    def check_players(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        """The player count for the mode, and the options that name seats (``taboo``,
        ``teams``) against that count: a table is refused at creation, not at the start."""
        seat_sides(self.resolve_options(options), players)

    def new_state(self, options: Mapping[str, Any] | None, players: int,
                  seed: int) -> TwinItState:
        return deal(self.resolve_options(options), players, seed)

    # -- who acts -------------------------------------------------------------------
    def to_act(self, state: TwinItState) -> frozenset[int]:
        return frozenset(seat for seat in range(state.players)
                         if self.legal_actions(state, seat))

    def legal_actions(self, state: TwinItState, seat: int) -> list[Action]:
        if not 0 <= seat < state.players:
            return []
        return list(self.view(state, seat).legal)

    # -- applying -------------------------------------------------------------------
    def apply(self, state: TwinItState, action: Action) -> list[Event]:
        events = self.dispatch_timed(state, action, self.handlers, state.players,
                                     self._run_timers)
        if state.started_ms is None:
            state.started_ms = state.clock
        state.public_cache = None
        return events

    def deadline(self, state: TwinItState) -> int | None:
        if state.phase != PLAY:
            return None
        times = [hand.lift_ms for hand in state.hands.values()]
        times += state.triple_due.values()
        if state.ends_ms is not None:
            times.append(state.ends_ms)
        if state.finish_due is not None:
            times.append(state.finish_due)
        return min(times, default=None)

    def timeout_action(self, state: TwinItState, now_ms: int) -> Action | None:
        return self.tick_when_due(state, now_ms)

    # -- handlers -------------------------------------------------------------------
    def _start(self, state: TwinItState, action: Action) -> list[Event]:
        if state.phase != READY:
            raise RuleError("round.running", "the round has already started")
        t = max(action.t_ms, state.clock)
        cards = state.box
        state.box = []
        state.rng.shuffle(cards)
        chance = state.rng.stream()
        for card in cards:
            state.up[card] = chance.randrange(2)
        state.centre = cards
        state.phase = PLAY
        state.clock = t
        state.ends_ms = t + state.options["duration_s"] * 1000
        state.round_points = [0] * state.sides
        return [Event("round_started", {"seat": action.seat, "round": state.round_no,
                                        "ends_ms": state.ends_ms,
                                        "centre": [state.picture(c) for c in cards]})]

    def _flip(self, state: TwinItState, action: Action) -> list[Event]:
        seat = action.seat
        self._check_playing(state, seat)
        if state.options["mode"] in (COOP, TIME_ATTACK):
            raise RuleError("flip.no_piles", "time attack has no piles; turn over centre cards")
        if state.turn != seat:
            raise RuleError("turn.not_yours", "it is not your turn to flip",
                            {"turn": state.turn})
        if not state.piles[seat]:
            raise RuleError("pile.empty", "your pile is empty")
        t = max(action.t_ms, state.clock)
        state.clock = t
        card = state.piles[seat].pop()
        state.hands.pop(f"p{seat}", None)
        state.up[card] ^= 1
        slot = place_in_centre(state, card)
        state.turn = next_turn(state, seat + 1)
        state.tally["flips"] = state.tally.get("flips", 0) + 1
        events = [Event("flipped", {"seat": seat, "card": f"c{slot}",
                                    "picture": state.picture(card), "turn": state.turn})]
        return events + self._settle(state, t)

    def _touch(self, state: TwinItState, action: Action) -> list[Event]:
        seat = action.seat
        self._check_playing(state, seat)
        ref, picture = self._check_touch(state, action)
        mode, options = state.options["mode"], state.options
        if mode == TIME_ATTACK and ref[0] == "s" and ref_side(ref) != state.side_of[seat]:
            raise RuleError("steal.forbidden", "stealing is not allowed in time attack")
        mine = [hand for hand in state.hands.values() if hand.seat == seat]
        hands_per_seat = 1 if mode == TEAM else 2
        if len(mine) >= 2:
            raise RuleError("hand.none", "both your hands are already down")
        t = max(action.t_ms, state.clock)
        state.clock = t
        state.touches[seat].append(t)
        del state.touches[seat][:-MAX_TOUCHES_PER_S]
        side = state.side_of[seat]
        events = [Event("touched", {"seat": seat, "card": ref, "picture": picture})]
        if mode == TEAM and len(mine) >= hands_per_seat:
            return events + self._error(state, seat, "both_hands", [mine[0].ref, ref], t)
        if any(picture == state.picture(card) for card in state.taboo[side]):
            return events + self._error(state, seat, "taboo", [ref], t)
        own_pile = state.piles[seat]
        if (options["edition"] == "ko" and mode in (COMPETITIVE, TEAM) and own_pile
                and state.picture(own_pile[-1]) == picture):
            return events + self._error(state, seat, "own_pile", [ref], t)
        state.hands[ref] = Hand(seat, ref, t + options["hold_ms"])
        if len(mine) == 1 and mode != TEAM:
            if ref_picture(state, mine[0].ref) == picture:
                return events + self._take(state, seat, [mine[0].ref, ref], t)
            return events + self._error(state, seat, "different", [mine[0].ref, ref], t)
        partner = [hand.ref for hand in state.hands.values()
                   if hand.seat != seat and state.side_of[hand.seat] == side
                   and ref_picture(state, hand.ref) == picture]
        if partner:
            return events + self._take(state, seat, [partner[0], ref], t)
        return events + self._maybe_tie(state, picture, t)

    def _turn_over(self, state: TwinItState, action: Action) -> list[Event]:
        seat = action.seat
        self._check_playing(state, seat)
        if state.options["mode"] not in (COOP, TIME_ATTACK):
            raise RuleError("turn_over.not_allowed", "only time attack lets you turn cards over")
        ref, _ = self._check_touch(state, action)
        if ref[0] != "c":
            raise RuleError("turn_over.centre_only", "only centre cards can be turned over")
        t = max(action.t_ms, state.clock)
        state.clock = t
        state.touches[seat].append(t)
        del state.touches[seat][:-MAX_TOUCHES_PER_S]
        card = state.centre[int(ref[1:])]
        state.up[card] ^= 1
        return [Event("turned_over", {"seat": seat, "card": ref,
                                      "picture": state.picture(card)})]

    # -- checks ---------------------------------------------------------------------
    def _check_playing(self, state: TwinItState, seat: int) -> None:
        if state.phase == READY:
            raise RuleError("round.not_started", "the round has not started yet")
        if state.contenders is not None and seat not in state.contenders:
            raise RuleError("seat.out", "only the players tied for the win play on",
                            {"contenders": sorted(state.contenders)})

    def _check_touch(self, state: TwinItState, action: Action) -> tuple[str, int]:
        """The touched ref and its picture, or a RuleError; changes nothing."""
        ref = action.payload.get("card")
        parsed = parse_ref(ref)
        if parsed is None:
            raise RuleError("card.unknown", "no such card; use c<slot>, p<seat>, "
                            "s<side>.<n> or t<side>.<n>", {"card": repr(ref)})
        assert isinstance(ref, str)
        picture = ref_picture(state, ref)
        if picture < 0:
            raise RuleError("card.not_visible", "nothing visible there", {"card": ref})
        expected = action.payload.get("picture")
        if expected is not None and expected != picture:
            raise RuleError("card.changed", "that card shows another picture now",
                            {"card": ref, "picture": picture})
        if ref in state.hands:
            raise RuleError("card.covered", "a hand is already on that card",
                            {"card": ref, "seat": state.hands[ref].seat})
        if too_fast(state, action.seat, max(action.t_ms, state.clock)):
            raise RuleError("touch.too_fast",
                            f"no more than {MAX_TOUCHES_PER_S} touches a second")
        return ref, picture

    # -- outcomes of a touch ----------------------------------------------------------
    def _take(self, state: TwinItState, seat: int, refs: list[str], t: int) -> list[Event]:
        side = state.side_of[seat]
        picture = ref_picture(state, refs[0])
        cards: list[int] = []
        stolen_from: int | None = None
        # Remove sets and taboo cards by identity: removing one shifts the indices after it.
        targets = [(ref, ref_object(state, ref)) for ref in refs]
        for ref, _ in targets:
            state.hands.pop(ref, None)
        for ref, target in targets:
            kind = ref[0]
            if kind == "c":
                state.centre[int(ref[1:])] = -1
                cards.append(target)
            elif kind == "p":
                cards.append(state.piles[int(ref[1:])].pop())
            elif kind == "s":
                owner = ref_side(ref)
                state.sets[owner].remove(target)
                lift_row(state, "s", owner)
                if owner != side:
                    stolen_from = owner
                cards.extend(target)
            else:
                owner = ref_side(ref)
                state.taboo[owner].remove(target)
                lift_row(state, "t", owner)
                cards.append(target)
        state.sets[side].append(cards)
        state.takes[seat] += 1
        since = state.pair_since.get(picture)
        if since is not None:
            state.claim_ms[seat] += t - since
            state.claims[seat] += 1
        data: dict[str, Any] = {"seat": seat, "side": side, "cards": refs, "picture": picture,
                                "size": len(cards), "set": f"s{side}.{len(state.sets[side]) - 1}"}
        if stolen_from is not None:
            data["stolen_from"] = stolen_from
            state.tally["steals"] = state.tally.get("steals", 0) + 1
        events = [Event("taken", data)]
        mode = state.options["mode"]
        if mode in (COMPETITIVE, TEAM):
            third = [ref for ref, pic in visible_items(state) if pic == picture and ref[0] != "s"]
            flipped = [ref for ref in third if ref[0] != "t"]
            if flipped:
                events.append(Event("third_flipped", {"cards": flip_cards(state, flipped),
                                                      "picture": picture}))
            if state.piles[seat]:
                state.turn = seat
            elif state.turn >= 0:
                state.turn = next_turn(state, seat)
            events += self._check_win(state, side, t)
        else:
            state.round_points[side] = time_attack_points(state, side)
        return events + self._settle(state, t)

    def _error(self, state: TwinItState, seat: int, reason: str, refs: list[str],
               t: int) -> list[Event]:
        for ref in [hand.ref for hand in state.hands.values() if hand.seat == seat]:
            del state.hands[ref]
        state.errors[seat] += 1
        side = state.side_of[seat]
        lost: int | None = None
        if state.sets[side]:
            group = state.sets[side].pop()
            lost = state.picture(group[0])
            lift_row(state, "s", side)
            if state.options["mode"] in (COMPETITIVE, TEAM):
                was_empty = not state.piles[seat]
                state.piles[seat][:0] = group
                if was_empty and state.turn < 0:
                    state.turn = seat
            else:
                for card in group:
                    place_in_centre(state, card)
                state.round_points[side] = time_attack_points(state, side)
        events = [Event("error", {"seat": seat, "reason": reason, "cards": refs,
                                  "lost_set_picture": lost})]
        return events + self._settle(state, t)

    def _maybe_tie(self, state: TwinItState, picture: int, t: int) -> list[Event]:
        held = [hand for hand in state.hands.values()
                if ref_picture(state, hand.ref) == picture]
        sides = {state.side_of[hand.seat] for hand in held}
        if len(sides) < 2 or state.options["mode"] == COOP:
            return self._settle(state, t)
        free = [ref for ref, pic in visible_items(state)
                if pic == picture and ref not in state.hands]
        if free:
            return self._settle(state, t)  # a third card: the race goes on
        for hand in held:
            del state.hands[hand.ref]
        flipped = flip_cards(state, [hand.ref for hand in held if hand.ref[0] in "cp"])
        state.tally["ties"] = state.tally.get("ties", 0) + 1
        return [Event("tie", {"seats": sorted(hand.seat for hand in held), "picture": picture,
                              "cards": [hand.ref for hand in held], "flipped": flipped}),
                *self._settle(state, t)]

    def _check_win(self, state: TwinItState, side: int, t: int) -> list[Event]:
        options = state.options
        if state.contenders is not None:
            # Sudden death: the first set taken by a contender wins.
            return self._finish(state, frozenset({side}), "sudden_death")
        if len(state.sets[side]) < options["sets_to_win"]:
            return []
        if options["edition"] == "ko" and options["finish_window_ms"] > 0:
            if state.finish_due is None:
                state.finish_due = t + options["finish_window_ms"]
            state.finishers = state.finishers | {side}
            return [Event("finishing", {"side": side, "until_ms": state.finish_due})]
        return self._finish(state, frozenset({side}), "target")

    def _finish(self, state: TwinItState, sides: frozenset[int], why: str) -> list[Event]:
        state.phase = OVER
        state.hands.clear()
        state.triple_due.clear()
        state.winners = frozenset(s for s in range(state.players) if state.side_of[s] in sides)
        return [Event("game_over", {"winners": sorted(state.winners), "reason": why,
                                    "scores": list(seat_scores(state))})]

    # -- timers ---------------------------------------------------------------------
    def _run_timers(self, state: TwinItState, t: int) -> list[Event]:
        t = max(t, state.clock)
        state.clock = t
        events: list[Event] = []
        for ref, hand in list(state.hands.items()):
            if hand.lift_ms <= t:
                del state.hands[ref]
                events.append(Event("lifted", {"seat": hand.seat, "card": ref}))
        for picture, due in sorted(state.triple_due.items()):
            if due <= t:
                del state.triple_due[picture]
                refs = [ref for ref, pic in visible_items(state)
                        if pic == picture and ref[0] in "cp"]
                for ref in refs:
                    state.hands.pop(ref, None)
                events.append(Event("triple_flipped", {"picture": picture,
                                                       "cards": flip_cards(state, refs)}))
        if state.finish_due is not None and state.finish_due <= t:
            finishers, state.finish_due = state.finishers, None
            if len(finishers) == 1:
                return events + self._finish(state, finishers, "target")
            state.contenders = frozenset(s for s in range(state.players)
                                         if state.side_of[s] in finishers)
            state.hands.clear()
            state.turn = next_turn(state, state.turn if state.turn >= 0 else 0)
            events.append(Event("sudden_death", {"seats": sorted(state.contenders)}))
        if state.ends_ms is not None and state.ends_ms <= t:
            events += self._end_round(state)
            return events
        return events + self._settle(state, t)

    def _end_round(self, state: TwinItState) -> list[Event]:
        options = state.options
        for side in range(state.sides):
            state.points[side] += state.round_points[side]
        events = [Event("round_over", {"round": state.round_no,
                                       "round_points": list(state.round_points),
                                       "points": list(state.points)})]
        state.ends_ms = None
        state.hands.clear()
        if options["mode"] == TIME_ATTACK and state.round_no < options["rounds"]:
            state.box = [c for c in state.centre if c >= 0]
            state.box += [c for groups in state.sets for group in groups for c in group]
            state.centre = []
            state.sets = [[] for _ in range(state.sides)]
            state.round_no += 1
            state.phase = READY
            return events
        if options["mode"] == COOP:
            best = frozenset({0})
        else:
            top = max(state.points)
            best = frozenset(s for s in range(state.sides) if state.points[s] == top)
        return events + self._finish(state, best, "time")

    def _settle(self, state: TwinItState, t: int) -> list[Event]:
        """After any change: arm triple timers, note when pairs appeared, spot a stall."""
        if state.phase != PLAY:
            return []
        # Pictures only, no refs: this runs after every action.
        up, deck = state.up, DECK
        loose = [deck[card][up[card]] for card in state.centre if card >= 0]
        loose += [deck[pile[-1]][up[pile[-1]]] for pile in state.piles if pile]
        free: dict[int, int] = {}
        for picture in loose:
            free[picture] = free.get(picture, 0) + 1
        counts = dict(free)
        for groups in state.sets:
            for group in groups:
                picture = deck[group[0]][up[group[0]]]
                counts[picture] = counts.get(picture, 0) + 1
        for row in state.taboo:
            for card in row:
                picture = deck[card][up[card]]
                counts[picture] = counts.get(picture, 0) + 1
        since = state.pair_since
        for picture in [p for p in since if counts.get(p, 0) < 2]:
            del since[picture]
        for picture, count in counts.items():
            if count >= 2 and picture not in since:
                since[picture] = t
        if state.options["mode"] in (COOP, TIME_ATTACK):
            return []
        triples = state.triple_due
        for picture in [p for p in triples if free.get(p, 0) < 3]:
            del triples[picture]
        timeout = state.options["triple_timeout_ms"]
        for picture, count in free.items():
            if count >= 3 and picture not in triples:
                triples[picture] = t + timeout
        if (state.turn < 0 and not state.hands and not triples and state.finish_due is None
                and not self._claimable(state, counts)):
            most = max(len(groups) for groups in state.sets)
            best = frozenset(s for s in range(state.sides) if len(state.sets[s]) == most)
            return self._finish(state, best, "stalled")
        return []

    def _claimable(self, state: TwinItState, counts: dict[int, int]) -> bool:
        pairs = [picture for picture, count in counts.items() if count >= 2]
        ko = state.options["edition"] == "ko"
        for seat in range(state.players):
            if state.contenders is not None and seat not in state.contenders:
                continue
            side = state.side_of[seat]
            banned = {state.picture(card) for card in state.taboo[side]}
            if ko and state.piles[seat]:
                banned.add(state.picture(state.piles[seat][-1]))
            if any(picture not in banned for picture in pairs):
                return True
        return False

    # -- seeing and the end -----------------------------------------------------------
    def view(self, state: TwinItState, viewer: int | None) -> TwinItView:
        return build_view(state, viewer)

    def determinize(self, state: TwinItState, viewer: int | None,
                    rng: random.Random) -> TwinItState:
        """Re-deal what nobody sees: the cards under the pile tops and the box, and which
        way up they lie."""
        other = state.clone()
        hidden = [card for pile in other.piles for card in pile[:-1]] + other.box
        rng.shuffle(hidden)
        for card in hidden:
            other.up[card] = rng.randrange(2)
        position = 0
        for pile in other.piles:
            if len(pile) > 1:
                count = len(pile) - 1
                pile[:-1] = hidden[position:position + count]
                position += count
        other.box = hidden[position:]
        # What chance does next is hidden from everyone too.
        other.rng = Rng(rng.getrandbits(64))
        return other

    def is_over(self, state: TwinItState) -> bool:
        return state.phase == OVER

    def outcome(self, state: TwinItState) -> Outcome | None:
        if state.phase != OVER:
            return None
        return Outcome(seat_scores(state), state.winners)

    def cooperative(self, options: Mapping[str, Any]) -> bool:
        return bool(options.get("mode") == COOP)

    def sides(self, state: TwinItState) -> tuple[int, ...] | None:
        return tuple(state.side_of) if state.options["mode"] == TEAM else None

    def stats(self, state: TwinItState) -> dict[str, float]:
        return game_stats(state)

    def conserved(self, state: TwinItState) -> dict[str, Any]:
        """Every card is in a pile, the centre, a set, a taboo row or the box."""
        places = [card for pile in state.piles for card in pile]
        places += [card for card in state.centre if card >= 0]
        places += [card for side in state.sets for group in side for card in group]
        places += [card for row in state.taboo for card in row]
        return {"cards": sorted(places + state.box)}

    def snapshot(self, state: TwinItState) -> dict[str, Any]:
        return snapshot(state)
