"""Copying a game state kept in ``__slots__``: one ``clone`` for states that need no
faster one.

A state's lists and dicts are its own, so a clone copies them (lists of lists one level
deeper, as hands are), and its :class:`~twintable.core.rng.Rng` too; everything else
(numbers, strings, tuples, the options) is immutable and shared. Timo's, Twins' and Twin
It's states keep clones written field by field: a search clones Timo's state for every
sampled world, and this generic copy of it measured 3.3 times slower (16.9 µs against
5.1 µs, ``timeit`` on a 4-player state); Twin It's holds objects of its own.
"""

from __future__ import annotations

from typing import Any, TypeVar

from twintable.core.rng import Rng

T = TypeVar("T")


def _copy(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        return [item[:] for item in value] if value and type(value[0]) is list else value[:]
    if kind is dict:
        return dict(value)
    if kind is Rng:
        return value.clone()
    return value


def clone_slots(state: T) -> T:
    """A copy of ``state`` (an object whose class lists its fields in ``__slots__``) that
    shares nothing it could change."""
    cls = type(state)
    other = cls.__new__(cls)
    for name in cls.__slots__:  # type: ignore[attr-defined]
        setattr(other, name, _copy(getattr(state, name)))
    return other


__all__ = ["clone_slots"]
