"""What the command line needs of a game beyond the core contract: the game's
``"terminal"`` extension (``core/plugin.py`` says how a game declares one).

A game registers it as keyword data under ``"terminal"``; ``twintable play`` and the
command line read it with ``entry.extension(TerminalGame)``. It sits here, in the
terminal shell, rather than in ``cli``, so the kit (which the command line runs) can
read it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

#: What a terminal game's module must hold.
TERMINAL_NAMES = ("Terminal", "INTRO", "render", "describe_action", "describe_event")


@dataclass(frozen=True)
class TerminalGame:
    """The game at the command line, each None when it has none:

    - ``module``: dotted module of its terminal game (:data:`TERMINAL_NAMES`), played by
      ``twintable play``; None when it is played in a browser only;
    - ``commands``: ``module:attr`` of a Typer app of the game's own tools, mounted as
      ``twintable <id> ...``.
    """

    SHELL: ClassVar[str] = "terminal"

    module: str | None = None
    commands: str | None = None


__all__ = ["TERMINAL_NAMES", "TerminalGame"]
