"""How well the Twinz word bots play: against people's clues, and against each other.

Two measurements (issue 15, "evaluation you can trust"):

- **Human-style clue pairs** (``data/eval_pairs.json``): pairs of one-word clues written
  for the project the way French players give them at the table, each pair pointing at
  its target from two angles; some targets are deck words and some are not (the guesser
  must not lean on the cards alone), and some pairs point at two senses of one word
  (AVOCAT ← tribunal + guacamole). The file is split once, by :func:`assign_splits`,
  into a development half (the bots may be tuned on it) and a test half (only
  reported). A bot guesser ranks its answers to each pair: top-1 and top-5.
- **Duo self-play**: for mystery words drawn from a deck's cards, a bot duo of one level
  gives two clues without talking (members 0 and 1, separate generators) and a bot
  guesser of the same level answers. The round is won on the first attempt when its
  best answer is right (every bot guesser of a level answers alike) and no clue shares
  the mystery word's root (that ends the duo's turn, RULES.md §4).

A guess is right as at the table (RULES.md §4): the target after folding case and
accents, or a plain plural of it (``accept_plural``, on by default).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from twintable.games.twinz.decks import PRINTED, fold, load_decks
from twintable.games.twinz.roots import refusal

if TYPE_CHECKING:
    # The bots need numpy and the vectors (the [words] extra); the pairs do not.
    from twintable.games.twinz.bots import WordBot

PAIRS_FILE = "eval_pairs.json"
SPLITS = ("dev", "test")
#: How many answers the guesser lists for top-5.
TOP = 5


@dataclass(frozen=True, slots=True)
class Pair:
    """One human-style clue pair: two one-word clues for one target."""

    target: str
    clues: tuple[str, str]
    two_sense: bool
    """The two clues point at two different senses of the target."""
    in_deck: bool
    """The target is a word of one of the decks."""
    split: str
    """``dev`` (tuning allowed) or ``test`` (reported only)."""


def load_pairs(split: str | None = None) -> list[Pair]:
    """The shipped clue pairs, all of them or one half."""
    data = json.loads(resources.files("twintable.games.twinz").joinpath(f"data/{PAIRS_FILE}")
                      .read_text(encoding="utf-8"))
    pairs = [Pair(item["target"], (item["clues"][0], item["clues"][1]), item["two_sense"],
                  item["in_deck"], item["split"]) for item in data["pairs"]]
    return [pair for pair in pairs if split is None or pair.split == split]


def _order_key(target: str) -> str:
    # A digest, not hash(): the split must not change between processes.
    return hashlib.sha256(fold(target).encode("utf-8")).hexdigest()


def assign_splits(items: Sequence[tuple[str, bool, bool]]) -> list[str]:
    """The half of each (target, two_sense, in_deck): within each (two_sense, in_deck)
    group, in the order of a SHA-256 of the folded target, alternately dev and test, so
    both halves hold each kind of pair equally (to one)."""
    groups: dict[tuple[bool, bool], list[int]] = {}
    for index, (_, two_sense, in_deck) in enumerate(items):
        groups.setdefault((two_sense, in_deck), []).append(index)
    splits = [""] * len(items)
    for members in groups.values():
        for rank, index in enumerate(sorted(members, key=lambda i: _order_key(items[i][0]))):
            splits[index] = SPLITS[rank % 2]
    return splits


def deck_words() -> frozenset[str]:
    """Every word of both decks, folded."""
    return frozenset(fold(word) for deck in load_decks().values() for card in deck
                     for pair in card.lines for word in pair)


def rulebook_words() -> frozenset[str]:
    """The 24 words of the rulebook's two printed cards, folded."""
    return frozenset(fold(word) for _, lines in PRINTED.values() for pair in lines
                     for word in pair)


def matches(guess: str, target: str) -> bool:
    """Whether ``guess`` wins for ``target`` (RULES.md §4, plurals accepted)."""
    answer, word = fold(guess), fold(target)
    return answer in (word, word + "s", word + "x")


def _rate(hits: int, total: int) -> float:
    return hits / total if total else 0.0


