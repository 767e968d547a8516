"""Timo's Twist rules (RULES.md §1): dealing, legal plays, effects, TIMO!, scoring.

Every action handler checks everything first and only then mutates, so a RuleError
leaves the state exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from pydantic import ValidationError

from twintable.core.errors import RuleError
from twintable.core.game import Game, Opening, Outcome
from twintable.core.gametype import Dynamics, GameType, Information
from twintable.core.options import Option, OptionSchema
from twintable.core.payloads import SEAT, ActionPayloads, PayloadField
from twintable.core.rng import Rng
from twintable.core.teams import members, seat_teams, team_count, teams_option
from twintable.core.types import Action, Event
from twintable.games.timo.cards import (
    BLACK,
    COLOUR_NAMES,
    COLOURS,
    PENALTY,
    PLUS2,
    PLUS4,
    STOP,
    TWIST,
    DeckFile,
    deck_names,
    load_deck,
)
from twintable.games.timo.state import CALL, CATCH, DRAW, NOBODY, PASS, PLAY, TimoState
from twintable.games.timo.views import TimoView, own_json

#: The move kinds live with the state; they are named here too for older imports.
__all__ = ["CALL", "CATCH", "DRAW", "PASS", "PLAY", "TimoGame"]

HAND_SIZE = 7
_NOBODY_ACTS: frozenset[int] = frozenset()
_ONE_SEAT = tuple(frozenset((seat,)) for seat in range(6))
_EVERYONE = tuple(frozenset(range(players)) for players in range(7))
CATCH_PENALTY = 2

class DeckOption(Option):
    """The ``deck`` option: a deck's name from the game's deck data, or a composition of
    one's own (a designer's ``--deck FILE``: :class:`~twintable.games.timo.cards.DeckFile`),
    kept in the options so that config and seed still replay every game."""

    __slots__ = ()

    def validate(self, value: Any) -> Any:
        if isinstance(value, Mapping):
            try:
                return DeckFile.model_validate(value).composition()
            except ValidationError as error:
                problem = error.errors()[0]
                where = ".".join(map(str, problem["loc"]))
                raise self._bad(value, f"{where + ': ' if where else ''}{problem['msg']}") \
                    from None
        return super().validate(value)

    def range_text(self) -> str:
        return f"{super().range_text()}, or a deck file (--deck)"


OPTIONS = OptionSchema([
    DeckOption("deck", "choice", "timo54", "Deck composition, from the game's deck data "
               "or a deck file.", choices=deck_names()),
    Option("stacking", "bool", True,
           "+2 on +2 and +4 on +2 or +4 pass the growing penalty on; off: no stacking."),
    Option("draw_when_able", "bool", False,
           "Allow drawing a card even when a card in hand could be played."),
    Option("target", "int", 300, "Score that wins the game.", minimum=1, maximum=100_000,
           unit="points"),
    Option("hand_size", "int", HAND_SIZE, "Cards dealt to each player at the start of a round.",
           minimum=1, maximum=20, unit="cards"),
    teams_option("Play in partnerships: alternate (every other seat, two teams; 4 or 6 "
                 "players) or a team number per seat, e.g. 1, 1, 2, 2. Going out wins the "
                 "round for your team, which scores the opponents' cards only; the first "
                 "team to the target wins. Empty: every player for themselves."),
])


class TimoGame(Game[TimoState]):
    id = "timo"
    name = "Timo's Twist"
    min_players = 2
    max_players = 6
    options_schema = OPTIONS
    # Turns, with a short race to call or catch TIMO! between two of them.
    game_type = GameType(Dynamics.TURN_BASED, Information.HIDDEN, chance=True,
                         conserves=("cards",))
    table_minutes: ClassVar[Mapping[str, tuple[int, float]]] = {"": (3, 17.9)}
    payloads: ClassVar[ActionPayloads] = {
        PLAY: {"card": PayloadField("int"), "colour": PayloadField("str", required=False),
               "timo": PayloadField("bool", required=False)},
        DRAW: {}, PASS: {}, CALL: {}, CATCH: {"target": SEAT}}

    def __init__(self) -> None:
        self._handlers: dict[str, Callable[[TimoState, Action], list[Event]]] = {
            PLAY: self._play, DRAW: self._draw, PASS: self._pass, CALL: self._call,
            CATCH: self._catch}
        self._play_cache: dict[tuple[int, int, bool, bool], list[Action]] = {}
        self._simple_cache: dict[tuple[int, str], Action] = {}
        self._action_json: dict[int, dict[str, Any]] = {}
        """The JSON of every action those caches hold, by the action's ``id`` (the caches
        keep each action alive, so no id is reused): every frame of every move lists
        each seat's legal moves, which the server would otherwise write out from their
        payloads again on every move (issue 28)."""

    # -- set-up ---------------------------------------------------------------------
    def player_range(self, options: Mapping[str, Any] | None = None) -> tuple[int, int]:
        """A bigger hand seats fewer players: every hand, the start card and one card to
        draw come out of the deck."""
        resolved = self.resolve_options(options)
        cards = load_deck(resolved["deck"]).size
        return self.min_players, min(self.max_players, (cards - 2) // resolved["hand_size"])

    def check_players(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        """The player count, then the ``teams`` option against it: a table is refused at
        creation, not at the start."""
        super().check_players(players, options)
        seat_teams(self.resolve_options(options)["teams"], players)

    def new_state(self, options: Mapping[str, Any] | None, players: int,
                  seed: int) -> TimoState:
        resolved = self.resolve_options(options)
        self.check_players(players, resolved)
        state = TimoState(load_deck(resolved["deck"]), resolved, players, seed)
        state.dealer = state.rng.randrange(players)
        self._start_round(state, [])
        return state

    def _start_round(self, state: TimoState, events: list[Event]) -> None:
        n = state.players
        cards = list(range(state.deck.size))
        shuffle = state.rng.stream().shuffle
        shuffle(cards)
        state.hands = [[] for _ in range(n)]
        for _ in range(state.options["hand_size"]):
            for offset in range(1, n + 1):
                state.hands[(state.dealer + offset) % n].append(cards.pop())
        # RULES.md §1: a black start card goes back, the deck is reshuffled, flip again.
        start = cards.pop()
        while state.deck.colour[start] == BLACK:
            cards.append(start)
            shuffle(cards)
            start = cards.pop()
        state.draw_pile = cards
        state.discard = [start]
        state.colour = state.deck.colour[start]
        state.direction = 1
        state.penalty = 0
        state.drawn = state.exposed = state.caught = NOBODY
        state.round_no += 1
        events.append(Event("round_started", {"round": state.round_no, "dealer": state.dealer,
                                              "start": start}))
        for seat, hand in enumerate(state.hands):
            events.append(Event("dealt", {"seat": seat, "cards": list(hand)},
                                audience=_ONE_SEAT[seat]))
        # The start card acts on the first player as if the dealer had played it.
        state.turn = state.dealer
        self._card_effect(state, start, events)

    # -- who acts, and how ----------------------------------------------------------
    def to_act(self, state: TimoState) -> frozenset[int]:
        if state.over:
            return _NOBODY_ACTS
        if state.exposed != NOBODY:
            return _EVERYONE[state.players]
        return _ONE_SEAT[state.turn]

    def legal_actions(self, state: TimoState, seat: int) -> list[Action]:
        if state.over:
            return []
        actions: list[Action] = []
        if seat == state.turn:
            actions += self._turn_actions(state, seat)
        if state.exposed != NOBODY:
            if seat == state.exposed:
                actions.append(self._simple(seat, CALL))
            else:
                actions.append(self._catch_action(seat, state.exposed))
        return actions

    def _turn_actions(self, state: TimoState, seat: int) -> list[Action]:
        hand = state.hands[seat]
        candidates = [state.drawn] if state.drawn != NOBODY else self.playable_cards(state, hand)
        actions: list[Action] = []
        last_but_one = len(hand) == 2
        plays = self._plays
        for card in candidates:
            actions += plays(seat, card, state.deck.colour[card] == BLACK, last_but_one)
        if state.drawn != NOBODY:
            actions.append(self._simple(seat, PASS))
        elif state.penalty or not candidates or state.options["draw_when_able"]:
            actions.append(self._simple(seat, DRAW))
        return actions

    def _plays(self, seat: int, card: int, black: bool, with_timo: bool) -> list[Action]:
        """Every way to play ``card``: a colour for a black card, with or without TIMO!.

        Actions are immutable and built once per (seat, card, ...) because legal-move
        generation is the simulation's hot path.
        """
        key = (seat, card, black, with_timo)
        actions = self._play_cache.get(key)
        if actions is None:
            actions = []
            for colour in COLOURS if black else (None,):
                payload: dict[str, Any] = {"card": card}
                if colour is not None:
                    payload["colour"] = colour
                actions.append(Action(seat, PLAY, MappingProxyType(payload)))
                if with_timo:
                    actions.append(Action(seat, PLAY, MappingProxyType({**payload, "timo": True})))
            self._play_cache[key] = actions
            for action in actions:
                self._action_json[id(action)] = action.to_json()
        return actions

    def _catch_action(self, seat: int, target: int) -> Action:
        action = self._simple_cache.get((seat, f"catch {target}"))
        if action is None:
            action = Action(seat, CATCH, MappingProxyType({"target": target}))
            self._simple_cache[(seat, f"catch {target}")] = action
            self._action_json[id(action)] = action.to_json()
        return action

    def _simple(self, seat: int, kind: str) -> Action:
        action = self._simple_cache.get((seat, kind))
        if action is None:
            action = self._simple_cache[(seat, kind)] = Action(seat, kind)
            self._action_json[id(action)] = action.to_json()
        return action

    def playable_cards(self, state: TimoState, cards: Sequence[int]) -> list[int]:
        """The cards of ``cards`` that may be played on the discard pile now."""
        rank, top_rank = state.deck.rank, state.deck.rank[state.discard[-1]]
        if state.penalty:
            # RULES.md §1 stacking: +2 on +2, +4 on +2 or +4, never +2 on +4.
            if top_rank == PLUS2:
                return [c for c in cards if rank[c] == PLUS4 or rank[c] == PLUS2]
            return [c for c in cards if rank[c] == PLUS4]
        colour, current = state.deck.colour, state.colour
        return [c for c in cards
                if colour[c] == BLACK or colour[c] == current or rank[c] == top_rank]

    def _can_stack(self, state: TimoState, seat: int) -> bool:
        return bool(state.options["stacking"] and self.playable_cards(state, state.hands[seat]))

    # -- applying -------------------------------------------------------------------
    def apply(self, state: TimoState, action: Action) -> list[Event]:
        return self.dispatch(state, action, self._handlers, state.players)

    def _require_turn(self, state: TimoState, seat: int) -> None:
        if seat != state.turn:
            raise RuleError("turn.not_yours", "it is not your turn",
                            {"seat": seat, "turn": state.turn})

    def _play(self, state: TimoState, action: Action) -> list[Event]:
        seat, payload, deck = action.seat, action.payload, state.deck
        self._require_turn(state, seat)
        card = payload.get("card")
        hand = state.hands[seat]
        # type() rather than isinstance(): True is an int too, and is no card.
        if type(card) is not int or card not in hand:
            raise RuleError("card.not_in_hand", "you do not hold that card", {"card": card})
        if state.drawn != NOBODY and card != state.drawn:
            raise RuleError("play.only_drawn_card",
                            "after drawing you may only play the card you drew",
                            {"card": card, "drawn": state.drawn})
        if not self.playable_cards(state, (card,)):
            if state.penalty:
                raise RuleError("card.must_stack_or_draw",
                                f"a penalty of {state.penalty} is pending: stack or draw",
                                {"card": card, "penalty": state.penalty})
            raise RuleError("card.not_playable", f"{deck.label(card)} cannot be played now",
                            {"card": card})
        colour_name = payload.get("colour")
        black = deck.colour[card] == BLACK
        if black or colour_name is not None:
            self._check_colour(card, black, colour_name)
        calls_timo = payload.get("timo", False)
        if calls_timo is not False and (calls_timo is not True or len(hand) != 2):
            if calls_timo is not True:
                raise RuleError("payload.invalid", "'timo' must be true or false",
                                {"timo": calls_timo})
            raise RuleError("timo.not_one_card", "TIMO! is called with exactly one card left",
                            {"cards_after_play": len(hand) - 1})

        colour = COLOURS.index(colour_name) if black else deck.colour[card]
        return self.play_checked(state, seat, card, colour, calls_timo)

    def play_checked(self, state: TimoState, seat: int, card: int, colour: int,
                     calls_timo: bool) -> list[Event]:
        """Play a card the caller has already found legal (search rollouts skip checks).

        ``colour`` is the colour index in force afterwards: the card's own, or the one
        named for a black card. Unlike ``apply`` it does not bump ``state.version``.
        """
        hand = state.hands[seat]
        self._close_window(state)
        state.turn_count += 1
        hand.remove(card)
        state.discard.append(card)
        state.drawn = NOBODY
        state.colour = colour
        events = [Event("played", {"seat": seat, "card": card, "colour": COLOUR_NAMES[colour]})]
        if not hand:
            self._end_round(state, seat, card, events)
            return events
        if len(hand) == 1:
            if calls_timo:
                events.append(Event("timo_called", {"seat": seat}))
            else:
                state.exposed = seat
        self._card_effect(state, card, events)
        return events

    def _check_colour(self, card: int, black: bool, colour_name: object) -> None:
        if not black:
            raise RuleError("colour.not_allowed", "only a black card names a colour",
                            {"card": card})
        if colour_name is None:
            raise RuleError("colour.required", "name a colour for a black card", {"card": card})
        if colour_name not in COLOURS:
            raise RuleError("colour.invalid", f"unknown colour {colour_name!r}",
                            {"colour": colour_name, "choices": list(COLOURS)})

    def _card_effect(self, state: TimoState, card: int, events: list[Event]) -> None:
        """Move the turn on from ``state.turn``, who just played ``card`` (or dealt it)."""
        rank = state.deck.rank[card]
        if rank == STOP or (rank == TWIST and state.players == 2):
            self._advance(state, 2)
            events.append(Event("skipped", {"seat": self._neighbour(state, -1)}))
        elif rank == TWIST:
            state.direction = -state.direction
            self._advance(state, 1)
            events.append(Event("direction", {"direction": state.direction}))
        elif rank in PENALTY:
            state.penalty += PENALTY[rank]
            self._advance(state, 1)
            if not self._can_stack(state, state.turn):
                # Nothing to decide: the victim takes the penalty at once.
                self._take_penalty(state, state.turn, events)
        else:
            self._advance(state, 1)

    def _neighbour(self, state: TimoState, steps: int) -> int:
        return (state.turn + steps * state.direction) % state.players

    def _advance(self, state: TimoState, steps: int) -> None:
        state.turn = (state.turn + steps * state.direction) % state.players

    def _take_penalty(self, state: TimoState, seat: int, events: list[Event]) -> None:
        amount, state.penalty = state.penalty, 0
        self._give(state, seat, amount, events, reason="penalty")
        self._advance(state, 1)

    def _give(self, state: TimoState, seat: int, amount: int, events: list[Event],
              reason: str) -> list[int]:
        cards = []
        for _ in range(amount):
            card = self._draw_card(state, events)
            if card is None:
                break
            cards.append(card)
        state.hands[seat].extend(cards)
        events.append(Event("drew", {"seat": seat, "count": len(cards), "reason": reason}))
        events.append(Event("drew_cards", {"seat": seat, "cards": cards},
                            audience=_ONE_SEAT[seat]))
        return cards

    def _draw_card(self, state: TimoState, events: list[Event]) -> int | None:
        if not state.draw_pile:
            if len(state.discard) <= 1:
                return None
            # RULES.md §1: keep the top discard, shuffle the rest into a new draw pile.
            top = state.discard.pop()
            state.draw_pile, state.discard = state.discard, [top]
            state.rng.shuffle(state.draw_pile)
            events.append(Event("reshuffled", {"draw_pile_size": len(state.draw_pile)}))
        return state.draw_pile.pop()

    def _draw(self, state: TimoState, action: Action) -> list[Event]:
        seat = action.seat
        self._require_turn(state, seat)
        if state.drawn != NOBODY:
            raise RuleError("draw.already_drawn", "play the card you drew or pass")
        if (not state.penalty and not state.options["draw_when_able"]
                and self.playable_cards(state, state.hands[seat])):
            raise RuleError("draw.has_playable",
                            "you may only draw when you cannot play a card")
        return self.draw_checked(state, seat)

    def draw_checked(self, state: TimoState, seat: int) -> list[Event]:
        """Draw for the seat on turn, which the caller has found allowed (see play_checked)."""
        self._close_window(state)
        state.turn_count += 1
        events: list[Event] = []
        if state.penalty:
            self._take_penalty(state, seat, events)
            return events
        drawn = self._give(state, seat, 1, events, reason="turn")
        if drawn and self.playable_cards(state, drawn):
            state.drawn = drawn[0]
        else:
            self._advance(state, 1)
        return events

    def _pass(self, state: TimoState, action: Action) -> list[Event]:
        self._require_turn(state, action.seat)
        if state.drawn == NOBODY:
            raise RuleError("pass.not_allowed", "you may only pass after drawing a card")
        self._close_window(state)
        state.turn_count += 1
        state.drawn = NOBODY
        self._advance(state, 1)
        return [Event("passed", {"seat": action.seat})]

    def _call(self, state: TimoState, action: Action) -> list[Event]:
        seat = action.seat
        if seat != state.exposed:
            if len(state.hands[seat]) != 1:
                raise RuleError("timo.not_one_card",
                                "TIMO! is called with exactly one card left")
            raise RuleError("timo.not_needed", "you have already called or the chance has gone")
        state.exposed = NOBODY
        return [Event("timo_called", {"seat": seat})]

    def _catch(self, state: TimoState, action: Action) -> list[Event]:
        seat, target = action.seat, action.payload.get("target")
        if isinstance(target, bool) or not isinstance(target, int) or not (
                0 <= target < state.players):
            raise RuleError("catch.invalid_target", "name the seat you catch",
                            {"target": target})
        if target == seat:
            raise RuleError("catch.self", "you cannot catch yourself")
        if target == state.caught:
            # RULES.md §1: the first catch counts; later ones change nothing.
            raise RuleError("catch.too_late", "someone else caught that player first",
                            {"target": target})
        if target != state.exposed:
            raise RuleError("catch.not_catchable",
                            "only a player at one card who has not called TIMO! can be caught",
                            {"target": target, "cards": len(state.hands[target])})
        state.exposed = NOBODY
        state.caught = target
        events = [Event("caught", {"seat": target, "by": seat})]
        self._give(state, target, CATCH_PENALTY, events, reason="caught")
        return events

    def _close_window(self, state: TimoState) -> None:
        state.exposed = state.caught = NOBODY

    def _end_round(self, state: TimoState, winner: int, last: int, events: list[Event]) -> None:
        deck = state.deck
        if deck.rank[last] in PENALTY:
            # RULES.md §1: a closing +2/+4 still makes the next player draw before scoring.
            state.penalty += PENALTY[deck.rank[last]]
            self._advance(state, 1)
            self._give(state, state.turn, state.penalty, events, reason="penalty")
            state.penalty = 0
        # A team game (the ``teams`` option): the round is the winner's team's, which
        # scores its opponents' cards only; each member's score is the team's.
        scoring = self.partners(state, winner)
        points = sum(deck.points[c] for seat, hand in enumerate(state.hands)
                     if seat not in scoring for c in hand)
        for seat in scoring:
            state.scores[seat] += points
        state.round_winner = winner
        round_over: dict[str, Any] = {
            "winner": winner, "points": points, "scores": list(state.scores),
            "hands": [list(hand) for hand in state.hands]}
        if state.teams is not None:
            round_over["winners"] = list(scoring)
        events.append(Event("round_over", round_over))
        if state.scores[winner] >= state.options["target"]:
            state.over = True
            state.exposed = state.caught = NOBODY
            game_over: dict[str, Any] = {"winner": winner, "scores": list(state.scores)}
            if state.teams is not None:
                game_over["winners"] = list(scoring)
            events.append(Event("game_over", game_over))
            return
        state.dealer = (state.dealer + 1) % state.players
        self._start_round(state, events)

    # -- seeing ---------------------------------------------------------------------
    def view(self, state: TimoState, viewer: int | None) -> TimoView:
        seated, hand, drawn, legal = self._own(state, viewer)
        return TimoView(
            viewer=seated,
            deck=state.deck,
            options=state.options,
            players=state.players,
            hand=hand,
            hand_sizes=tuple(map(len, state.hands)),
            discard=tuple(state.discard),
            colour=state.colour,
            turn=state.turn,
            direction=state.direction,
            penalty=state.penalty,
            drawn=drawn,
            draw_pile_size=len(state.draw_pile),
            exposed=state.exposed,
            dealer=state.dealer,
            round_no=state.round_no,
            scores=tuple(state.scores),
            over=state.over,
            winner=state.round_winner if state.over else NOBODY,
            legal=legal,
        )

    def _own(self, state: TimoState, viewer: int | None
             ) -> tuple[int | None, tuple[int, ...], int, tuple[Action, ...]]:
        """What only ``viewer`` sees of ``state``: the seat (None for a spectator), its
        hand, the card it just drew (else NOBODY) and its legal moves."""
        if viewer is None or not 0 <= viewer < state.players:
            return None, (), NOBODY, ()
        return (viewer, tuple(state.hands[viewer]),
                state.drawn if viewer == state.turn else NOBODY,
                tuple(self.legal_actions(state, viewer)))

    def views_json(self, state: TimoState, viewers: Iterable[int | None]
                   ) -> tuple[dict[str, Any], dict[int | None, dict[str, Any]]]:
        # The discard pile, the scores and the rest are every seat's alike: written once,
        # from a spectator's view; each seat adds its own part (the server only encodes
        # these dicts, so the legal moves' JSON is shared from the cache).
        own: dict[int | None, dict[str, Any]] = {}
        known = self._action_json
        for viewer in viewers:
            seated, hand, drawn, legal = self._own(state, viewer)
            own[viewer] = own_json(state.deck, seated, hand, drawn,
                                   [known.get(id(action)) or action.to_json()
                                    for action in legal])
        if not own:
            return {}, {}
        return self.view(state, None).shared_json(), own

    def determinize(self, state: TimoState, viewer: int | None,
                    rng: random.Random) -> TimoState:
        other = state.clone()
        hidden_seats = [s for s in range(state.players) if s != viewer]
        # The card the player on turn just drew stays put: it decides their legal plays.
        pool = [c for s in hidden_seats for c in state.hands[s] if c != state.drawn]
        pool += state.draw_pile
        rng.shuffle(pool)
        for seat in hidden_seats:
            keep = [c for c in state.hands[seat] if c == state.drawn]
            size = len(state.hands[seat]) - len(keep)
            other.hands[seat] = [pool.pop() for _ in range(size)] + keep
        other.draw_pile = pool
        other.rng = Rng(rng.getrandbits(64))
        return other

    def sample_state(self, view: TimoView, rng: random.Random) -> TimoState:
        """A full state consistent with everything ``view``'s seat has seen (for search)."""
        if view.viewer is None:
            raise ValueError("sampling needs a seat's view")
        state = TimoState(view.deck, view.options, view.players, rng.getrandbits(64))
        seen = set(view.hand) | set(view.discard)
        unseen = [c for c in range(view.deck.size) if c not in seen]
        rng.shuffle(unseen)
        for seat in range(view.players):
            if seat == view.viewer:
                state.hands[seat] = list(view.hand)
            else:
                state.hands[seat] = [unseen.pop() for _ in range(view.hand_sizes[seat])]
        state.draw_pile = unseen
        state.discard = list(view.discard)
        state.colour, state.turn, state.direction = view.colour, view.turn, view.direction
        state.penalty, state.drawn, state.exposed = view.penalty, view.drawn, view.exposed
        state.dealer, state.round_no = view.dealer, view.round_no
        state.scores = list(view.scores)
        state.over = view.over
        return state

    # -- the end --------------------------------------------------------------------
    def is_over(self, state: TimoState) -> bool:
        return state.over

    def outcome(self, state: TimoState) -> Outcome | None:
        if not state.over:
            return None
        return team_outcome(tuple(state.scores), state.round_winner, state.teams)

    @staticmethod
    def partners(state: TimoState, seat: int) -> tuple[int, ...]:
        """``seat`` and its partners (only ``seat`` when every player is for themselves)."""
        teams = state.teams
        return (seat,) if teams is None else members(teams, teams[seat])

    def sides(self, state: TimoState) -> tuple[int, ...] | None:
        return state.teams

    def stats(self, state: TimoState) -> dict[str, float]:
        return {"turns": state.turn_count, "rounds": state.round_no}

    # The C engine's state has the same attributes: FastTimoGame inherits these.
    def opening(self, state: TimoState) -> Opening:
        return Opening((state.dealer + 1) % state.players, state.dealer)

    def round_number(self, state: TimoState) -> int:
        return state.round_no

    def running_scores(self, state: TimoState) -> tuple[int, ...]:
        return tuple(state.scores)

    def conserved(self, state: TimoState) -> dict[str, Any]:
        """Every card of the deck is in one place: a hand, the draw pile or the discard."""
        return {"cards": sorted([card for hand in state.hands for card in hand]
                                + state.draw_pile + state.discard)}

    def snapshot(self, state: TimoState) -> dict[str, Any]:
        return {
            "players": state.players, "options": dict(state.options), "seed": state.seed,
            "version": state.version, "hands": [list(h) for h in state.hands],
            "draw_pile": list(state.draw_pile), "discard": list(state.discard),
            "colour": state.colour, "turn": state.turn, "direction": state.direction,
            "penalty": state.penalty, "drawn": state.drawn, "exposed": state.exposed,
            "caught": state.caught, "dealer": state.dealer, "round": state.round_no,
            "round_winner": state.round_winner, "scores": list(state.scores),
            "turn_count": state.turn_count, "over": state.over, "rng": state.rng.to_json(),
        }


def team_outcome(scores: tuple[int, ...], winner: int,
                 teams: tuple[int, ...] | None) -> Outcome:
    """The outcome of a finished game whose last round ``winner`` took: that seat wins,
    or with teams its whole team, every member holding the team's score."""
    if teams is None:
        return Outcome(scores, frozenset((winner,)))
    team_scores = tuple(scores[members(teams, team)[0]] for team in range(team_count(teams)))
    return Outcome(scores, frozenset(members(teams, teams[winner])), teams, team_scores)
