"""The terminal reads the browser's catalogues (``web/i18n/<lang>.json``): the same keys,
filled the way the browser's ``t()`` fills them, in every language."""

from __future__ import annotations

from importlib import import_module

import pytest

from twintable.core.plugin import GameEntry
from twintable.core.registry import default_registry
from twintable.core.types import Event
from twintable.terminal.catalogue import LANGUAGES, Catalogue, language, plural
from twintable.terminal.extension import TerminalGame


def test_the_language_comes_from_the_environment() -> None:
    assert language({"TWINTABLE_LANG": "ko", "LANG": "fr_FR.UTF-8"}) == "ko"
    assert language({"LANG": "nl_BE.UTF-8"}) == "nl"
    assert language({"LANG": "de_DE.UTF-8"}) == "en" and language({}) == "en"


def test_counts_take_the_plural_the_language_asks_for() -> None:
    assert [plural("fr", n) for n in (0, 1, 2)] == ["one", "one", "other"]
    assert [plural("en", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    assert plural("ko", 1) == "other"
    assert Catalogue(lang="fr").say("terminal.header", game="Timo", seed=1, n=1) == \
        "Timo — graine 1, 1 joueur."
    assert Catalogue(lang="en").say("terminal.header", game="Timo", seed=1, n=0) == \
        "Timo — seed 1, 0 players."


def test_sentences_are_filled_as_the_browser_fills_them() -> None:
    french = Catalogue("twintable.games.timo", "fr")
    # French elides "de" before a vowel in a filled name, as lib/i18n.js does.
    assert "d'Ève" in french.say("lobby.table_of", name="Ève")
    korean = Catalogue("twintable.games.twins", "ko")
    assert korean.say("twins.terminal.you_play", set="쌍 5") == "쌍 5를 냅니다"
    assert korean.say("twins.terminal.you_play", set="쌍 3") == "쌍 3을 냅니다"
    # A key a language lacks reads as in English; a key nobody has reads as itself.
    assert Catalogue(lang="nl").say("no.such.key") == "no.such.key"
    assert Catalogue(lang="fr").list_of(["Ann", "Bo", "Chen"]) == "Ann, Bo et Chen"


TERMINALS = [entry for entry in default_registry().entries()
             if entry.extension(TerminalGame).module]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("entry", TERMINALS, ids=lambda entry: entry.id)
def test_every_terminal_game_speaks_every_language(entry: GameEntry, lang: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Its introduction is its catalogue's ``<id>.terminal.intro`` in the player's language
    (the terminal kept English-only sentences of its own before)."""
    monkeypatch.setenv("TWINTABLE_LANG", lang)
    module = entry.extension(TerminalGame).module
    assert module is not None
    intro = import_module(module).INTRO
    key = f"{entry.id}.terminal.intro"
    assert intro == Catalogue(entry.package, lang).say(key) != key
    if lang != "en":
        assert intro != Catalogue(entry.package, "en").say(key)


def test_the_end_of_a_game_reads_as_the_browser_says_it(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    monkeypatch.setenv("TWINTABLE_LANG", "fr")
    twins = import_module("twintable.games.twins.terminal")
    over = Event("game_over", {"winners": [0, 2]})
    assert twins.describe_event(None, over, ["Ann", "Bo", "Chen"], None) == \
        "Ann et Chen gagnent !"
