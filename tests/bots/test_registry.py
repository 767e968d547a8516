"""Bots named by level (bots/registry.py): the level names of the shared scale seat the
bot the lobby offers at that level, and every former name still seats its bot."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from twintable.bots.base import RandomBot
from twintable.bots.registry import (
    bot_factories,
    bot_factory,
    level_bots,
    level_of,
    resolve_bot,
    table_bot,
    unknown_bot_message,
)
from twintable.core.plugin import BotLevel, GameEntry
from twintable.core.registry import default_registry
from twintable.games.timo import TimoGame
from twintable.sim.runner import make_bots

ENTRY = GameEntry(TimoGame(), "twintable.games.timo", default_bot="steady", bots=(
    BotLevel("quick", "easy", RandomBot),
    BotLevel("steady", "medium", RandomBot, aliases=("old",)),
    BotLevel("medium", "medium", RandomBot),
    BotLevel("deep", "hard", RandomBot),
    BotLevel("deeper", "hard", RandomBot)))


def test_each_level_seats_one_bot_the_default_first() -> None:
    assert level_bots(ENTRY) == {"beginner": "random", "easy": "quick", "medium": "steady",
                                 "hard": "deep"}


def test_a_game_may_keep_the_random_bot_off_its_levels() -> None:
    kept_off = dataclasses.replace(ENTRY, random_is_a_level=False)
    assert level_bots(kept_off) == {"easy": "quick", "medium": "steady", "hard": "deep"}
    assert resolve_bot(kept_off, "random") == "random"  # still seated by its name
    assert resolve_bot(kept_off, "beginner") is None
    assert "no bot at level beginner" in unknown_bot_message(kept_off, ["beginner"])


@pytest.mark.parametrize(("name", "bot"), [
    ("hard", "deep"), ("Hard", "deep"), ("EASY", "quick"), ("deeper", "deeper"),
    # A former name seats the bot under its own name, the one its results carry.
    ("old", "steady"), ("random", "random"), ("beginner", "random"),
    # A bot named like a level is that bot, not the level's choice.
    ("medium", "medium"),
    ("expert", None), ("genius", None)])
def test_a_name_or_a_level_seats_a_bot(name: str, bot: str | None) -> None:
    assert resolve_bot(ENTRY, name) == bot


def test_the_level_of_what_a_name_seats() -> None:
    assert [level_of(ENTRY, name) for name in ("hard", "old", "random", "genius")] == [
        "hard", "medium", "beginner", None]


def test_an_unknown_bot_and_a_missing_level_are_told_apart_and_named_once() -> None:
    said = unknown_bot_message(ENTRY, ["genius", "genius", "expert"])
    assert said.count("genius") == 1
    assert "unknown bot genius" in said and "no bot at level expert" in said
    assert "beginner, easy, medium, hard" in said


def test_every_game_seats_bots_by_level_where_it_has_them() -> None:
    for entry in default_registry().entries():
        for level, bot in level_bots(entry).items():
            bots = make_bots(entry, [level, level.title()])
            assert [type(seated) for seated in bots] == [type(make_bots(entry, [bot])[0])] * 2
            assert level_of(entry, bot) == level


def test_make_bots_refuses_a_level_the_game_lacks() -> None:
    entry = default_registry().entry("twins")
    with pytest.raises(ValueError, match="no bot at level expert"):
        make_bots(entry, ["expert", "hard"])


def test_a_server_table_seats_bots_and_levels_with_noise_but_never_user_agents() -> None:
    timo = default_registry().entry("timo")
    assert table_bot(timo, "heuristic") == "heuristic"
    assert table_bot(timo, "Medium") == "heuristic"
    assert table_bot(timo, "medium@0.2") == "heuristic@0.2"
    assert table_bot(timo, "greedy@0") == "greedy"  # no noise is the bot itself
    for agent in ("agent.zip", "policy.npz", "os:system", "agent.zip@0.2", "hard"):
        assert table_bot(timo, agent) is None, agent  # Timo has no Hard level
    with pytest.raises(ValueError, match="noise"):
        table_bot(timo, "medium@1.5")


def test_noise_keeps_a_learning_bots_records() -> None:
    """A table hands the word bots the rounds people played (``records``); through a noise
    too: the noisy factory shows the inner one's signature."""
    twinz = default_registry().entry("twinz")
    learner = next(name for name, factory in bot_factories(twinz).items()
                   if "records" in inspect.signature(factory).parameters)
    assert "records" in inspect.signature(bot_factory(twinz, f"{learner}@0.3")).parameters
