"""Types of Twins' C engine (_native.c); env.py is its Python face."""

from typing import Any

N_ACTIONS: int
OBSERVATION_SIZE: int

class Engine:
    next_seat: int
    chips: tuple[int, ...]
    over: bool
    version: int
    def __init__(self, players: int, starting_chips: int, deal: int, max_hands: int,
                 cash: tuple[int, int, int, int, int, int], ranks: bytes) -> None: ...
    def reset(self, seed: int) -> None: ...
    def apply_index(self, seat: int, index: int) -> bool: ...
    def encode(self, seat: int, observation: Any, mask: Any) -> None: ...
    def fields(self) -> dict[str, Any]: ...
