"""What the simulator needs of a game beyond the core contract: the game's ``"sim"``
extension (``core/plugin.py`` says how a game declares one).

A game registers it as keyword data under ``"sim"``; the simulator and ``twintable sim``
read it with ``entry.extension(SimGame)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from twintable.core.game import Game
from twintable.core.plugin import DeckFormat, GameEntry


@dataclass(frozen=True)
class SimGame:
    """How simulations play and measure a game:

    - ``simulator``: a factory of a faster engine with the same games seed for seed and
      move for move (Timo's C engine), or None: simulations then run the rules themselves;
    - ``deck_format``: how the game reads a designer's deck or scoring table from a file
      (:class:`~twintable.core.plugin.DeckFormat`: ``twintable sim GAME --deck FILE``),
      or None when it has none;
    - ``metrics``: named metrics of the game (``--metric NAME``), each an expression over
      a game's figures (``sim/metrics.py`` says what it may read).
    """

    SHELL: ClassVar[str] = "sim"

    simulator: Callable[[], Game[Any]] | None = None
    deck_format: DeckFormat | None = None
    metrics: Mapping[str, str] = field(default_factory=dict, hash=False)


def simulation_engine(entry: GameEntry) -> Game[Any]:
    """The engine simulations play ``entry``'s game on: the fast one, else the rules."""
    simulator = entry.extension(SimGame).simulator
    return simulator() if simulator is not None else entry.rules


__all__ = ["SimGame", "simulation_engine"]
