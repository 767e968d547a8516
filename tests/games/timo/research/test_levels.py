"""The research bots as bot levels of Timo's Twist: the vector engine's greedy policy, the
shipped learned policy and OpenSpiel's IS-MCTS play whole games in the simulator, replay
from a seed, and the learned one needs NumPy but no Gymnasium."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import numpy.typing as npt
import pytest

from tests.games.timo.native import require_native
from twintable.bots.registry import bot_factories, level_bots
from twintable.core.registry import default_registry
from twintable.games.timo.research import codec
from twintable.games.timo.views import TimoView
from twintable.sim.runner import GameResult, run_games


def games(bots: tuple[str, ...], count: int, seed: int, target: int) -> list[GameResult]:
    return [result for chunk in run_games("timo", {"target": target}, bots, count, seed,
                                          workers=1) for result in chunk]


def test_one_bot_a_level_and_the_research_bots_by_name() -> None:
    entry = default_registry().entry("timo")
    assert level_bots(entry) == {"beginner": "random", "easy": "greedy",
                                 "medium": "heuristic", "expert": "search"}
    # As strong as the level they would share (bench/levels.py): seated by name only.
    assert {bot.name for bot in entry.available_bots() if not bot.offered} == {
        "ismcts", "learned"}
    assert {"greedy", "ismcts", "learned"} <= set(bot_factories(entry))


def test_the_learned_bot_beats_random_and_replays() -> None:
    first = games(("learned", "random"), 6, seed=5, target=100)
    assert first == games(("learned", "random"), 6, seed=5, target=100)
    wins = sum(result.bots[min(result.winners)] == "learned" for result in first)
    assert wins >= 5, [(r.bots, r.scores) for r in first]


def test_the_greedy_bot_plays_whole_games_at_every_table_size() -> None:
    for bots in (("greedy", "heuristic"), ("greedy", "random", "greedy", "search")):
        played = games(bots, 2, seed=1, target=60)
        assert all(max(result.scores) >= 60 for result in played)


def test_the_ismcts_bot_plays_legal_moves_and_replays() -> None:
    pytest.importorskip("pyspiel")
    require_native()
    first = games(("ismcts", "random"), 2, seed=2, target=20)
    assert first == games(("ismcts", "random"), 2, seed=2, target=20)
    assert all(max(result.scores) >= 20 for result in first)


def test_the_learned_bot_needs_no_gymnasium() -> None:
    # Gymnasium and PettingZoo made unimportable: the bot still loads and moves.
    script = """
import random, sys
sys.modules["gymnasium"] = None
sys.modules["pettingzoo"] = None
from twintable.games.timo.research.policy import LearnedTimoBot
from twintable.games.timo.rules import TimoGame
game = TimoGame()
state = game.new_state({}, 2, 4)
view = game.view(state, state.turn)
move = LearnedTimoBot().act(view, random.Random(0))
assert move in view.legal, move
print("moved")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and "moved" in done.stdout, done.stderr


def test_the_learned_bot_sits_at_larger_tables_seeing_the_next_player() -> None:
    from twintable.games.timo.research.policy import LearnedTimoBot
    from twintable.games.timo.rules import TimoGame

    bot = LearnedTimoBot()
    assert bot.players == 2
    game = TimoGame()
    state = game.new_state({}, 4, 9)
    view = game.view(state, state.turn)
    squeezed = bot._as_trained(_encoded(view), view)
    assert squeezed.shape == (171 + 4 * 2,)
    following = (state.turn + view.direction) % 4
    assert squeezed[171:173].tolist() == [len(view.hand), view.hand_sizes[following]]
    assert squeezed[175:177].tolist() == [1, 0]  # its own turn
    played = games(("learned", "heuristic", "learned", "heuristic"), 2, seed=1, target=60)
    assert all(max(result.scores) >= 60 for result in played)


def _encoded(view: TimoView) -> npt.NDArray[np.float32]:
    observation = np.zeros(codec.observation_size(view.players), np.float32)
    codec.encode(view, False, observation, np.zeros(codec.N_ACTIONS, np.int8))
    return observation
