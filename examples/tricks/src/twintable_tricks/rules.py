"""Twin Tricks rules (rules/en.md): dealing, following suit, taking tricks, scoring.

The handler checks everything first and only then changes the state, so a RuleError
leaves the state exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from twintable.core.errors import RuleError
from twintable.core.game import Game, Outcome
from twintable.core.gametype import Dynamics, GameType, Information
from twintable.core.options import Option, OptionSchema
from twintable.core.payloads import ActionPayloads, PayloadField
from twintable.core.rng import Rng
from twintable.core.types import Action, Event

from twintable_tricks.cards import DECK_SIZE, label, rank_of, suit_of
from twintable_tricks.state import Play, TricksState
from twintable_tricks.views import TricksView

PLAY = "play"
#: Taking the last trick of a hand scores this much more than a trick (rules §scoring).
LAST_TRICK_BONUS = 1
_NOBODY_ACTS: frozenset[int] = frozenset()

OPTIONS = OptionSchema([
    Option("target", "int", 10, "Points that end the game at the end of a hand.",
           minimum=1, maximum=100, unit="points"),
    Option("hand_size", "int", 5, "Cards dealt to each player, so tricks in a hand.",
           minimum=1, maximum=10, unit="cards"),
])


def winner_of(trick: Sequence[Play]) -> int:
    """The seat whose card is the highest of the suit led (no trumps)."""
    led = suit_of(trick[0][1])
    return max((play for play in trick if suit_of(play[1]) == led),
               key=lambda play: rank_of(play[1]))[0]


def playable(hand: Sequence[int], trick: Sequence[Play]) -> list[int]:
    """The cards of ``hand`` that may go on ``trick``: the led suit if held, else any."""
    if not trick:
        return sorted(hand)
    led = suit_of(trick[0][1])
    following = [card for card in hand if suit_of(card) == led]
    return sorted(following or hand)


class TricksGame(Game[TricksState]):
    id = "tricks"
    name = "Twin Tricks"
    min_players = 2
    max_players = 4
    options_schema = OPTIONS
    game_type = GameType(Dynamics.TURN_BASED, Information.HIDDEN, chance=True,
                         conserves=("cards",))
    # The lobby's length: two players (what "Play now" seats), the median minutes measured
    # by ``twintable.sim.durations.typical_minutes`` with a person and the default bots.
    table_minutes: ClassVar[Mapping[str, tuple[int, float]]] = {"": (2, 1.4)}
    payloads: ClassVar[ActionPayloads] = {PLAY: {"card": PayloadField("int",
                                                                     maximum=DECK_SIZE - 1)}}

    def __init__(self) -> None:
        self._handlers: dict[str, Callable[[TricksState, Action], list[Event]]] = {
            PLAY: self._play}
        # Actions are immutable: one per (seat, card), built once.
        self._actions = [[Action(seat, PLAY, MappingProxyType({"card": card}))
                          for card in range(DECK_SIZE)] for seat in range(self.max_players)]

    # -- set-up ---------------------------------------------------------------------
    def new_state(self, options: Mapping[str, Any] | None, players: int,
                  seed: int) -> TricksState:
        resolved = self.resolve_options(options)
        self.check_players(players)
        state = TricksState(resolved, players, seed)
        # The first dealer is drawn; the deal then passes one seat on each hand.
        state.dealer = state.rng.randrange(players)
        self._start_hand(state, [])
        return state

    def _start_hand(self, state: TricksState, events: list[Event]) -> None:
        players = state.players
        cards = list(range(DECK_SIZE))
        state.rng.shuffle(cards)
        state.hands = [[] for _ in range(players)]
        for _ in range(state.options["hand_size"]):
            for offset in range(1, players + 1):
                state.hands[(state.dealer + offset) % players].append(cards.pop())
        state.stock = cards
        state.trick = []
        state.taken = []
        state.tricks_won = [0] * players
        state.leader = state.turn = (state.dealer + 1) % players
        state.hand_no += 1
        events.append(Event("hand_started", {"hand": state.hand_no, "dealer": state.dealer,
                                             "leader": state.leader}))
        for seat, hand in enumerate(state.hands):
            events.append(Event("dealt", {"seat": seat, "cards": sorted(hand)},
                                audience=frozenset((seat,))))

    # -- who acts, and how ----------------------------------------------------------
    def to_act(self, state: TricksState) -> frozenset[int]:
        return _NOBODY_ACTS if state.over else frozenset((state.turn,))

    def legal_actions(self, state: TricksState, seat: int) -> list[Action]:
        if state.over or seat != state.turn:
            return []
        mine = self._actions[seat]
        return [mine[card] for card in playable(state.hands[seat], state.trick)]

    # -- applying -------------------------------------------------------------------
    def apply(self, state: TricksState, action: Action) -> list[Event]:
        return self.dispatch(state, action, self._handlers, state.players)

    def _play(self, state: TricksState, action: Action) -> list[Event]:
        seat, card = action.seat, action.payload.get("card")
        if seat != state.turn:
            raise RuleError("turn.not_yours", "it is not your turn",
                            {"seat": seat, "turn": state.turn})
        hand = state.hands[seat]
        # type() rather than isinstance(): True is an int too, and is no card.
        if type(card) is not int or card not in hand:
            raise RuleError("card.not_in_hand", "you do not hold that card", {"card": card})
        if card not in playable(hand, state.trick):
            raise RuleError("card.must_follow", f"{label(card)} does not follow suit",
                            {"card": card, "led": suit_of(state.trick[0][1])})
        hand.remove(card)
        state.trick.append((seat, card))
        state.turn_count += 1
        events = [Event("played", {"seat": seat, "card": card})]
        if len(state.trick) < state.players:
            state.turn = (seat + 1) % state.players
        else:
            self._finish_trick(state, events)
        return events

    def _finish_trick(self, state: TricksState, events: list[Event]) -> None:
        winner = winner_of(state.trick)
        plays = tuple(state.trick)
        state.taken.append((winner, plays))
        state.last_trick = (winner, plays)
        state.trick = []
        state.tricks_won[winner] += 1
        state.leader = state.turn = winner
        events.append(Event("trick_won", {"seat": winner, "trick": len(state.taken),
                                          "cards": [card for _, card in plays]}))
        if not state.hands[winner]:
            self._end_hand(state, winner, events)

    def _end_hand(self, state: TricksState, last: int, events: list[Event]) -> None:
        points = list(state.tricks_won)
        points[last] += LAST_TRICK_BONUS
        state.scores = [score + gained for score, gained in zip(state.scores, points,
                                                                strict=True)]
        events.append(Event("hand_over", {"hand": state.hand_no, "tricks": list(state.tricks_won),
                                          "last_trick": last, "points": points,
                                          "scores": list(state.scores)}))
        if max(state.scores) >= state.options["target"]:
            state.over = True
            events.append(Event("game_over", {"winners": self.winners(state),
                                              "scores": list(state.scores)}))
            return
        state.dealer = (state.dealer + 1) % state.players
        self._start_hand(state, events)

    def winners(self, state: TricksState) -> list[int]:
        """The seats with the most points (ties share the win)."""
        best = max(state.scores)
        return [seat for seat, score in enumerate(state.scores) if score == best]

    # -- seeing ---------------------------------------------------------------------
    def view(self, state: TricksState, viewer: int | None) -> TricksView:
        seated = viewer is not None and 0 <= viewer < state.players
        seat = viewer if seated and viewer is not None else None
        return TricksView(
            viewer=seat,
            options=state.options,
            players=state.players,
            hand=tuple(sorted(state.hands[seat])) if seat is not None else (),
            hand_sizes=tuple(map(len, state.hands)),
            trick=tuple(state.trick),
            taken=tuple(state.taken),
            last_trick=state.last_trick,
            tricks_won=tuple(state.tricks_won),
            scores=tuple(state.scores),
            dealer=state.dealer,
            leader=state.leader,
            turn=state.turn,
            hand_no=state.hand_no,
            over=state.over,
            winners=tuple(self.winners(state)) if state.over else (),
            legal=tuple(self.legal_actions(state, seat)) if seat is not None else (),
        )

    def determinize(self, state: TricksState, viewer: int | None,
                    rng: random.Random) -> TricksState:
        other = state.clone()
        hidden = [seat for seat in range(state.players) if seat != viewer]
        pool = [card for seat in hidden for card in state.hands[seat]] + state.stock
        rng.shuffle(pool)
        for seat in hidden:
            size = len(state.hands[seat])
            other.hands[seat], pool = pool[:size], pool[size:]
        other.stock = pool
        # Later deals are hidden from everyone too.
        other.rng = Rng(rng.getrandbits(64))
        return other

    # -- the end --------------------------------------------------------------------
    def is_over(self, state: TricksState) -> bool:
        return state.over

    def outcome(self, state: TricksState) -> Outcome | None:
        if not state.over:
            return None
        return Outcome(tuple(state.scores), frozenset(self.winners(state)))

    def stats(self, state: TricksState) -> dict[str, float]:
        return {"turns": state.turn_count, "hands": state.hand_no}

    def conserved(self, state: TricksState) -> dict[str, Any]:
        """Every card is in a hand, the stock, the trick on the table or a taken trick."""
        taken = [card for _, plays in state.taken for _, card in plays]
        on_table = [card for _, card in state.trick]
        return {"cards": sorted([card for hand in state.hands for card in hand]
                                + state.stock + taken + on_table)}

    def snapshot(self, state: TricksState) -> dict[str, Any]:
        def trick(entry: tuple[int, tuple[Play, ...]] | None) -> Any:
            return None if entry is None else [entry[0], [list(play) for play in entry[1]]]

        return {
            "players": state.players, "options": dict(state.options), "seed": state.seed,
            "version": state.version, "hands": [list(hand) for hand in state.hands],
            "stock": list(state.stock), "trick": [list(play) for play in state.trick],
            "taken": [trick(entry) for entry in state.taken],
            "last_trick": trick(state.last_trick), "tricks_won": list(state.tricks_won),
            "scores": list(state.scores), "dealer": state.dealer, "leader": state.leader,
            "turn": state.turn, "hand": state.hand_no, "turn_count": state.turn_count,
            "over": state.over, "rng": state.rng.to_json(),
        }
