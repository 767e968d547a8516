"""What the research environments need of a game beyond the core contract: the game's
``"envs"`` extension (``core/plugin.py`` says how a game declares one).

A game registers it as keyword data under ``"envs"``; this shell reads it with
``entry.extension(EnvGame)``. This module imports nothing but the core, so the kit and
the command line read it without the ``[rl]`` extra.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar


@dataclass(frozen=True)
class EnvGame:
    """A game's environments, each named by a dotted module and imported when first used:

    - ``module``: its PettingZoo environment (``env``, ``raw_env``, ``observe_view``,
      ``view_action``), or None when it has none;
    - ``gym_id``: its Gymnasium id (``twintable/Timo-v0``), or None; it needs ``module``;
    - ``names``: the names its research modules are published under in
      ``twintable.envs`` (``{"timo_v0": "twintable.games.timo.env"}`` makes
      ``from twintable.envs import timo_v0`` import the game's module); empty for none;
    - ``openspiel``: a module that registers the game as an OpenSpiel game on import
      (``twintable.envs.openspiel`` imports every game's), or None;
    - ``trainer``: ``module:attr`` of a Typer command that trains an agent for the game,
      mounted as ``twintable train <id>``, or None.
    """

    SHELL: ClassVar[str] = "envs"

    module: str | None = None
    gym_id: str | None = None
    names: Mapping[str, str] = field(default_factory=dict, hash=False)
    openspiel: str | None = None
    trainer: str | None = None

    def __post_init__(self) -> None:
        if self.gym_id is not None and self.module is None:
            raise ValueError(f"a Gymnasium id ({self.gym_id}) without an environment")


__all__ = ["EnvGame"]
