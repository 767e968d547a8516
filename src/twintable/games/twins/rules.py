"""Twins rules (RULES.md §2): the deal, the buy step, four rounds of secret picks revealed
together, the cash cards with every tie ruling, bankruptcy and the end.

Handlers check everything before they change anything, so a RuleError leaves the state
exactly as it was.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from itertools import combinations
from types import MappingProxyType
from typing import Any, ClassVar

from pydantic import ValidationError

from twintable.core.errors import RuleError
from twintable.core.game import Game, Opening, Outcome
from twintable.core.gametype import Dynamics, GameType, Information
from twintable.core.options import Option, OptionSchema
from twintable.core.payloads import ActionPayloads, PayloadField
from twintable.core.rng import Rng
from twintable.core.teams import seat_teams, team_count, teams_option
from twintable.core.types import Action, Event
from twintable.games.twins.cards import (
    BUY_COST,
    CASH_CARDS,
    CATEGORY_NAMES,
    DECK_SIZE,
    SET_RANK,
    CashCard,
    ScoringFile,
    cash_card,
)
from twintable.games.twins.state import BUY, BUY_KIND, OVER, PICK, PICK_KIND, TwinsState
from twintable.games.twins.views import TwinsView

#: Cash cards live with the cards, move kinds with the state; named here for older imports.
__all__ = ["BUY_COST", "BUY_KIND", "CASH_CARDS", "PICK_KIND", "CashCard", "TwinsGame"]

HAND_SIZE = 8
START_CHIPS = 12
MOST_BOUGHT = len(BUY_COST) - 1
ROUNDS = 4
_ONE_SEAT = tuple(frozenset((seat,)) for seat in range(6))
_NOBODY: frozenset[int] = frozenset()
# Strings built once, not per payment: the simulation's hot path.
_LEDGER_KEYS = {(round_no, direction, category): f"round{round_no}_{direction}_{name}"
                for round_no in range(1, ROUNDS + 1) for direction in ("paid", "received")
                for category, name in enumerate(CATEGORY_NAMES)}
_REASONS = {round_no: f"round {round_no}" for round_no in range(1, ROUNDS + 1)}

class CashOption(Option):
    """The ``cash`` option: none (the rulebook's cash cards) or a designer's cards per
    player count, as :class:`~twintable.games.twins.cards.ScoringFile` holds them, kept in
    the options so that config and seed still replay every game."""

    __slots__ = ()

    def validate(self, value: Any) -> Any:
        if not isinstance(value, Mapping):
            raise self._bad(value, "expected cash cards per player count")
        try:
            return ScoringFile.model_validate({"cash": value}).options()["cash"]
        except ValidationError as error:
            problem = error.errors()[0]
            where = ".".join(map(str, problem["loc"]))
            raise self._bad(value, f"{where}: {problem['msg']}") from None

    def range_text(self) -> str:
        return "the rulebook's, or a scoring-table file (--deck)"


OPTIONS = OptionSchema([
    Option("max_hands", "int", None, "End the game after this many hands (none: no limit).",
           minimum=1, maximum=1000, unit="hands"),
    Option("starting_chips", "int", START_CHIPS, "Chips each player starts the game with.",
           minimum=1, maximum=100, unit="chips"),
    # Four rounds of two cards need eight; more seat fewer players (see player_range), and
    # three players at most share the 60 cards 18 + 2 each.
    Option("deal", "int", HAND_SIZE, "Cards dealt to each player at the start of a hand.",
           minimum=ROUNDS * 2, maximum=DECK_SIZE // 3 - MOST_BOUGHT, unit="cards"),
    teams_option("Play in partnerships: alternate (every other seat, two teams; 4 or 6 "
                 "players) or a team number per seat, e.g. 1, 1, 2, 2. Play is unchanged; "
                 "at the end the team holding the most chips together wins (a bankrupt "
                 "member adds nothing). Empty: every player for themselves."),
], design=[
    CashOption("cash", "choice", None, "The cash cards per player count (none: the "
               "rulebook's); set by a scoring-table file (--deck).", choices=(None,)),
])


def final_outcome(chips: Sequence[int], out: Sequence[bool],
                  teams: tuple[int, ...] | None) -> Outcome:
    """The end of a game: the most chips wins, ties share. With teams, the team holding
    the most chips together wins, every member alike (a bankrupt member counts 0)."""
    if teams is None:
        best = max(chips)
        return Outcome(tuple(chips), frozenset(s for s, c in enumerate(chips) if c == best))
    totals = [0] * team_count(teams)
    for seat, team in enumerate(teams):
        totals[team] += 0 if out[seat] else chips[seat]
    top = max(totals)
    return Outcome(tuple(chips), frozenset(s for s, team in enumerate(teams)
                                           if totals[team] == top), teams, tuple(totals))


def lowest_payers(ranks: Mapping[int, int], k: int) -> set[int]:
    """Everyone at or below the k-th lowest set pays (ties below the line all pay)."""
    if not ranks:
        return set()
    ordered = sorted(ranks.values())
    line = ordered[min(k, len(ordered)) - 1]
    return {seat for seat, rank in ranks.items() if rank <= line}


def tiers_from_top(ranks: Mapping[int, int]) -> list[list[int]]:
    by_rank: dict[int, list[int]] = defaultdict(list)
    for seat, rank in ranks.items():
        by_rank[rank].append(seat)
    return [sorted(by_rank[rank]) for rank in sorted(by_rank, reverse=True)]


def paid_tiers(ranks: Mapping[int, int], k: int) -> list[list[int]]:
    """Tiers from the top that fit wholly in the k places; the first that does not fit,
    and every tier below it, get nothing (RULES.md §2, round 2 ties)."""
    paid, places = [], k
    for tier in tiers_from_top(ranks):
        if len(tier) > places:
            break
        paid.append(tier)
        places -= len(tier)
    return paid


def pay_from_bank(bank: int, tiers: Iterable[list[int]], amount: int) -> tuple[dict[int, int],
                                                                              int]:
    """Pay ``amount`` to each seat, tier by tier in rank order, while the bank lasts: a tier
    the bank cannot cover splits what is left equally, rounding down (RULES.md §2)."""
    payments: dict[int, int] = {}
    for tier in tiers:
        each = min(amount, bank // len(tier))
        for seat in tier:
            payments[seat] = each
        bank -= each * len(tier)
    return payments, bank


@cache
def _pick_table(max_players: int) -> list[list[list[Action | None]]]:
    return [[[Action(seat, PICK_KIND, MappingProxyType({"cards": (a, b)})) if a < b else None
              for b in range(DECK_SIZE)] for a in range(DECK_SIZE)]
            for seat in range(max_players)]


class TwinsGame(Game[TwinsState]):
    id = "twins"
    name = "Twins"
    min_players = 3
    max_players = 6
    options_schema = OPTIONS
    round_name: ClassVar[str] = "hand"
    # Buys go seat by seat, but the picks that decide a round are committed together.
    game_type = GameType(Dynamics.SIMULTANEOUS, Information.HIDDEN, chance=True,
                         conserves=("cards", "chips"))
    table_minutes: ClassVar[Mapping[str, tuple[int, float]]] = {"": (4, 9.0)}
    payloads: ClassVar[ActionPayloads] = {
        BUY_KIND: {"count": PayloadField("int")},
        PICK_KIND: {"cards": PayloadField("int_list", max_items=8)}}

    def __init__(self) -> None:
        self._handlers: dict[str, Callable[[TwinsState, Action], list[Event]]] = {
            BUY_KIND: self._buy, PICK_KIND: self._pick}
        # Every pick action, built once per process (actions are immutable, so every game
        # shares them): legal-move generation is the simulation's hot path.
        self._pick_table = _pick_table(self.max_players)
        self._buy_cache: dict[tuple[int, int], Action] = {}

    # -- set-up ---------------------------------------------------------------------
    def player_range(self, options: Mapping[str, Any] | None = None) -> tuple[int, int]:
        """A bigger deal seats fewer players: every hand, and two cards each may buy, come
        out of the 60 cards."""
        deal = self.resolve_options(options)["deal"]
        return self.min_players, min(self.max_players, DECK_SIZE // (deal + MOST_BOUGHT))

    def check_players(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        """The player count, then the ``teams`` option against it: a table is refused at
        creation, not at the start."""
        super().check_players(players, options)
        seat_teams(self.resolve_options(options)["teams"], players)

    def new_state(self, options: Mapping[str, Any] | None, players: int,
                  seed: int) -> TwinsState:
        resolved = self.resolve_options(options)
        self.check_players(players, resolved)
        state = TwinsState(resolved, players, seed)
        state.dealer = state.rng.randrange(players)
        events: list[Event] = []
        self._start_hand(state, events)
        return state

    def cash_card(self, state: TwinsState) -> CashCard:
        return cash_card(state.players, state.options)

    def _active(self, state: TwinsState) -> list[int]:
        return [seat for seat in range(state.players) if not state.out[seat]]

    def _next_active(self, state: TwinsState, seat: int) -> int:
        for step in range(1, state.players + 1):
            candidate = (seat + step) % state.players
            if not state.out[candidate]:
                return candidate
        return seat

    def _start_hand(self, state: TwinsState, events: list[Event]) -> None:
        state.hand_no += 1
        cards = list(range(DECK_SIZE))
        state.rng.shuffle(cards)
        state.hands = [[] for _ in range(state.players)]
        deal = state.options["deal"]
        for seat in self._active(state):
            state.hands[seat] = sorted(cards[-deal:])
            del cards[-deal:]
        state.draw_pile = cards
        state.last_played = state.played
        state.played = []
        state.picks = [None] * state.players
        state.bought = [0] * state.players
        state.sitting_out = [False] * state.players
        state.round_no = 0
        state.phase = BUY
        state.buyer = self._next_active(state, state.dealer)
        events.append(Event("hand_started", {"hand": state.hand_no, "dealer": state.dealer}))
        for seat in self._active(state):
            events.append(Event("dealt", {"seat": seat, "cards": list(state.hands[seat])},
                                audience=_ONE_SEAT[seat]))

    # -- who acts, and how ----------------------------------------------------------
    def participants(self, state: TwinsState) -> list[int]:
        """Seats that play the current round."""
        out, sitting_out = state.out, state.sitting_out
        return [seat for seat in range(state.players) if not (out[seat] or sitting_out[seat])]

    def waiting(self, state: TwinsState) -> list[int]:
        """Seats that play this round and have not committed yet."""
        out, sitting_out, picks = state.out, state.sitting_out, state.picks
        return [seat for seat in range(state.players)
                if picks[seat] is None and not (out[seat] or sitting_out[seat])]

    def to_act(self, state: TwinsState) -> frozenset[int]:
        if state.phase == BUY:
            return _ONE_SEAT[state.buyer]
        if state.phase == PICK:
            return frozenset(self.waiting(state))
        return _NOBODY

    def legal_actions(self, state: TwinsState, seat: int) -> list[Action]:
        if state.phase == BUY and seat == state.buyer:
            return [self._buy_action(seat, count) for count in range(3)
                    if BUY_COST[count] <= state.chips[seat]]
        if (state.phase == PICK and not state.out[seat] and not state.sitting_out[seat]
                and state.picks[seat] is None):
            table = self._pick_table[seat]
            # Hands are kept sorted, so every pair comes out as (low, high).
            return [table[a][b] for a, b in combinations(state.hands[seat], 2)]  # type: ignore[misc]
        return []

    def _buy_action(self, seat: int, count: int) -> Action:
        action = self._buy_cache.get((seat, count))
        if action is None:
            action = Action(seat, BUY_KIND, MappingProxyType({"count": count}))
            self._buy_cache[(seat, count)] = action
        return action

    # -- applying -------------------------------------------------------------------
    def apply(self, state: TwinsState, action: Action) -> list[Event]:
        return self.dispatch(state, action, self._handlers, state.players)

    def _require_active(self, state: TwinsState, seat: int) -> None:
        if state.out[seat]:
            raise RuleError("seat.bankrupt", "you have gone bankrupt and left the game")

    def _buy(self, state: TwinsState, action: Action) -> list[Event]:
        seat, count = action.seat, action.payload.get("count")
        self._require_active(state, seat)
        if state.phase != BUY:
            raise RuleError("phase.not_buying", "cards are bought only before round 1")
        if seat != state.buyer:
            raise RuleError("buy.not_your_turn", "players buy in turn from the dealer's left",
                            {"buyer": state.buyer})
        if type(count) is not int or count not in (0, 1, 2):
            raise RuleError("buy.invalid_count", "buy 0, 1 or 2 cards", {"count": count})
        cost = BUY_COST[count]
        if cost > state.chips[seat]:
            raise RuleError("buy.unaffordable", f"{count} cards cost {cost} chips",
                            {"cost": cost, "chips": state.chips[seat]})
        state.chips[seat] -= cost
        state.bank += cost
        cards = [state.draw_pile.pop() for _ in range(count)]
        state.hands[seat] = sorted(state.hands[seat] + cards)
        state.bought[seat] = count
        events = [Event("bought", {"seat": seat, "count": count, "cost": cost,
                                   "bank": state.bank})]
        if cards:
            events.append(Event("drew_cards", {"seat": seat, "cards": cards},
                                audience=_ONE_SEAT[seat]))
        following = self._next_active(state, seat)
        if following == self._next_active(state, state.dealer):
            state.phase, state.buyer, state.round_no = PICK, -1, 1
            events.append(Event("round_started", {"round": 1}))
        else:
            state.buyer = following
        return events

    def _pick(self, state: TwinsState, action: Action) -> list[Event]:
        seat, cards = action.seat, action.payload.get("cards")
        self._require_active(state, seat)
        if state.phase != PICK:
            raise RuleError("phase.not_picking", "picks start after everyone has bought")
        if state.sitting_out[seat]:
            raise RuleError("pick.sitting_out", "you sit out round 4")
        if state.picks[seat] is not None:
            raise RuleError("pick.already_committed", "you have already picked this round")
        if not isinstance(cards, (list, tuple)) or len(cards) != 2:
            raise RuleError("pick.wrong_count", "pick exactly two cards",
                            {"count": len(cards) if isinstance(cards, (list, tuple))
                             else None})
        first, second = cards
        hand = state.hands[seat]
        if (type(first) is not int or type(second) is not int or first not in hand
                or second not in hand):
            missing = next(c for c in cards if type(c) is not int or c not in hand)
            raise RuleError("pick.card_not_in_hand", "you do not hold that card",
                            {"card": missing})
        if first == second:
            raise RuleError("pick.same_card", "pick two different cards", {"card": first})
        state.picks[seat] = (min(first, second), max(first, second))
        events = [Event("committed", {"seat": seat, "round": state.round_no})]
        if not self.waiting(state):
            self._reveal(state, events)
        return events

    def reveal(self, state: TwinsState) -> list[Event]:
        """Show every participant's committed pick and settle the round, as the last
        pick does (for a search that commits picks it made from the hands itself)."""
        events: list[Event] = []
        self._reveal(state, events)
        return events

    def _reveal(self, state: TwinsState, events: list[Event]) -> None:
        ranks: dict[int, int] = {}
        shown = []
        for seat in self.participants(state):
            pick = state.picks[seat]
            assert pick is not None
            a, b = pick
            state.hands[seat].remove(a)
            state.hands[seat].remove(b)
            state.played.append((state.round_no, seat, a, b))
            ranks[seat] = SET_RANK[a][b]
            shown.append({"seat": seat, "cards": [a, b],
                          "set": CATEGORY_NAMES[ranks[seat] // 100], "value": ranks[seat] % 100})
        events.append(Event("revealed", {"round": state.round_no, "picks": shown}))
        self._pay_round(state, ranks, events)
        state.picks = [None] * state.players
        self._next_round(state, events)

    def _pay_round(self, state: TwinsState, ranks: dict[int, int],
                   events: list[Event]) -> None:
        card = self.cash_card(state)
        round_no = state.round_no
        if round_no in (1, 3):
            k, amount = ((card.lowest_r1, card.pay_r1) if round_no == 1
                         else (card.lowest_r3, card.pay_r3))
            for seat in sorted(lowest_payers(ranks, k)):
                paid = self._charge(state, seat, amount, events, reason=_REASONS[round_no])
                self._record(state, round_no, "paid", ranks[seat], paid)
                if round_no == 3 and not state.out[seat]:
                    state.sitting_out[seat] = True
                    events.append(Event("sits_out", {"seat": seat}))
        elif round_no == 2:
            payments, state.bank = pay_from_bank(state.bank, paid_tiers(ranks, card.top_r2),
                                                 card.gain)
            for seat, amount in sorted(payments.items()):
                self._record(state, round_no, "received", ranks[seat], amount)
                state.chips[seat] += amount
                events.append(Event("received", {"seat": seat, "amount": amount,
                                                 "bank": state.bank}))
        else:
            tiers = tiers_from_top(ranks)
            if tiers and len(tiers[0]) == 1:
                winner, amount = tiers[0][0], state.bank
                self._record(state, round_no, "received", ranks[winner], amount)
                state.chips[winner] += amount
                state.bank = 0
                events.append(Event("received", {"seat": winner, "amount": amount, "bank": 0}))
            else:
                events.append(Event("bank_stays", {"bank": state.bank}))

    def _record(self, state: TwinsState, round_no: int, direction: str, rank: int,
                amount: int) -> None:
        key = _LEDGER_KEYS[round_no, direction, rank // 100]
        state.ledger[key] = state.ledger.get(key, 0) + amount

    def _charge(self, state: TwinsState, seat: int, amount: int, events: list[Event],
                reason: str) -> int:
        paid = min(amount, state.chips[seat])
        state.chips[seat] -= paid
        state.bank += paid
        events.append(Event("paid", {"seat": seat, "amount": paid, "bank": state.bank,
                                     "reason": reason}))
        if paid < amount:
            # RULES.md §2: pay everything, leave at once; the others finish this hand.
            state.out[seat] = True
            state.ending = True
            events.append(Event("bankrupt", {"seat": seat}))
        return paid

    def _next_round(self, state: TwinsState, events: list[Event]) -> None:
        while True:
            state.round_no += 1
            if state.round_no > ROUNDS:
                self._end_hand(state, events)
                return
            if self.participants(state):
                events.append(Event("round_started", {"round": state.round_no}))
                return
            # Nobody plays this round (everyone sits out round 4): the bank stays.
            events.append(Event("bank_stays", {"bank": state.bank}))

    def _end_hand(self, state: TwinsState, events: list[Event]) -> None:
        max_hands = state.options["max_hands"]
        if state.ending or (max_hands is not None and state.hand_no >= max_hands):
            state.phase = OVER
            outcome = self.outcome(state)
            assert outcome is not None
            events.append(Event("game_over", outcome.to_json()))
            return
        state.dealer = self._next_active(state, state.dealer)
        self._start_hand(state, events)

    # -- seeing ---------------------------------------------------------------------
    def view(self, state: TwinsState, viewer: int | None) -> TwinsView:
        seated = viewer is not None and 0 <= viewer < state.players
        me = viewer if seated and viewer is not None else -1
        own_pick = state.picks[me] if me >= 0 else None
        return TwinsView(
            viewer=me if me >= 0 else None,
            options=state.options,
            players=state.players,
            hand=tuple(state.hands[me]) if me >= 0 else (),
            hand_sizes=tuple(map(len, state.hands)),
            chips=tuple(state.chips),
            bank=state.bank,
            out=tuple(state.out),
            dealer=state.dealer,
            hand_no=state.hand_no,
            round_no=state.round_no,
            phase=state.phase,
            buyer=state.buyer,
            bought=tuple(state.bought),
            committed=tuple(p is not None for p in state.picks),
            my_pick=own_pick,
            sitting_out=tuple(state.sitting_out),
            played=tuple(state.played),
            last_played=tuple(state.last_played),
            legal=tuple(self.legal_actions(state, me)) if me >= 0 else (),
        )

    def determinize(self, state: TwinsState, viewer: int | None,
                    rng: random.Random) -> TwinsState:
        other = state.clone()
        hidden = [s for s in range(state.players) if s != viewer]
        pool = [c for s in hidden for c in state.hands[s]] + state.draw_pile
        rng.shuffle(pool)
        for seat in hidden:
            other.hands[seat] = sorted(pool.pop() for _ in state.hands[seat])
            if state.picks[seat] is not None:
                other.picks[seat] = (other.hands[seat][0], other.hands[seat][1])
        other.draw_pile = pool
        # The next hands are as unknown as the hidden cards: with the real generator a
        # search would deal itself the true next hand.
        other.rng = Rng(rng.getrandbits(64))
        return other

    # -- the end --------------------------------------------------------------------
    def is_over(self, state: TwinsState) -> bool:
        return state.phase == OVER

    def outcome(self, state: TwinsState) -> Outcome | None:
        if state.phase != OVER:
            return None
        return final_outcome(state.chips, state.out, state.teams)

    def sides(self, state: TwinsState) -> tuple[int, ...] | None:
        return state.teams

    def stats(self, state: TwinsState) -> dict[str, float]:
        return {"hands": state.hand_no, "bankruptcies": sum(state.out),
                "ended_by_bankruptcy": float(state.ending), **state.ledger}

    def opening(self, state: TwinsState) -> Opening:
        return Opening((state.dealer + 1) % state.players, state.dealer)

    def round_number(self, state: TwinsState) -> int:
        return state.hand_no

    def running_scores(self, state: TwinsState) -> tuple[int, ...]:
        return tuple(state.chips)

    def conserved(self, state: TwinsState) -> dict[str, Any]:
        """Every card is in a hand, the draw pile or a played pair; chips only move
        between the seats and the bank."""
        played = [card for _, _, first, second in state.played for card in (first, second)]
        return {"cards": sorted([card for hand in state.hands for card in hand]
                                + state.draw_pile + played),
                "chips": sum(state.chips) + state.bank}

    def snapshot(self, state: TwinsState) -> dict[str, Any]:
        return {
            "players": state.players, "options": dict(state.options), "seed": state.seed,
            "version": state.version, "chips": list(state.chips), "bank": state.bank,
            "out": list(state.out), "hands": [list(h) for h in state.hands],
            "draw_pile": list(state.draw_pile), "played": [list(p) for p in state.played],
            "last_played": [list(p) for p in state.last_played],
            "picks": [list(p) if p else None for p in state.picks],
            "bought": list(state.bought), "sitting_out": list(state.sitting_out),
            "dealer": state.dealer, "buyer": state.buyer, "hand": state.hand_no,
            "round": state.round_no, "phase": state.phase, "ending": state.ending,
            "ledger": dict(state.ledger),
            "rng": state.rng.to_json(),
        }
