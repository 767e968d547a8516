"""Types of Twin It's C engine (_native.c); env.py is its Python face."""

from typing import Any

N_ACTIONS: int
OBSERVATION_SIZE: int
PLACES: int

class Engine:
    next_seat: int
    scores: tuple[int, ...]
    scores_before: tuple[int, ...]
    winners: tuple[int, ...]
    over: bool
    truncated: bool
    now: int
    tick: int
    box: list[int]
    ready: bool
    def __init__(self, players: int, mode: int, side_of: list[int], ko: bool,
                 sets_to_win: int, hold_ms: int, triple_timeout_ms: int, finish_window_ms: int,
                 duration_ms: int, rounds: int, dt: int, max_ticks: int,
                 faces: bytes) -> None: ...
    def load(self, piles: list[list[int]], taboo: list[list[int]], box: list[int],
             up: list[int]) -> None: ...
    def step(self, seat: int, index: int, cards: list[int] = ..., up: list[int] = ...) -> int: ...
    def encode(self, seat: int, observation: Any, mask: Any) -> None: ...
    def fields(self) -> dict[str, Any]: ...
