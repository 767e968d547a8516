"""Copying a game state kept in ``__slots__``: the one ``clone`` (and ``adopt``) every
game's mutable state inherits from :class:`SlotState`.

A state's lists and dicts are its own, so a clone copies them (lists of lists one level
deeper, as hands are), and its :class:`~twintable.core.rng.Rng` too; everything else
(numbers, strings, tuples, the options) is immutable and shared. A state may say how
each field is copied (:attr:`SlotState.COPIES`); a field it says nothing of is copied by
its value's type when cloned, as above.

Each class's ``clone`` is compiled once, when the class is made, into one function that
assigns field after field (as ``dataclasses`` writes ``__init__``): a state that names
every field's copy clones as fast as a clone written by hand, which a search needs (it
clones Timo's state for every sampled world: a copy deciding by type at every call is 3
times slower on it, ``bench/state_clone.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Self

from twintable.core.rng import Rng

#: How :meth:`SlotState.clone` copies one field: ``"share"`` (immutable, or never
#: changed in place), ``"list"`` (a shallow copy), ``"lists"`` (a list of lists, each
#: copied), ``"lists2"`` (a list of lists of lists), ``"dict"``, ``"clone"`` (the value's
#: own ``clone()``: an :class:`Rng`), ``"reset"`` (None in the copy: a cache), or a
#: function of the value returning its copy.
Copy = str | Callable[[Any], Any]

_EXPRESSIONS = {
    "share": "s.{0}",
    "list": "s.{0}[:]",
    "lists": "[x[:] for x in s.{0}]",
    "lists2": "[[y[:] for y in x] for x in s.{0}]",
    "dict": "dict(s.{0})",
    "clone": "s.{0}.clone()",
    "reset": "None",
    "by_type": "_by_type(s.{0})",
}


def _by_type(value: Any) -> Any:
    """A copy of one field decided by its value's type (a field with no declared copy)."""
    kind = type(value)
    if kind is list:
        return [item[:] for item in value] if value and type(value[0]) is list else value[:]
    if kind is dict:
        return dict(value)
    if kind is Rng:
        return value.clone()
    return value


def _slots(cls: type) -> list[str]:
    """Every field of ``cls`` and its bases kept in ``__slots__``, in order."""
    names: list[str] = []
    for base in reversed(cls.__mro__):
        for name in base.__dict__.get("__slots__", ()):
            if name not in names:
                names.append(name)
    return names


def _compile_clone(cls: type, copies: Mapping[str, Copy]) -> Callable[[Any], Any]:
    names = _slots(cls)
    unknown = sorted(set(copies) - set(names))
    if unknown:
        raise TypeError(f"{cls.__name__}.COPIES names no field {', '.join(unknown)}")
    namespace: dict[str, Any] = {"_cls": cls, "_new": object.__new__, "_by_type": _by_type}
    lines = ["def clone(s):", "    o = _new(_cls)"]
    for name in names:
        copy = copies.get(name, "by_type")
        if callable(copy):
            namespace[f"_copy_{name}"] = copy
            expression = f"_copy_{name}(s.{name})"
        elif copy in _EXPRESSIONS:
            expression = _EXPRESSIONS[copy].format(name)
        else:
            raise TypeError(f"{cls.__name__}.COPIES[{name!r}]: {copy!r} is not a copy "
                            f"({', '.join(sorted(_EXPRESSIONS))} or a function)")
        lines.append(f"    o.{name} = {expression}")
    lines.append("    return o")
    exec("\n".join(lines), namespace)  # code built from the class's own field names
    clone: Callable[[Any], Any] = namespace["clone"]
    clone.__qualname__ = f"{cls.__qualname__}.clone"
    clone.__doc__ = "A copy that shares nothing a move could change."
    return clone


class SlotState:
    """Base of a mutable game state whose fields are in ``__slots__``: :meth:`clone`
    copies it so that the copy shares nothing a move could change, :meth:`adopt` takes
    over another's contents. A subclass may list how fields are copied in ``COPIES``
    (:data:`Copy`; the rest by their values' types)."""

    __slots__ = ()

    #: Field -> how :meth:`clone` copies it.
    COPIES: ClassVar[Mapping[str, Copy]] = {}
    #: Every field, bases' first (set for each subclass).
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.FIELDS = tuple(_slots(cls))
        cls.clone = _compile_clone(cls, cls.COPIES)  # type: ignore[method-assign,assignment]

    def clone(self) -> Self:
        """A copy that shares nothing a move could change (compiled for each subclass)."""
        raise NotImplementedError  # replaced in every subclass by __init_subclass__

    def adopt(self, other: Self) -> None:
        """Take over ``other``'s contents (a clone on which an action succeeded)."""
        for name in self.FIELDS:
            setattr(self, name, getattr(other, name))


__all__ = ["Copy", "SlotState"]
