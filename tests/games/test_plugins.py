"""Every game is found through the ``twintable.games`` entry points, the built-in ones
too (core/registry.py, games/<id>/plugin.py); that what an entry names exists is the
kit's ``entry`` check, run on every installed game (tests/kit)."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import EntryPoint, entry_points

import pytest

from twintable.bots.registry import bot_factories, bot_levels
from twintable.core.plugin import ENTRY_POINT_GROUP, LEVELS, GameEntry
from twintable.core.registry import default_registry, game_ids, load_entry
from twintable.games.timo.plugin import entry as timo_entry

REGISTRY = default_registry()
ENTRIES = REGISTRY.entries()


def named_twins() -> GameEntry:
    """An entry point named ``chess`` that declares Twins."""
    from twintable.games.twins.plugin import entry

    return entry()


def not_an_entry() -> object:
    return TimoGameLookalike()


class TimoGameLookalike:
    id = "lookalike"


def test_the_built_in_games_are_found_through_their_entry_points() -> None:
    declared = {point.name for point in entry_points(group=ENTRY_POINT_GROUP)}
    assert {"timo", "twins", "twinit", "twinz"} <= declared
    assert sorted(declared) == game_ids() == REGISTRY.ids()
    # The lobby lists them in the order it always has.
    assert [entry.id for entry in ENTRIES][:4] == ["timo", "twins", "twinit", "twinz"]


def test_an_entry_point_must_be_named_after_its_game_and_give_an_entry() -> None:
    wrong_name = EntryPoint("chess", f"{__name__}:named_twins", ENTRY_POINT_GROUP)
    with pytest.raises(ValueError, match="declares the game 'twins'"):
        load_entry(wrong_name)
    wrong_type = EntryPoint("lookalike", f"{__name__}:not_an_entry", ENTRY_POINT_GROUP)
    with pytest.raises(TypeError, match="not a GameEntry"):
        load_entry(wrong_type)
    assert load_entry(EntryPoint("timo", "twintable.games.timo.plugin:entry",
                                 ENTRY_POINT_GROUP)).rules.name == timo_entry().rules.name


def test_finding_the_games_imports_no_bot_engine_or_front_end() -> None:
    """Entries are light: bots, fast engines, terminals and environments load when first
    asked for."""
    code = ("import sys\nfrom twintable.core.registry import default_registry\ndefault_registry()\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('twintable'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.split()
    heavy = [module for module in loaded
             if module.rpartition(".")[2] in ("bots", "fast", "terminal", "commands", "words")
             or module.startswith(("twintable.envs", "twintable.server"))]
    assert heavy == [] and "twintable.games.timo.plugin" in loaded


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.id)
def test_every_bot_has_a_level_and_random_is_a_beginner(entry: GameEntry) -> None:
    levels = bot_levels(entry)
    assert levels[0].name == "random" and levels[0].level == "beginner"
    assert all(bot.level in LEVELS for bot in levels)
    # ... and the guided game's bot, seatable by name but never offered as a level.
    guide = entry.tutorial().bot if entry.tutorial is not None else None
    guides = {guide.name} if guide is not None and guide.available() else set()
    assert set(bot_factories(entry)) == {name for bot in levels
                                         for name in (bot.name, *bot.aliases)} | guides
    assert not guides & {bot.name for bot in levels}
    assert entry.default_bot in {bot.name for bot in entry.bots}
