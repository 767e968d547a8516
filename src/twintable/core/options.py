"""Table options: each game declares its house rules as data, with defaults and checks.

An unknown option or a bad value raises :class:`OptionError` with a stable code, so a
house rule is a setting and never a fork of the code.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from twintable.core.errors import OptionError

_KINDS = ("bool", "int", "choice", "int_list")
#: The units an option's numbers may be in (a client shows seconds for ``ms``).
UNITS = ("ms", "s", "points", "cards", "chips", "hands")


@dataclass(frozen=True, slots=True)
class Option:
    """One named option: its kind, default, allowed values and a one-line meaning."""

    name: str
    kind: str
    default: Any
    description: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] = ()
    """A ``choice``'s values; for an ``int_list``, the words it takes besides a list
    (``teams``: "alternate")."""
    max_items: int = 10
    """The longest an ``int_list`` may be (they name seats: ten at most)."""
    modes: tuple[str, ...] = ()
    """The values of the game's ``mode`` option this one applies to (empty: every mode),
    so a client shows only the options that matter for the chosen mode."""
    unit: str | None = None
    """What the numbers count (one of :data:`UNITS`: "ms", "s", "points", "cards", "chips",
    "hands"), so a client shows it in the unit people read (seconds for "ms"); None: a
    plain number."""
    names_seats: bool = False
    """The values are seat numbers (counted from 0; people count from 1)."""

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"unknown option kind {self.kind!r}")
        if self.unit is not None and self.unit not in UNITS:
            raise ValueError(f"option {self.name!r}: unknown unit {self.unit!r}")
        if self.names_seats and self.kind not in ("int", "int_list"):
            raise ValueError(f"option {self.name!r}: only numbers name seats")

    def validate(self, value: Any) -> Any:
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise self._bad(value, "expected true or false")
            return value
        if self.kind == "int":
            if value is None and self.default is None:
                return None
            if isinstance(value, bool) or not isinstance(value, int):
                raise self._bad(value, "expected an integer")
            self._check_range(value)
            return value
        if self.kind == "int_list":
            if isinstance(value, str) and value in self.choices:
                return value
            if not isinstance(value, list | tuple) or any(
                isinstance(v, bool) or not isinstance(v, int) for v in value
            ):
                words = "".join(f" or {word!r}" for word in self.choices)
                raise self._bad(value, f"expected a list of integers{words}")
            if len(value) > self.max_items:
                raise self._bad(f"{len(value)} items", f"at most {self.max_items} items")
            for item in value:
                self._check_range(item)
            return tuple(value)
        if value not in self.choices:
            raise self._bad(value, f"expected one of {', '.join(map(str, self.choices))}")
        return value

    def _check_range(self, value: int) -> None:
        if self.minimum is not None and value < self.minimum:
            raise self._bad(value, f"must be at least {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise self._bad(value, f"must be at most {self.maximum}")

    def _bad(self, value: Any, why: str) -> OptionError:
        return OptionError("option.invalid", f"option {self.name!r}: {why}",
                           {"option": self.name, "value": repr(value)})

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "kind": self.kind,
                                "default": self.default, "description": self.description}
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        if self.choices:
            data["choices"] = list(self.choices)
        if self.kind == "int_list":
            data["max_items"] = self.max_items
        if self.modes:
            data["modes"] = list(self.modes)
        data["unit"] = self.unit
        data["names_seats"] = self.names_seats
        return data

    def range_text(self) -> str:
        """The values it takes, in words: "1 to 20 cards", "true or false", "a, b or c"."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            names = [str(choice) for choice in self.choices]
            return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
        low = "" if self.minimum is None else str(self.minimum)
        high = "" if self.maximum is None else str(self.maximum)
        span = (f"{low} to {high}" if low and high else f"at least {low}" if low
                else f"at most {high}" if high else "any integer")
        if self.kind == "int_list":
            span = f"up to {self.max_items} of {span}"
            if self.choices:
                span += "".join(f", or {word}" for word in self.choices)
        return f"{span} {self.unit or ''}".rstrip()


class OptionSchema:
    """The ordered set of a game's options, and its design options: settings a designer's
    file gives (``--deck``: a scoring table), checked like any option but offered to no
    client (no lobby field, no catalogue entry) and present in resolved options only when
    set, so that tables that never set them read exactly as before."""

    def __init__(self, options: Iterable[Option], design: Iterable[Option] = ()):
        self.options: dict[str, Option] = {option.name: option for option in options}
        self.design: dict[str, Option] = {option.name: option for option in design}

    def defaults(self) -> dict[str, Any]:
        return {name: option.default for name, option in self.options.items()}

    def resolve(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with ``raw``, every value checked."""
        resolved = self.defaults()
        for name, value in (raw or {}).items():
            option = self.options.get(name) or self.design.get(name)
            if option is None:
                raise OptionError("option.unknown", f"unknown option {name!r}",
                                  {"option": name, "known": sorted(self.options)})
            if name in self.design and value is None:
                resolved.pop(name, None)
                continue
            resolved[name] = option.validate(value)
        return resolved

    def to_json(self) -> list[dict[str, Any]]:
        return [option.to_json() for option in self.options.values()]


def option_value(text: str) -> Any:
    """An option's value as a person writes it on a command line: JSON when it reads as
    JSON (numbers, true, lists), else the text itself (``red``). The one reading of a
    written value: ``--option`` pairs and ``--grid`` values alike."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, Any]:
    """Options written ``key=value`` on a command line (``--option target=80``), each value
    read by :func:`option_value`. A pair without a key or an ``=`` raises ValueError
    naming it; the game's schema checks the values later."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"options are key=value, got {pair!r}")
        options[key] = option_value(raw)
    return options
