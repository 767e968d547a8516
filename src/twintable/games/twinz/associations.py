"""The Twinz association lexicon (``data/associations_*.json``: what players say for
each deck word, and for everyday words on no card): read as the lexicographers write it
(re-read whenever a file changes, a half-written file read as its last complete state)
and indexed both ways over a word space's rows, for the word bots (:mod:`.bots`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from twintable.games.twinz.decks import fold
from twintable.games.twinz.roots import lemma as root_lemma
from twintable.games.twinz.words import WordSpace

#: The two deck lexicons, then the everyday one (everyday words on no card: a mystery word
#: may be one; none of its headwords is a deck word).
ASSOCIATION_FILES = ("associations_yellow.json", "associations_blue.json",
                     "associations_everyday.json")


def _data_folder() -> Path:
    return Path(__file__).with_name("data")


#: The last complete read of each lexicon file: a file caught half written reads as that.
_last_read: dict[Path, dict[str, tuple[str, ...]]] = {}


@lru_cache(maxsize=8)
def _read_associations(path: Path, stamp: tuple[int, int]) -> dict[str, tuple[str, ...]]:
    """One lexicon file (``stamp``: its mtime and size, so a rewritten file is re-read)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        entries = data.get("words", {}) if isinstance(data, dict) else {}
    except (OSError, ValueError):  # being written: the last complete read, if any
        return _last_read.get(path, {})
    found: dict[str, tuple[str, ...]] = {}
    for word, entry in entries.items() if isinstance(entries, dict) else ():
        said = entry.get("associations", []) if isinstance(entry, dict) else []
        found[str(word)] = tuple(str(item) for item in said if isinstance(item, str) and item)
    _last_read[path] = found
    return found


def _stamps() -> tuple[tuple[Path, tuple[int, int]], ...]:
    """Each lexicon file there is, with its mtime and size."""
    found = []
    for name in ASSOCIATION_FILES:
        path = _data_folder() / name
        try:
            info = path.stat()
        except OSError:
            continue
        found.append((path, (info.st_mtime_ns, info.st_size)))
    return tuple(found)


def load_associations(
        stamps: tuple[tuple[Path, tuple[int, int]], ...] | None = None,
) -> dict[str, tuple[str, ...]]:
    """The association lexicon as it stands now: headword (a deck word, or an everyday
    word on no card) -> what players say when they hear it, strongest first. The
    lexicographers may still be writing it: whatever the files hold, partial or missing,
    is read (again, whenever a file changes)."""
    found: dict[str, tuple[str, ...]] = {}
    for path, stamp in _stamps() if stamps is None else stamps:
        for word, said in _read_associations(path, stamp).items():
            found[word] = found.get(word, ()) + said
    return found


def match_keys(word: str) -> set[str]:
    """How a clue and an association are matched: folded, and by Lexique lemma."""
    folded = fold(word)
    return {folded, root_lemma(folded)}


@dataclass
class Lexicon:
    """The association lexicon read both ways, over a word space's rows."""

    evokes: dict[str, dict[int, float]]
    """Clue key -> {row of a headword it evokes: strength}: the lexicon in reverse."""
    said_for: dict[int, tuple[str, ...]]
    """Row of a headword (deck or everyday) -> its associations (what a clue giver may say)."""
    members: dict[int, list[tuple[int, float]]]
    """Row of a headword -> (row, strength) of its associations in the space: words said
    together for one headword are related too (GATEAU and BOUGIE, for ANNIVERSAIRE)."""
    flat: tuple[np.ndarray, np.ndarray, np.ndarray] = (
        np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
        np.zeros(0, dtype=np.float32))
    """:attr:`members` as three arrays (headword rows, association rows, strengths), to
    weigh a clue against every headword's senses at once (``bots.WordBot.evidence``)."""


@lru_cache(maxsize=8)
def _lexicon(space_id: int, space: WordSpace,
             stamps: tuple[tuple[Path, tuple[int, int]], ...], share: float) -> Lexicon:
    evokes: dict[str, dict[int, float]] = {}
    said_for: dict[int, tuple[str, ...]] = {}
    members: dict[int, list[tuple[int, float]]] = {}
    for word, every in load_associations(stamps).items():
        row = space.row(word)
        if row is None:
            continue
        said = every[:max(1, round(share * len(every)))]
        said_for[row] = said
        for position, item in enumerate(said):
            strength = 1.0 - 0.5 * position / max(len(said), 1)
            for key in match_keys(item):
                known = evokes.setdefault(key, {})
                known[row] = max(known.get(row, 0.0), strength)
            member = space.row(item)
            if member is not None:
                members.setdefault(row, []).append((member, strength))
    heads = [row for row, listed in members.items() for _ in listed]
    flat = (np.array(heads, dtype=np.int64),
            np.array([member for listed in members.values() for member, _ in listed],
                     dtype=np.int64),
            np.array([strength for listed in members.values() for _, strength in listed],
                     dtype=np.float32))
    return Lexicon(evokes, said_for, members, flat)


def lexicon_for(space: WordSpace, share: float = 1.0) -> Lexicon:
    """The lexicon over ``space`` (``share`` of each list, strongest first), rebuilt
    whenever the files have changed."""
    return _lexicon(id(space), space, _stamps(), share)
