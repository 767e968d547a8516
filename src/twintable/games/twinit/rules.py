"""Twin It rules (RULES.md §3): the hands model, takes, steals, chains, ties, triples,
errors and their penalties, taboo cards, sudden death, and the four modes.

Everything happens through three kinds of player action, ``flip`` (turn over the top of
your pile, on your turn), ``touch`` (put a hand on a visible thing) and ``turn_over``
(time attack: turn any centre card), plus ``start`` for a time-attack round and the
system's ``tick`` when a timer runs out. Timers are deadlines in the state; a player's
action that arrives after a deadline the server has not fired yet first lets the timer
run (on a copy, so a refused action still changes nothing).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from twintable.core.errors import OptionError, RuleError
from twintable.core.game import Game, Outcome
from twintable.core.options import Option, OptionSchema
from twintable.core.payloads import ActionPayloads, PayloadField
from twintable.core.types import Action, Event
from twintable.games.twinit.deck import DECK
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

TABOO_CARDS = 3
DEFAULT_DURATION_S = {"fr": 120, "ko": 60}
PLAYER_RANGE = {COMPETITIVE: (2, 6), TEAM: (4, 6), COOP: (1, 6), TIME_ATTACK: (1, 6)}

OPTIONS = OptionSchema([
    Option("mode", "choice", COMPETITIVE,
           "competitive (first to the target), team (two teams, one hand each), coop "
           "(everyone together against the clock) or timeattack (each for themselves, "
           "rounds against the clock).", choices=(COMPETITIVE, TEAM, COOP, TIME_ATTACK)),
    Option("edition", "choice", "fr",
           "fr or ko rulebook: ko forbids using your own pile's top, plays sudden death "
           "after a shared finish and gives time attack 60 s.", choices=("fr", "ko")),
    Option("sets_to_win", "int", 5, "Sets needed to win (competitive and team).",
           minimum=1, maximum=20, modes=(COMPETITIVE, TEAM)),
    Option("hold_ms", "int", 1500, "A hand lifts after this long if no claim completes.",
           minimum=200, maximum=10_000, unit="ms"),
    Option("triple_timeout_ms", "int", 5000,
           "Three identical pictures unclaimed this long all turn over.",
           minimum=500, maximum=60_000, unit="ms"),
    Option("taboo", "int_list", (),
           "Seats playing with three taboo pictures (a handicap for strong players), "
           "numbered from 0 in the protocol (the browser lobby shows them from 1).",
           minimum=0, maximum=5, modes=(COMPETITIVE, TEAM), names_seats=True),
    Option("teams", "int_list", (),
           "Team mode: the team (1 or 2) of each seat in seat order, e.g. 1, 1, 2, 2; "
           "empty: seats alternate. Each team needs at least 2 players; a larger team "
           "plays under the taboo rule.", minimum=1, maximum=2, modes=(TEAM,)),
    Option("duration_s", "int", None,
           "Time-attack round length in seconds (default: 120 fr, 60 ko).",
           minimum=10, maximum=900, modes=(COOP, TIME_ATTACK), unit="s"),
    Option("rounds", "int", 3, "Rounds summed in competitive time attack.",
           minimum=1, maximum=10, modes=(TIME_ATTACK,)),
    Option("finish_window_ms", "int", 300,
           "ko: players finishing within this window of each other play sudden death.",
           minimum=0, maximum=5000, modes=(COMPETITIVE, TEAM), unit="ms"),
])


def team_sides(teams: Sequence[int], players: int) -> list[int]:
    """The side (0 or 1) of each seat from the ``teams`` option (team 1 or 2 per seat,
    RULES §3); seats alternate when it is empty. Any split into two teams of at least two
    players is allowed; anything else raises ``teams.invalid``."""
    if not teams:
        return [seat % 2 for seat in range(players)]
    if len(teams) != players:
        raise OptionError("teams.invalid",
                          f"option 'teams': give a team (1 or 2) for each of the {players} "
                          f"seats, not {len(teams)}",
                          {"option": "teams", "value": list(teams), "players": players})
    sides = [team - 1 for team in teams]
    sizes = [sides.count(side) for side in (0, 1)]
    if min(sizes) < 2:
        raise OptionError("teams.invalid",
                          "option 'teams': each of the two teams needs at least 2 players",
                          {"option": "teams", "value": list(teams), "players": players})
    return sides


def parse_ref(ref: Any) -> tuple[str, int, int] | None:
    """``"c7"`` -> ("c", 7, 0); ``"s1.0"`` -> ("s", 1, 0); None when malformed."""
    if not isinstance(ref, str) or len(ref) < 2 or len(ref) > 8 or ref[0] not in "cpst":
        return None
    head, _, tail = ref[1:].partition(".")
    if not head.isdigit() or (tail and not tail.isdigit()):
        return None
    if (ref[0] in "st") != bool(tail):
        return None
    return ref[0], int(head), int(tail or 0)


class TwinItGame(Game[TwinItState]):
    id = "twinit"
    name = "Twin It"
    min_players = 1
    max_players = 6
    options_schema = OPTIONS
    realtime = True
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
        self._sides(self.resolve_options(options), players)

    def _sides(self, resolved: Mapping[str, Any], players: int) -> list[int]:
        """The side of each seat; raises OptionError for a count or options that do not fit."""
        mode = resolved["mode"]
        low, high = PLAYER_RANGE[mode]
        if not low <= players <= high:
            raise OptionError("players.invalid", f"{mode} Twin It takes {low} to {high} players",
                              {"players": players, "min": low, "max": high, "mode": mode})
        bad = [seat for seat in resolved["taboo"] if seat >= players]
        if bad:
            raise OptionError("option.invalid", "option 'taboo': no such seat",
                              {"option": "taboo", "value": repr(bad)})
        if mode == TEAM:
            return team_sides(resolved["teams"], players)
        if resolved["teams"]:
            raise OptionError("teams.invalid", "option 'teams' is for team mode only",
                              {"option": "teams", "mode": mode})
        return {COMPETITIVE: list(range(players)), TIME_ATTACK: list(range(players)),
                COOP: [0] * players}[mode]

    def new_state(self, options: Mapping[str, Any] | None, players: int,
                  seed: int) -> TwinItState:
        resolved = self.resolve_options(options)
        mode = resolved["mode"]
        side_of = self._sides(resolved, players)
        if resolved["duration_s"] is None:
            resolved["duration_s"] = DEFAULT_DURATION_S[resolved["edition"]]
        state = TwinItState(resolved, players, seed, side_of)
        cards = list(range(len(DECK)))
        state.rng.shuffle(cards)
        chance = state.rng.stream()
        state.up = [chance.randrange(2) for _ in cards]
        if mode in (COOP, TIME_ATTACK):
            state.phase = READY
            state.box = cards
            state.turn = -1
            return state
        taboo_sides = {side_of[seat] for seat in resolved["taboo"]}
        if mode == TEAM:
            sizes = [side_of.count(side) for side in (0, 1)]
            if sizes[0] != sizes[1]:
                taboo_sides.add(sizes.index(max(sizes)))  # RULES §3: the larger team
        for side in sorted(taboo_sides):
            row: list[int] = []
            for card in cards:
                if len(row) == TABOO_CARDS:
                    break
                if state.picture(card) not in {state.picture(c) for c in row}:
                    row.append(card)
            state.taboo[side] = row
            cards = [card for card in cards if card not in row]
        for index, card in enumerate(cards):
            state.piles[index % players].append(card)
        return state

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
        slot = _place_in_centre(state, card)
        state.turn = _next_turn(state, seat + 1)
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
            if _ref_picture(state, mine[0].ref) == picture:
                return events + self._take(state, seat, [mine[0].ref, ref], t)
            return events + self._error(state, seat, "different", [mine[0].ref, ref], t)
        partner = [hand.ref for hand in state.hands.values()
                   if hand.seat != seat and state.side_of[hand.seat] == side
                   and _ref_picture(state, hand.ref) == picture]
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
        picture = _ref_picture(state, ref)
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
        picture = _ref_picture(state, refs[0])
        cards: list[int] = []
        stolen_from: int | None = None
        # Remove sets and taboo cards by identity: removing one shifts the indices after it.
        targets = [(ref, _ref_object(state, ref)) for ref in refs]
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
                _lift_row(state, "s", owner)
                if owner != side:
                    stolen_from = owner
                cards.extend(target)
            else:
                owner = ref_side(ref)
                state.taboo[owner].remove(target)
                _lift_row(state, "t", owner)
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
                events.append(Event("third_flipped", {"cards": _flip_cards(state, flipped),
                                                      "picture": picture}))
            if state.piles[seat]:
                state.turn = seat
            elif state.turn >= 0:
                state.turn = _next_turn(state, seat)
            events += self._check_win(state, side, t)
        else:
            state.round_points[side] = _time_attack_points(state, side)
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
            _lift_row(state, "s", side)
            if state.options["mode"] in (COMPETITIVE, TEAM):
                was_empty = not state.piles[seat]
                state.piles[seat][:0] = group
                if was_empty and state.turn < 0:
                    state.turn = seat
            else:
                for card in group:
                    _place_in_centre(state, card)
                state.round_points[side] = _time_attack_points(state, side)
        events = [Event("error", {"seat": seat, "reason": reason, "cards": refs,
                                  "lost_set_picture": lost})]
        return events + self._settle(state, t)

    def _maybe_tie(self, state: TwinItState, picture: int, t: int) -> list[Event]:
        held = [hand for hand in state.hands.values()
                if _ref_picture(state, hand.ref) == picture]
        sides = {state.side_of[hand.seat] for hand in held}
        if len(sides) < 2 or state.options["mode"] == COOP:
            return self._settle(state, t)
        free = [ref for ref, pic in visible_items(state)
                if pic == picture and ref not in state.hands]
        if free:
            return self._settle(state, t)  # a third card: the race goes on
        for hand in held:
            del state.hands[hand.ref]
        flipped = _flip_cards(state, [hand.ref for hand in held if hand.ref[0] in "cp"])
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
                                    "scores": list(self._scores(state))})]

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
                                                       "cards": _flip_cards(state, refs)}))
        if state.finish_due is not None and state.finish_due <= t:
            finishers, state.finish_due = state.finishers, None
            if len(finishers) == 1:
                return events + self._finish(state, finishers, "target")
            state.contenders = frozenset(s for s in range(state.players)
                                         if state.side_of[s] in finishers)
            state.hands.clear()
            state.turn = _next_turn(state, state.turn if state.turn >= 0 else 0)
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
        return other

    def is_over(self, state: TwinItState) -> bool:
        return state.phase == OVER

    def _scores(self, state: TwinItState) -> tuple[int, ...]:
        if state.options["mode"] in (COOP, TIME_ATTACK):
            per_side = [state.points[side] for side in range(state.sides)]
        else:
            per_side = [len(groups) for groups in state.sets]
        return tuple(per_side[state.side_of[seat]] for seat in range(state.players))

    def outcome(self, state: TwinItState) -> Outcome | None:
        if state.phase != OVER:
            return None
        return Outcome(self._scores(state), state.winners)

    def sides(self, state: TwinItState) -> tuple[int, ...] | None:
        return tuple(state.side_of) if state.options["mode"] == TEAM else None

    def stats(self, state: TwinItState) -> dict[str, float]:
        figures: dict[str, float] = {
            "virtual_s": (state.clock - state.started_ms) / 1000
            if state.started_ms is not None else 0.0,
            "takes": float(sum(state.takes)),
            "errors": float(sum(state.errors)),
        }
        figures.update({key: float(value) for key, value in state.tally.items()})
        for seat in range(state.players):
            figures[f"seat{seat}_takes"] = float(state.takes[seat])
            figures[f"seat{seat}_errors"] = float(state.errors[seat])
            figures[f"seat{seat}_claims"] = float(state.claims[seat])
            figures[f"seat{seat}_claim_ms"] = float(state.claim_ms[seat])
        if state.options["mode"] == COOP:
            figures["points"] = float(state.points[0])
        return figures

    def snapshot(self, state: TwinItState) -> dict[str, Any]:
        return {
            "options": dict(state.options), "players": state.players,
            "rng": state.rng.to_json(), "version": state.version, "clock": state.clock,
            "phase": state.phase, "up": state.up[:], "piles": [p[:] for p in state.piles],
            "centre": state.centre[:], "sets": [[g[:] for g in s] for s in state.sets],
            "taboo": [r[:] for r in state.taboo], "box": state.box[:],
            "hands": sorted(h.to_json().items() for h in state.hands.values()),
            "touches": [t[:] for t in state.touches], "triple_due": dict(state.triple_due),
            "turn": state.turn, "ends_ms": state.ends_ms, "round": state.round_no,
            "round_points": state.round_points[:], "points": state.points[:],
            "contenders": sorted(state.contenders) if state.contenders is not None else None,
            "finishers": sorted(state.finishers), "finish_due": state.finish_due,
            "winners": sorted(state.winners), "takes": state.takes[:],
            "errors": state.errors[:],
        }


# -- helpers over the state ------------------------------------------------------------
def _ref_object(state: TwinItState, ref: str) -> Any:
    """The card (centre, pile top, taboo) or set (list of cards) behind a ref, or None."""
    kind = ref[0]
    if kind == "c":
        slot = int(ref[1:])
        return state.centre[slot] if slot < len(state.centre) and state.centre[slot] >= 0 \
            else None
    if kind == "p":
        seat = int(ref[1:])
        return state.piles[seat][-1] if seat < state.players and state.piles[seat] else None
    side_text, _, index_text = ref[1:].partition(".")
    side, index = int(side_text), int(index_text)
    rows = state.sets if kind == "s" else state.taboo
    if side >= state.sides or index >= len(rows[side]):
        return None
    return rows[side][index]


def _ref_picture(state: TwinItState, ref: str) -> int:
    target = _ref_object(state, ref)
    if target is None:
        return -1
    return state.picture(target[0] if isinstance(target, list) else target)


def _place_in_centre(state: TwinItState, card: int) -> int:
    centre = state.centre
    try:
        slot = centre.index(-1)
    except ValueError:
        centre.append(card)
        return len(centre) - 1
    centre[slot] = card
    return slot


def _flip_cards(state: TwinItState, refs: list[str]) -> list[str]:
    """Turn cards over: centre cards in place, a pile's top into the centre. Returns where
    each one now lies."""
    landed = []
    for ref in refs:
        state.hands.pop(ref, None)
        if ref[0] == "c":
            card = state.centre[int(ref[1:])]
            state.up[card] ^= 1
            landed.append(ref)
        elif ref[0] == "p":
            seat = int(ref[1:])
            card = state.piles[seat].pop()
            state.up[card] ^= 1
            landed.append(f"c{_place_in_centre(state, card)}")
            if not state.piles[seat] and state.turn == seat:
                state.turn = _next_turn(state, seat + 1)
    return landed


def _lift_row(state: TwinItState, kind: str, side: int) -> None:
    """A side's sets (kind "s") or taboo cards ("t") changed, so their refs moved: lift
    every hand on that row."""
    prefix = f"{kind}{side}."
    for ref in [ref for ref in state.hands if ref.startswith(prefix)]:
        del state.hands[ref]


def _time_attack_points(state: TwinItState, side: int) -> int:
    """A pair is worth 1 point and a triple 2."""
    return sum(len(group) - 1 for group in state.sets[side])


def _next_turn(state: TwinItState, start: int) -> int:
    """The first seat clockwise from ``start`` (itself included) that can flip, or -1."""
    for step in range(state.players):
        seat = (start + step) % state.players
        if state.piles[seat] and (state.contenders is None or seat in state.contenders):
            return seat
    return -1
