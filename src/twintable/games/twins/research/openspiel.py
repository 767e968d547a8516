"""Twins as an OpenSpiel Python game, ``python_twintable_twins``; importing this module
(or ``twintable.envs.openspiel``, which imports every game's) registers it.

The face is :mod:`twintable.envs.openspiel_face` (its docstring says how games are
modelled); here is what is Twins' own. **The simultaneous picks are sequential moves
with hidden actions**, in seat order: a seat that picks later sees only *that* earlier
seats committed (the engine's own view), so the information structure is that of a
simultaneous move, and OpenSpiel's IS-MCTS and other sequential-game algorithms apply
(its IS-MCTS refuses simultaneous games). Games end after ``max_hands`` hands (default
5), so that OpenSpiel knows the longest game.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pyspiel

from twintable.core.rng import Rng
from twintable.core.types import Action
from twintable.envs.openspiel_face import Rules, Tensor, TwinTableGame, game_type
from twintable.games.twins.cards import DECK_SIZE
from twintable.games.twins.rules import BUY_KIND, PICK_KIND, TwinsGame
from twintable.games.twins.state import BUY, OVER, PICK, TwinsState
from twintable.games.twins.views import TwinsView

TWINS_NAME = "python_twintable_twins"

_PAIRS = list(combinations(range(DECK_SIZE), 2))
_PAIR_ID = {pair: index for index, pair in enumerate(_PAIRS)}
_BUYS = 3


class TwinsRules(Rules):
    """Twins. Action ids: 0, 1, 2 buy that many cards; ``3 + i`` picks the i-th pair of
    ``itertools.combinations(range(60), 2)`` (card ids, lower first)."""

    def __init__(self, options: dict[str, Any], players: int):
        self.game: TwinsGame = TwinsGame()
        self.options = self.game.resolve_options(options)
        self.game.check_players(players)
        self.players = players
        self.size = _BUYS + len(_PAIRS)

    def new_state(self, seed: int) -> TwinsState:
        return self.game.new_state(self.options, self.players, seed)

    def current_player(self, state: TwinsState) -> int:
        if state.phase == BUY:
            return state.buyer
        return min(self.game.waiting(state))

    def legal_ids(self, state: TwinsState, seat: int) -> list[int]:
        ids = []
        for action in self.game.legal_actions(state, seat):
            if action.kind == PICK_KIND:
                ids.append(_BUYS + _PAIR_ID[action.payload["cards"]])
            else:
                ids.append(self.id_of(action))
        return sorted(ids)

    def apply_id(self, state: TwinsState, seat: int, action_id: int) -> None:
        self.game.apply(state, self.action_of(seat, action_id))

    def action_of(self, seat: int, action_id: int) -> Action:
        if action_id < _BUYS:
            return Action(seat, BUY_KIND, {"count": action_id})
        return Action(seat, PICK_KIND, {"cards": _PAIRS[action_id - _BUYS]})

    def id_of(self, action: Action) -> int:
        if action.kind == BUY_KIND:
            return int(str(action.payload["count"]))
        first, second = sorted(action.payload["cards"])
        return _BUYS + _PAIR_ID[first, second]

    def scores(self, view: TwinsView) -> list[int]:
        return list(view.chips)

    def hand_epoch(self, view: TwinsView) -> int:
        return view.hand_no

    def public_text(self, view: TwinsView) -> str:
        return (f"phase {view.phase} hand{view.hand_no} round{view.round_no} "
                f"dealer{view.dealer} buyer{view.buyer} chips{list(view.chips)} "
                f"bank{view.bank} out{[int(o) for o in view.out]} "
                f"sits{[int(s) for s in view.sitting_out]} "
                f"bought{list(view.bought)} committed{[int(c) for c in view.committed]} "
                f"sizes{list(view.hand_sizes)} shown{[list(p) for p in view.played]}")

    def move_text(self, seat: int, action_id: int, viewer: int) -> str:
        if action_id >= _BUYS and seat != viewer:
            return f"{seat}:pick"  # RULES.md §2: picks stay secret until the reveal
        return f"{seat}:{action_id}"

    def resample(self, state: TwinsState, viewer: int, rng: random.Random) -> TwinsState:
        """Like ``TwinsGame.determinize``, and also: a committed pick of another seat is
        a random pair of its new hand, and the generator is reseeded, since the next
        hand's deal is as unknown as the cards in other hands."""
        other = state.clone()
        hidden = [seat for seat in range(state.players) if seat != viewer]
        pool = [card for seat in hidden for card in state.hands[seat]] + state.draw_pile
        rng.shuffle(pool)
        for seat in hidden:
            other.hands[seat] = sorted(pool.pop() for _ in state.hands[seat])
            if state.picks[seat] is not None:
                first, second = sorted(rng.sample(other.hands[seat], 2))
                other.picks[seat] = (first, second)
        other.draw_pile = pool
        other.rng = Rng(rng.getrandbits(64))
        return other

    def observation_pieces(self) -> list[tuple[str, int]]:
        n = self.players
        return [("player", n), ("hand", DECK_SIZE), ("my_pick", DECK_SIZE),
                ("shown", n * DECK_SIZE), ("chips", n), ("bank", 1), ("out", n),
                ("sitting_out", n), ("committed", n), ("bought", n), ("hand_sizes", n),
                ("dealer", n), ("buyer", n), ("round", 5), ("phase", 3), ("hand_no", 1)]

    def fill(self, pieces: dict[str, Tensor], view: TwinsView, player: int) -> None:
        pieces["player"][player] = 1
        for card in view.hand:
            pieces["hand"][card] = 1
        for card in view.my_pick or ():
            pieces["my_pick"][card] = 1
        for _, seat, first, second in view.played:
            pieces["shown"][seat * DECK_SIZE + first] = 1
            pieces["shown"][seat * DECK_SIZE + second] = 1
        pieces["chips"][:] = view.chips
        pieces["bank"][0] = view.bank
        pieces["out"][:] = view.out
        pieces["sitting_out"][:] = view.sitting_out
        pieces["committed"][:] = view.committed
        pieces["bought"][:] = view.bought
        pieces["hand_sizes"][:] = view.hand_sizes
        pieces["dealer"][view.dealer] = 1
        if view.buyer >= 0:
            pieces["buyer"][view.buyer] = 1
        pieces["round"][min(view.round_no, 4)] = 1
        pieces["phase"][(BUY, PICK, OVER).index(view.phase)] = 1
        pieces["hand_no"][0] = view.hand_no

    def view_text(self, view: TwinsView) -> str:
        return f"hand{list(view.hand)} pick{view.my_pick} {self.public_text(view)}"


TWINS_TYPE = game_type(TWINS_NAME, "Twin Table: Twins", TwinsGame.min_players,
                       TwinsGame.max_players, {"players": 3, "max_hands": 5, "seed": -1})


class TwinsOpenSpielGame(TwinTableGame):
    """Twins: parameters ``players`` (3-6), ``max_hands`` (the game ends after that many
    hands, or after a bankruptcy) and ``seed``."""

    def __init__(self, params: dict[str, Any] | None = None):
        values = {**TWINS_TYPE.parameter_specification, **(params or {})}
        players, hands = int(values["players"]), int(values["max_hands"])
        rules = TwinsRules({"max_hands": hands}, players)
        # Each hand: one buy per seat, then four rounds of at most one pick per seat.
        super().__init__(TWINS_TYPE, params, rules, hands * 5 * players,
                         int(values["seed"]))


pyspiel.register_game(TWINS_TYPE, TwinsOpenSpielGame)

__all__ = ["TWINS_NAME", "TWINS_TYPE", "TwinsOpenSpielGame", "TwinsRules"]
