"""The error every environment raises for an action its mask forbids."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action index whose mask bit is 0 (or no index at all where one is needed).

    The environment is left exactly as it was: an illegal action is refused, never
    replaced by a legal one.
    """
