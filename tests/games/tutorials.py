"""What every game's guided first game must hold, shared by the games' own tutorial
tests: played through by a person following the hints, every step is reached in order,
and every hint has its sentence in every language of the game's catalogues."""

from __future__ import annotations

import json
from importlib import resources

from twintable.core.plugin import GameEntry
from twintable.core.registry import default_registry
from twintable.core.tutorial import Tutorial
from twintable.sim.tutorial import Walkthrough, walk

LANGUAGES = ("en", "fr", "ko", "nl")


def guided(game: str) -> tuple[GameEntry, Tutorial]:
    entry = default_registry().entry(game)
    assert entry.tutorial is not None, f"{game} declares no guided game"
    return entry, entry.tutorial()


def walked_through(game: str, again: bool = True) -> Walkthrough:
    """The walkthrough, checked to reach every step; ``again``: and to be the same when
    walked again (the same deal and bots: the same lesson), where that is cheap."""
    entry, tutorial = guided(game)
    done = walk(entry)
    assert done.reached == tuple(step.id for step in tutorial.steps)
    assert done.early == (), "the deal asks for these moves before their hints"
    if again:
        assert walk(entry) == done
    return done


def check_sentences(game: str) -> None:
    """Every hint's text and the guide's name, in every language."""
    entry, tutorial = guided(game)
    folder = resources.files(entry.package).joinpath("web", "i18n")
    for language in LANGUAGES:
        catalogue = json.loads(folder.joinpath(f"{language}.json").read_text("utf-8"))
        for key in (*(step.text for step in tutorial.steps), f"bot.{tutorial.bot.name}"):
            assert catalogue.get(key, "").strip(), f"{game}: {key} missing in {language}"
