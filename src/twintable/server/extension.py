"""What the game server needs of a game beyond the core contract: the game's ``"server"``
extension (``core/plugin.py`` says how a game declares one).

A game registers it as keyword data under ``"server"``; the server reads it with
``entry.extension(ServerGame)``. A game never imports this module (nor any of the
server's): the server builds the record from the game's data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from twintable.core.game import Outcome


@dataclass(frozen=True)
class ServerGame:
    """What a table and the game's HTTP routes need, each None when the game has none:

    - ``rematch_options``: old options and the outcome -> the options of a rematch (Twin
      It's taboo for the last winner); None: a rematch keeps the options;
    - ``round_records``: what a finished game teaches bots that learn from people (the
      final state -> records); only then does the server replay finished games at start
      to collect them;
    - ``assets``: JSON a client needs to draw the game beyond its views (pictures),
      served at ``/api/games/<id>/assets``.
    """

    SHELL: ClassVar[str] = "server"

    rematch_options: Callable[[Mapping[str, Any], Outcome], dict[str, Any]] | None = None
    round_records: Callable[[Any], list[dict[str, Any]]] | None = None
    assets: Callable[[], dict[str, Any]] | None = None


__all__ = ["ServerGame"]
