"""What the terminal Twinz says, in English, French, Korean and Dutch (issue 25): the
game's own catalogue (``web/i18n/<lang>.json``, the one its browser client reads), through
:mod:`twintable.terminal.catalogue`.

Its keys there: ``twinz.terminal.<key>`` for the terminal's sentences, the browser's own
``twinz.refused.<why>`` (a refused clue reads the same in both) and the shell's
``level.<id>``; the lines every terminal game says (names, header, scores) are the
shell's (``twintable.cli.shell_line``).
French sentences never put a player's name after "de" (they would need "d'" before a
vowel): they say "donné par {name}".
"""

from __future__ import annotations

from twintable.terminal.catalogue import LANGUAGES, Catalogue, language

__all__ = ["CONTEST_WORDS", "LANGUAGES", "NO", "VOTE_WORDS", "YES", "key_of", "known",
           "language", "say"]

#: The commands a person types, in every language (a line of two words or more is never
#: a guess, so these cannot shadow one).
CONTEST_WORDS = ("contest", "conteste", "contester", "이의", "betwist")
VOTE_WORDS = ("vote", "voter", "투표", "stem")
YES = ("yes", "y", "oui", "o", "uphold", "예", "네", "ja", "j")
NO = ("no", "n", "non", "dismiss", "아니오", "아니요", "nee")


def key_of(key: str) -> str:
    """Where a sentence of the terminal Twinz lives in the catalogues."""
    if key.startswith("refused."):
        return f"twinz.{key}"
    return key if key.startswith("level.") else f"twinz.terminal.{key}"


def say(lang: str, key: str, **values: object) -> str:
    """The sentence ``key`` in ``lang`` (English where it has none), filled with
    ``values``; ``n`` picks the plural form of a key that has them."""
    return Catalogue("twintable.games.twinz", lang).say(key_of(key), **values)


def known(lang: str, key: str) -> bool:
    """Whether the catalogues hold the sentence ``key``."""
    return Catalogue("twintable.games.twinz", lang).has(key_of(key))
