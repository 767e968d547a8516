"""The terminal's words: the same catalogues the browser reads, one per game and one for
the shell (``web/i18n/<lang>.json`` beside each), in English, French, Korean and Dutch.

A terminal program takes its language from the environment: ``TWINTABLE_LANG``, else
``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (``fr_FR.UTF-8`` reads as French); anything else
is English. A sentence is filled as the browser's ``t()`` fills it
(``src/twintable/web/lib/i18n.js``): ``{name}`` placeholders, a ``key#one`` /
``key#other`` form picked by a numeric ``n`` (French counts 0 and 1 as one), French
elision before a vowel ("de {name}" with Emma reads "d'Emma") and the Korean particle
that fits the word before it ("{name}을(를)"). A key missing in a language reads as in
English; a key missing in English reads as itself, as in the browser.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

LANGUAGES = ("en", "fr", "ko", "nl")


def language(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, among :data:`LANGUAGES`; else English."""
    env = os.environ if environ is None else environ
    for name in ("TWINTABLE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            code = value.split(".")[0].split("_")[0].split("-")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def plural(lang: str, n: int) -> str:
    """The plural form a count takes (Intl.PluralRules' for these four languages)."""
    if lang == "ko":
        return "other"
    if lang == "fr":
        return "one" if n in (0, 1) else "other"
    return "one" if n == 1 else "other"


_ELIDING = re.compile(r"\b(de|que|le|la|je|ne|se|jusque|lorsque|puisque) \{(\w+)\}", re.I)
_VOWEL = re.compile(r"^[aeiouyhàâäéèêëîïôöùûüœæ]", re.I)
_PARTICLES = re.compile(r"\{(\w+)\}(을\(를\)|은\(는\)|이\(가\)|과\(와\)|\(으\)로)")
_DIGIT_FINALS = (21, 8, 0, 16, 0, 0, 1, 8, 8, 0)  # 영 일 이 삼 사 오 육 칠 팔 구


def _final_consonant(word: str) -> int | None:
    last = word.strip()[-1:]
    if not last:
        return None
    code = ord(last) - 0xAC00
    if 0 <= code < 11172:
        return code % 28
    return _DIGIT_FINALS[int(last)] if last.isdigit() and last.isascii() else None


def _elide(text: str, values: Mapping[str, object]) -> str:
    def one(match: re.Match[str]) -> str:
        word, name = match[1], match[2]
        value = values.get(name)
        if value is not None and _VOWEL.match(str(value).strip()):
            return f"{word[:-1]}'{{{name}}}"
        return match[0]
    return _ELIDING.sub(one, text)


def _particles(text: str, values: Mapping[str, object]) -> str:
    def one(match: re.Match[str]) -> str:
        name, pair = match[1], match[2]
        value = values.get(name)
        final = None if value is None else _final_consonant(str(value))
        if final is None:
            return match[0]
        if pair == "(으)로":
            return f"{{{name}}}{'으로' if final not in (0, 8) else '로'}"
        return f"{{{name}}}{pair[0] if final else pair[2]}"
    return _PARTICLES.sub(one, text)


def _read(folder: Traversable, lang: str) -> dict[str, str]:
    file = folder.joinpath(f"{lang}.json")
    return dict(json.loads(file.read_text(encoding="utf-8"))) if file.is_file() else {}


@cache
def _merged(packages: tuple[str, ...], lang: str) -> Mapping[str, str]:
    words: dict[str, str] = {}
    for package in packages:
        words.update(_read(resources.files(package).joinpath("web", "i18n"), lang))
    return words


class Catalogue:
    """The shell's words and, given its package, a game's, in one language."""

    def __init__(self, package: str | None = None, lang: str | None = None):
        self.lang = lang if lang in LANGUAGES else language() if lang is None else "en"
        self._packages = ("twintable",) + ((package,) if package else ())

    def _lookup(self, key: str) -> str | None:
        found = _merged(self._packages, self.lang).get(key)
        return found if found is not None else _merged(self._packages, "en").get(key)

    def say(self, key: str, **values: object) -> str:
        """The sentence ``key`` filled with ``values``; ``n`` picks a plural form."""
        text = None
        count = values.get("n")
        if isinstance(count, int) and not isinstance(count, bool):
            text = self._lookup(f"{key}#{plural(self.lang, count)}") or self._lookup(f"{key}#other")
        if text is None:
            text = self._lookup(key)
        if text is None:
            return key
        if self.lang == "fr":
            text = _elide(text, values)
        elif self.lang == "ko":
            text = _particles(text, values)
        for name, value in values.items():
            text = text.replace(f"{{{name}}}", str(value))
        return text

    def list_of(self, items: list[str]) -> str:
        """Names joined as the language does: "Ann, Bo and Chen" (``terminal.and``)."""
        if len(items) < 2:
            return "".join(items)
        return ", ".join(items[:-1]) + self.say("terminal.and") + items[-1]

    def has(self, key: str) -> bool:
        return self._lookup(key) is not None or self._lookup(f"{key}#other") is not None
