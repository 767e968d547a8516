"""How well the Twinz word bots play each other, word by word.

For each mystery word (drawn from a deck's cards, lines and orientations), a bot duo
gives two clues without talking (member 0 and member 1 strategies, separate generators)
and a bot guesser lists its five best answers.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from twintable.games.twinz.bots import WordBot
from twintable.games.twinz.decks import fold, load_decks
from twintable.games.twinz.roots import same_root


def mystery_words(deck: str, count: int, seed: int) -> list[str]:
    words = [word for card in load_decks()[deck] for pair in card.lines for word in pair]
    rng = random.Random(seed)
    rng.shuffle(words)
    return words[:count]


def evaluate(deck: str, count: int, seed: int,
             step: Callable[[], Any] = lambda: None) -> dict[str, float]:
    bot = WordBot()
    top1 = top5 = identical = penalised = 0
    words = mystery_words(deck, count, seed)
    for index, word in enumerate(words):
        first = bot.give_clue(word, set(), 0, random.Random(seed * 100_003 + 2 * index))
        second = bot.give_clue(word, set(), 1, random.Random(seed * 100_003 + 2 * index + 1))
        same = fold(first) == fold(second)
        identical += same
        penalised += same or same_root(first, word) or same_root(second, word)
        answers = [fold(a) for a in bot.guess([first, second], 5)]
        top1 += bool(answers) and answers[0] == fold(word)
        top5 += fold(word) in answers
        step()
    n = len(words)
    return {"words": n, "top1": top1 / n, "top5": top5 / n, "identical": identical / n,
            "penalties": penalised / n}
