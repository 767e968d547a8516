"""Seeded randomness that lives in the game state as two integers.

Each use of chance derives a fresh generator from (seed, counter) and bumps the
counter, so a state copies, compares and serialises as plain numbers, and the same seed
and actions give the same draws in any process (no ``hash()``, no global ``random``).
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import Any


class Rng:
    __slots__ = ("counter", "seed")

    def __init__(self, seed: int, counter: int = 0):
        self.seed = seed
        self.counter = counter

    def stream(self) -> random.Random:
        """A generator for one use of chance; the next call gives an independent one."""
        self.counter += 1
        return random.Random((self.seed << 32) ^ self.counter)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self.stream().shuffle(items)

    def randrange(self, stop: int) -> int:
        return self.stream().randrange(stop)

    def clone(self) -> Rng:
        return Rng(self.seed, self.counter)

    def to_json(self) -> dict[str, int]:
        return {"seed": self.seed, "counter": self.counter}
