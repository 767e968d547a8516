"""Types of the C engine of Timo's Twist (_native.c); fast.py is its Python face."""

from collections.abc import Callable
from typing import Any

from twintable.core.types import Action, Event
from twintable.games.timo.cards import Deck
from twintable.games.timo.views import TimoView

CODE_DRAW: int
CODE_PASS: int
CODE_CALL: int
CODE_CATCH: int
CODE_COUNT: int
MAX_CARDS: int
MAX_PLAYERS: int

class Engine:
    players: int
    turn: int
    exposed: int
    round_winner: int
    version: int
    turn_count: int
    round_no: int
    over: bool
    scores: tuple[int, ...]
    deck: Deck
    options: dict[str, Any]
    def __init__(self, colours: bytes, ranks: bytes, points: bytes, players: int, seed: int,
                 stacking: bool, draw_when_able: bool, target: int, deck: Deck,
                 options: dict[str, Any], view_type: type[TimoView],
                 actions: list[list[Action | None]],
                 make_action: Callable[[int, int], Action],
                 judge: Callable[[Engine, Action], list[Event]]) -> None: ...
    def legal(self, seat: int, /) -> list[int]: ...
    def apply(self, seat: int, code: int, /) -> None: ...
    def apply_action(self, action: Action, /) -> bool: ...
    def view(self, viewer: int | None, /) -> TimoView: ...
    def state(self) -> dict[str, Any]: ...
    def load(self, state: dict[str, Any], /) -> None: ...
    def clone(self) -> Engine: ...
    def greedy_round(self, random_words: tuple[int, ...], /) -> tuple[int, ...]: ...

def to_act(state: Engine, /) -> frozenset[int]: ...
def is_over(state: Engine, /) -> bool: ...
def legal_actions(state: Engine, seat: int, /) -> list[Action]: ...
def view(state: Engine, viewer: int | None, /) -> TimoView: ...
def apply(state: Engine, action: Action, /) -> list[Event]: ...
