"""Whether two French words share a root (a clue may not share the mystery word's root).

Accents and case are folded first (unicodedata). Two words share a root when their
Snowball French stems are equal, when their lemmas (simplemma) are equal, when one starts
with the other's first four or more letters covering most of the shorter stem
(JARDIN / JARDINIER), or when a reviewed table of learned roots links them (EAU /
AQUATIQUE: stemming cannot see those). MER / MERLE do not match: "mer" is too short for
the prefix rule, and their stems and lemmas differ.
"""

from __future__ import annotations

import threading

from twintable.games.twinz.decks import fold

#: Learned (Latin or Greek) roots of everyday words: a clue starting with one of the
#: prefixes shares the root of the words listed with it.
LEARNED_ROOTS: dict[str, tuple[str, ...]] = {
    "eau": ("aqua", "hydr"), "cheval": ("equi", "équi", "hipp"), "oeil": ("ocul", "ophtalm"),
    "cheveu": ("capill",), "feu": ("ign", "pyro"), "terre": ("terr", "geo", "géo"),
    "mer": ("marin", "mari", "thalass"), "soleil": ("sol", "helio", "hélio"),
    "lune": ("lun", "selen", "sélén"), "main": ("manu", "chir"), "pied": ("pod", "péd", "ped"),
    "nez": ("nas", "rhin"), "bouche": ("bucc", "oral", "stomat"), "dent": ("dent", "odont"),
    "coeur": ("cardi", "cord"), "sang": ("sangu", "hémat", "hemat", "hémo", "hemo"),
    "os": ("oss", "osté", "oste"), "peau": ("derm", "cutan"), "tête": ("céphal", "cephal"),
    "oiseau": ("ornith", "avi"), "poisson": ("pisc", "ichty"), "chien": ("can", "cyn"),
    "chat": ("fél", "fel"), "arbre": ("arbor", "dendr"), "fleur": ("flor", "anth"),
    "livre": ("biblio", "libr"), "lettre": ("littér", "litter"),
    "mort": ("mortel", "necro", "nécro"),
    "vie": ("vit", "bio"), "temps": ("tempor", "chron"), "ville": ("urb", "civil"),
    "femme": ("fémin", "femin", "gyn"), "homme": ("homin", "andr", "anthrop"),
    "enfant": ("infant", "pédiatr", "pediatr"), "père": ("patern", "patri"),
    "mère": ("matern", "matri"), "frère": ("fratern",), "nuit": ("noct", "nyct"),
    "jour": ("diurn",), "année": ("annu", "annuel"), "roi": ("royal", "règn", "regn"),
    "loi": ("légal", "legal", "légis", "legis"), "guerre": ("belli",), "école": ("scol",),
    "vent": ("éol", "eol", "anémo", "anemo"), "pluie": ("pluvi",), "neige": ("nival",),
    "ciel": ("céleste", "celeste"), "étoile": ("stell", "astr", "astér", "aster"),
    "lait": ("lact", "galact"), "pierre": ("pétr", "petr", "lith"), "bois": ("lign", "xylo"),
    "verre": ("vitr",), "or": ("aur",), "argent": ("argent",), "fer": ("ferr",),
}


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


def lemma(word: str) -> str:
    import simplemma

    return fold(simplemma.lemmatize(word.casefold(), lang="fr"))


def _prefix_match(a: str, b: str) -> bool:
    shorter, longer = sorted((a, b), key=len)
    if len(shorter) < 4 or not longer.startswith(shorter[:4]):
        return False
    common = 0
    for x, y in zip(shorter, longer, strict=False):
        if x != y:
            break
        common += 1
    short_stem = stem(shorter)
    # The shared beginning must cover most of the shorter word's stem.
    return common >= 4 and common >= 0.75 * len(short_stem)


def _learned(a: str, b: str) -> bool:
    for word, prefixes in LEARNED_ROOTS.items():
        base = fold(word)
        for first, second in ((a, b), (b, a)):
            if first == base and any(second.startswith(fold(p)) for p in prefixes):
                return True
    return False


def same_root(first: str, second: str) -> bool:
    """True when ``first`` and ``second`` count as the same word or root."""
    a, b = fold(first), fold(second)
    if a == b:
        return True
    if stem(a) == stem(b) or lemma(a) == lemma(b):
        return True
    return _prefix_match(a, b) or _learned(a, b)
