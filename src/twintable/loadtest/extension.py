"""What the load harness needs of a game beyond the core contract: the game's
``"loadtest"`` extension (``core/plugin.py`` says how a game declares one).

A game registers it as keyword data under ``"loadtest"``; the harness reads it with
``entry.extension(LoadGame)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class LoadGame:
    """How a scripted person plays the game over the protocol:

    - ``chooser``: ``module:attr`` of the move chooser, ``(view, rng) -> ClientMove |
      None`` over the protocol's JSON view (``twintable.loadtest.clients.Chooser``), or
      None: any legal move, at once.
    """

    SHELL: ClassVar[str] = "loadtest"

    chooser: str | None = None


__all__ = ["LoadGame"]
