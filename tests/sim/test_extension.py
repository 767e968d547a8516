"""The simulator's extension of a game (sim/extension.py): the engine simulations run on."""

from __future__ import annotations

from twintable.core.plugin import GameEntry
from twintable.games.timo import TimoGame
from twintable.sim.extension import SimGame, simulation_engine

GAME = TimoGame()


def test_simulations_run_on_the_fast_engine_when_there_is_one() -> None:
    class Faster(TimoGame):
        pass

    assert simulation_engine(GameEntry(GAME, "twintable.games.timo")) is GAME
    fast = GameEntry(GAME, "twintable.games.timo", extensions={"sim": {"simulator": Faster}})
    assert type(simulation_engine(fast)) is Faster
    assert fast.extension(SimGame).metrics == {}
