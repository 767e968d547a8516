"""Errors with stable codes, so clients can translate them and tests can name them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class TwinTableError(Exception):
    """Base of every error the kernel raises on purpose."""

    def __init__(self, code: str, message: str, details: Mapping[str, Any] | None = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details: dict[str, Any] = dict(details or {})

    def __reduce__(self) -> tuple[Any, ...]:
        # The default pickles only ``args`` (the joined text), which this __init__ cannot
        # take back: an error raised in a worker process would be lost on its way home.
        return (self.__class__, (self.code, self.message, self.details))

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}


def in_words(error: BaseException) -> str:
    """What went wrong, as people read it: a :class:`TwinTableError`'s message without its
    code (the code is for clients and logs), any other error's text."""
    return error.message if isinstance(error, TwinTableError) else str(error)


class RuleError(TwinTableError):
    """An action the rules refuse. The state is left exactly as it was."""


class OptionError(TwinTableError):
    """A table option that is unknown or has a bad value."""
