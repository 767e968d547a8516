"""The refusals of the lobby: what a request about tables or profiles gets instead."""

from __future__ import annotations


class LobbyError(Exception):
    """A refused lobby request, with a stable code and an HTTP status."""

    def __init__(self, status: int, code: str, message: str,
                 retry_after_s: int | None = None):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.retry_after_s = retry_after_s
        """When a refusal passes by itself: sent as ``Retry-After``."""
