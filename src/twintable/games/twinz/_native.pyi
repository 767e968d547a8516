"""Types of Twinz's C engine (_native.c); env.py is its Python face."""

from typing import Any

WORD_BASE: int
MAX_USED: int
OBSERVATION_SIZE: int

def nonzero(mask: Any, out: Any) -> int: ...

class Engine:
    next_seat: int
    points: tuple[int, ...]
    cards: tuple[int, ...]
    phase: int
    duo: tuple[int, int]
    now_ms: int
    tick: int
    def __init__(self, players: int, pile_size: int, dt: int, max_ticks: int,
                 options: tuple[int, int, int, int, int, int, int], n_words: int,
                 backs: bytes, card_words: bytes, matches: bytes, starts: bytes,
                 refused: bytes) -> None: ...
    def reset(self, seed: int) -> None: ...
    def step(self, seat: int, index: int) -> int: ...  # flags + 8 * next seat, or -1
    def legal(self, seat: int, index: int) -> bool: ...
    def encode(self, seat: int, observation: Any, mask: Any) -> None: ...
    def log(self, start: int) -> list[tuple[int, int, int]]: ...
    def fields(self) -> dict[str, Any]: ...