def score_pairs(bot: WordBot, pairs: Iterable[Pair],
                step: Callable[[], Any] = lambda: None) -> dict[str, dict[str, float]]:
    """Top-1 and top-5 of ``bot`` as a guesser, overall and by kind of pair (``rulebook``:
    the target is a word of the rulebook's printed cards), and how many targets its word
    space holds at all (``known``: a target outside it is never found)."""
    printed = rulebook_words()
    kinds: dict[str, Callable[[Pair], bool]] = {
        "all": lambda pair: True,
        "two_sense": lambda pair: pair.two_sense,
        "one_sense": lambda pair: not pair.two_sense,
        "in_deck": lambda pair: pair.in_deck,
        "outside_deck": lambda pair: not pair.in_deck,
        "rulebook": lambda pair: fold(pair.target) in printed,
    }
    tally = {kind: [0, 0, 0, 0] for kind in kinds}  # pairs, top-1, top-5, known
    space = getattr(bot, "space", None)
    for pair in pairs:
        known = space is not None and space.row(pair.target) is not None
        answers = bot.guess(list(pair.clues), TOP)
        first = bool(answers) and matches(answers[0], pair.target)
        found = any(matches(answer, pair.target) for answer in answers[:TOP])
        for kind, holds in kinds.items():
            if holds(pair):
                tally[kind][0] += 1
                tally[kind][1] += first
                tally[kind][2] += found
                tally[kind][3] += known
        step()
    return {kind: {"pairs": n, "top1": _rate(top1, n), "top5": _rate(top5, n),
                   "known": _rate(known, n)}
            for kind, (n, top1, top5, known) in tally.items()}


def mystery_words(deck: str, count: int, seed: int) -> list[str]:
    """``count`` words of ``deck``'s cards, in a seeded order (every line, both columns)."""
    words = [word for card in load_decks()[deck] for pair in card.lines for word in pair]
    rng = random.Random(seed)
    rng.shuffle(words)
    return words[:count]


def self_play(bot: WordBot, deck: str, count: int, seed: int,
              step: Callable[[], Any] = lambda: None) -> dict[str, float]:
    """A duo of ``bot``'s level gives clues for ``count`` words of ``deck``, and the same
    level guesses: rounds won on the first attempt, top-1/top-5, identical clues (-2 each),
    same-root clues (-1 and the duo's turn ends), and rounds with either penalty."""
    won = top1 = top5 = identical = rooted = penalised = 0
    words = mystery_words(deck, count, seed)
    for index, word in enumerate(words):
        first = bot.give_clue(word, set(), 0, random.Random(seed * 100_003 + 2 * index))
        second = bot.give_clue(word, set(), 1, random.Random(seed * 100_003 + 2 * index + 1))
        same = fold(first) == fold(second)
        root = refusal(first, word) is not None or refusal(second, word) is not None
        identical += same
        rooted += root
        penalised += same or root
        answers = bot.guess([first, second], TOP)
        right = bool(answers) and matches(answers[0], word)
        top1 += right
        top5 += any(matches(answer, word) for answer in answers)
        won += right and not root
        step()
    n = len(words)
    return {"words": n, "won_first": _rate(won, n), "top1": _rate(top1, n),
            "top5": _rate(top5, n), "identical": _rate(identical, n),
            "same_root": _rate(rooted, n), "penalties": _rate(penalised, n)}


def evaluate(deck: str, count: int, seed: int,
             step: Callable[[], Any] = lambda: None, level: str | None = None) -> dict[str, float]:
    """Duo self-play on ``deck`` at ``level`` (the default level when None)."""
    from twintable.games.twinz.bots import level_factories

    bot = level_factories()[level or "words"]()
    return self_play(bot, deck, count, seed, step)


def levels() -> list[str]:
    """The bot levels to measure, in the order the bots list them."""
    from twintable.games.twinz.bots import LEVELS

    return list(LEVELS)


def bots_by_level(names: Iterable[str] | None = None) -> dict[str, WordBot]:
    """One bot per level, sharing one word space (loaded once)."""
    from twintable.games.twinz.bots import level_factories
    from twintable.games.twinz.words import load_space

    factories = level_factories()
    chosen = list(names or levels())
    unknown = [name for name in chosen if name not in factories]
    if unknown:
        raise ValueError(f"unknown level {unknown[0]!r}; choose from {', '.join(levels())}")
    space = load_space()  # None without the [words] extra: the bot then says what to install
    return {name: factories[name](space=space) for name in chosen}


def run(words: int, seed: int, names: Iterable[str] | None = None,
        step: Callable[[str, int], Callable[[], Any]] | None = None) -> dict[str, Any]:
    """Every figure ``twintable twinz eval`` reports: clue pairs by half and level, and
    duo self-play by deck and level. ``step(label, total)`` may return a progress tick."""
    tick = step or (lambda label, total: lambda: None)
    bots = bots_by_level(names)
    pairs = {half: load_pairs(half) for half in SPLITS}
    result: dict[str, Any] = {
        "settings": {"words": words, "seed": seed, "levels": list(bots),
                     "pairs": {half: len(items) for half, items in pairs.items()}},
        "pairs": {half: {} for half in SPLITS},
        "self_play": {deck: {} for deck in load_decks()},
    }
    for level, bot in bots.items():
        for half, items in pairs.items():
            result["pairs"][half][level] = score_pairs(
                bot, items, tick(f"{half} pairs, {level}", len(items)))
    if words > 0:
        for deck in result["self_play"]:
            for level, bot in bots.items():
                result["self_play"][deck][level] = self_play(
                    bot, deck, words, seed, tick(f"{deck} deck, {level}", words))
    return result
