"""Benchmark: how often a Twinz duo says the same clue (−2 each, RULES.md §4; issue 40
targets: at most 2% for two bots of any levels, at most 3% for a bot with a person).

Mystery words: the first ``--words`` of both decks in a seeded order
(``evaluate.mystery_words``), nothing used yet. Every ordered pair of levels plays each
word once as a duo (member 0 and member 1, separate generators): the rate of identical
clues, with its Wilson 95% interval. The scripted person gives a common clue: one of the
first three associations the lexicon lists for the word (what people say first), chosen
with weights 3:2:1 by a seeded generator, or the word's nearest word by the vectors when
the lexicon holds no list; the bot partner plays the other member, each level, both
seats. Baseline in the same run: the rate two independent draws of the scripted person
collide (how often two people giving common clues would).
Usage: python bench/twinz_duo_collisions.py [--words N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
from itertools import product

from twintable.core.stats import wilson_interval


def show(label: str, hits: int, total: int) -> None:
    low, high = wilson_interval(hits, total)
    print(f"{label}: {hits}/{total} = {hits / total:.1%} (95% {low:.1%}-{high:.1%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=150, help="mystery words per deck")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    from twintable.games.twinz.associations import load_associations
    from twintable.games.twinz.decks import fold
    from twintable.games.twinz.evaluate import bots_by_level, mystery_words

    bots = bots_by_level()
    space = next(iter(bots.values())).space
    assert space is not None  # bots_by_level raises without the word vectors
    said = load_associations()
    words = [word for deck in ("yellow", "blue")
             for word in mystery_words(deck, args.words, args.seed)]

    def person(word: str, rng: random.Random) -> str:
        listed = said.get(word, ())[:3]
        if listed:
            return rng.choices(listed, weights=(3, 2, 1)[:len(listed)])[0]
        scores = space.similarities(word)
        assert scores is not None
        return next(space.words[row] for row in space.nearest(scores, 5)
                    if fold(space.words[row]) != fold(word))

    total_hits = total = 0
    for first, second in product(bots, repeat=2):
        hits = 0
        for index, word in enumerate(words):
            one = bots[first].give_clue(word, set(), 0, random.Random(2 * index))
            two = bots[second].give_clue(word, set(), 1, random.Random(2 * index + 1))
            hits += fold(one) == fold(two)
        show(f"bot {first} + bot {second}", hits, len(words))
        total_hits += hits
        total += len(words)
    show("every bot-bot duo", total_hits, total)

    total_hits = total = 0
    for level, bot in bots.items():
        hits = 0
        for index, word in enumerate(words):
            for member in (0, 1):
                said_by_person = person(word, random.Random(args.seed * 7919 + index))
                clue = bot.give_clue(word, set(), member, random.Random(index))
                hits += fold(clue) == fold(said_by_person)
        show(f"person + bot {level}", hits, 2 * len(words))
        total_hits += hits
        total += 2 * len(words)
    show("every person-bot duo", total_hits, total)
    hits = sum(fold(person(word, random.Random(3 * index)))
               == fold(person(word, random.Random(3 * index + 1)))
               for index, word in enumerate(words))
    show("baseline: two scripted people", hits, len(words))


if __name__ == "__main__":
    main()
