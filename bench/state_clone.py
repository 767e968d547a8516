"""Benchmark: the one state clone every game inherits (``core/slots.py: SlotState``).

Each class's ``clone`` is compiled once from the copies the state declares (``COPIES``).
This measures it, on a fresh 4-player state of every installed game, against a copy that
decides each field's copy by its value's type at every call (what a generic clone does
without compiling: ``getattr``/``setattr`` over the fields), and prints µs per clone and
the ratio, both measured in this run. Run with the games installed:
``python bench/state_clone.py``.
"""

from __future__ import annotations

import timeit
from typing import Any

from twintable.core.registry import default_registry
from twintable.core.rng import Rng

REPEATS, NUMBER = 5, 20_000


def by_type(state: Any) -> Any:
    """A clone that decides each field's copy at every call (the baseline)."""
    cls = type(state)
    other = cls.__new__(cls)
    for name in cls.FIELDS:
        value = getattr(state, name)
        kind = type(value)
        if kind is list:
            value = ([item[:] for item in value] if value and type(value[0]) is list
                     else value[:])
        elif kind is dict:
            value = dict(value)
        elif kind is Rng:
            value = value.clone()
        setattr(other, name, value)
    return other


def micros(call: Any) -> float:
    return min(timeit.repeat(call, number=NUMBER, repeat=REPEATS)) / NUMBER * 1e6


def main() -> None:
    print(f"{'game':<10} {'compiled µs':>12} {'by type µs':>11} {'ratio':>6}  fields declared")
    for entry in default_registry().entries():
        game = entry.rules
        state = game.new_state(None, min(max(4, game.min_players), game.max_players), 1)
        compiled, generic = micros(state.clone), micros(lambda state=state: by_type(state))
        declared = f"{len(type(state).COPIES)}/{len(type(state).FIELDS)}"
        print(f"{entry.id:<10} {compiled:12.2f} {generic:11.2f} {generic / compiled:5.1f}x  "
              f"{declared}")


if __name__ == "__main__":
    main()
