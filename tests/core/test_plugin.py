"""The game plug-in's declaration (core/plugin.py): bot levels on one scale, one way to
plan a timed move, each shell's extension read from the game's keyword data."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from twintable.bots.base import RandomBot
from twintable.core.plugin import STEP_MS, BotLevel, GameEntry, default_plan
from twintable.core.types import Action
from twintable.games.timo import TimoGame

GAME = TimoGame()


class Planner:
    name = "planner"

    def plan(self, view: Any, rng: random.Random) -> tuple[int, Action]:
        return 4321, view.legal[0]

    def act(self, view: Any, rng: random.Random) -> Action | None:
        raise AssertionError("a bot that plans is asked for its plan")


def view() -> Any:
    state = GAME.new_state(None, 2, 3)
    return GAME.view(state, state.turn)


def test_a_bot_level_is_one_of_the_human_scale() -> None:
    assert BotLevel("smart", "hard", RandomBot).level == "hard"
    with pytest.raises(ValueError, match="not one of beginner, easy, medium, hard, expert"):
        BotLevel("smart", "genius", RandomBot)


def test_bot_names_are_unique_and_leave_random_to_every_game() -> None:
    with pytest.raises(ValueError):
        GameEntry(GAME, "twintable.games.timo", bots=(
            BotLevel("smart", "hard", RandomBot), BotLevel("quick", "easy", RandomBot,
                                                           aliases=("smart",))))
    with pytest.raises(ValueError):
        GameEntry(GAME, "twintable.games.timo", bots=(BotLevel("random", "easy", RandomBot),))


def test_a_bot_that_cannot_run_here_is_not_offered() -> None:
    entry = GameEntry(GAME, "twintable.games.timo", bots=(
        BotLevel("smart", "hard", RandomBot), BotLevel("words", "medium", RandomBot,
                                                       available=lambda: False)))
    assert [bot.name for bot in entry.available_bots()] == ["smart"]


def test_one_way_to_plan_a_timed_move() -> None:
    seen = view()
    rng = random.Random(1)
    plain = GameEntry(GAME, "twintable.games.timo")
    # A bot without a plan acts a step after now; a bot with one keeps its own time.
    moment, action = plain.plan(RandomBot(), seen, rng, 5000) or (None, None)
    assert moment == 5000 + STEP_MS and action in seen.legal
    assert plain.plan(Planner(), seen, rng, 5000) == (4321, seen.legal[0])
    assert default_plan(Planner(), seen, rng, 0) == (4321, seen.legal[0])

    def paced(bot: Any, view: Any, rng: random.Random, now: int) -> tuple[int, Action]:
        return now + 7, view.legal[-1]

    own = GameEntry(GAME, "twintable.games.timo", plan_move=paced)
    assert own.plan(Planner(), seen, rng, 100) == (107, seen.legal[-1])


@dataclass(frozen=True)
class Shelf:
    """A shell's record of a game, as a shell defines one in its own package."""

    SHELL: ClassVar[str] = "shelf"

    colour: str = "grey"
    height: int = 1


def test_a_shell_reads_its_own_record_from_the_games_keyword_data() -> None:
    declared = GameEntry(GAME, "twintable.games.timo",
                         extensions={"shelf": {"colour": "red"}, "other": {"x": 1}})
    assert declared.extension(Shelf) == Shelf(colour="red", height=1)
    # A game that declares nothing for a shell gets every field at its default.
    assert GameEntry(GAME, "twintable.games.timo").extension(Shelf) == Shelf()


def test_a_field_the_shells_record_lacks_is_named_with_the_game() -> None:
    misspelt = GameEntry(GAME, "twintable.games.timo", extensions={"shelf": {"color": "red"}})
    with pytest.raises(TypeError, match=r"timo: its 'shelf' extension does not fit Shelf"):
        misspelt.extension(Shelf)


def test_an_extension_is_keyword_data_not_a_record() -> None:
    """A game never imports a shell, so it cannot hand over the shell's record itself."""
    with pytest.raises(TypeError, match="must be keyword data"):
        GameEntry(GAME, "twintable.games.timo",
                  extensions={"shelf": Shelf()})  # type: ignore[dict-item]
