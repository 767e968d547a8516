"""Named slices of a flat observation vector, so each encoder declares its layout once
and the docs, the bounds of the Box and the code that fills it cannot disagree."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from gymnasium import spaces


class Field(NamedTuple):
    """One slice of an observation: its name, length, largest value and meaning."""

    name: str
    size: int
    high: float
    meaning: str


class Layout:
    """Fields laid end to end in a float32 vector whose smallest value is 0."""

    def __init__(self, fields: Sequence[Field]):
        self.fields = tuple(fields)
        self.slices: dict[str, slice] = {}
        start = 0
        for field in self.fields:
            if field.name in self.slices:
                raise ValueError(f"field {field.name!r} appears twice")
            self.slices[field.name] = slice(start, start + field.size)
            start += field.size
        self.size = start
        self.high = np.zeros(self.size, dtype=np.float32)
        for field in self.fields:
            self.high[self.slices[field.name]] = field.high

    def box(self) -> spaces.Box:
        return spaces.Box(np.zeros(self.size, dtype=np.float32), self.high.copy(),
                          dtype=np.float32)

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.float32)

    def table(self) -> str:
        """The layout as a Markdown table (docs/envs.md copies it)."""
        rows = ["| slice | field | values | meaning |", "|---|---|---|---|"]
        for field in self.fields:
            where = self.slices[field.name]
            span = (f"{where.start}" if field.size == 1
                    else f"{where.start}–{where.stop - 1}")
            rows.append(f"| {span} | `{field.name}` | 0–{field.high:g} | {field.meaning} |")
        return "\n".join(rows)
