"""Twinz as a PettingZoo AEC environment in discrete time: ``env()`` and ``raw_env``.

Clues and guesses are indices into a fixed vocabulary (``VOCABULARY``, exposed as
``raw_env.vocabulary``); 4–10 players; game options through ``options``.

Time. Twinz is a race on the clock: the clue countdown, the grace time that makes a clue
late, the guessing timeout and the tie window that lets right guesses share the win are
all measured in milliseconds (RULES.md §4). A turn-based framing would drop exactly what
the game is about (who finds the word first; a clue in time or late), so, as for Twin It,
time moves in ticks of ``dt`` ms (default 100). At the start of a tick every game timer
that has run out fires, at its own deadline (a ``tick`` action of the table's clock,
``Game.dispatch_timed``); then each seat that may act (``game.to_act``) gets one turn, in
an order that rotates by one seat every tick (tick ``k`` starts from ``seat_{k mod n}``),
so no seat always comes first in a race. A turn is one move or *wait*, stamped with the
tick's time, so every rule that reads time sees the tick: a clue after the countdown plus
``grace_ms`` is late, and right guesses in the same tick, or within ``tie_ms`` of the
first, share the win. Moves take effect at once, in turn order, so every agent sees the
table as it is when its turn comes and a move its mask allows is never refused. A seat
with nothing to do gets no turn; a tick in which nobody may act passes by itself. With
``dt`` <= ``tie_ms`` (the defaults: 100 and 300) a right guess one tick after the first
still ties, as at a table. Between rounds the engine's result pause (``result_pause_ms``)
is a timer like the others: nobody may take the card before it fires. The engine has no
timer for taking the card (``draw``) itself, so a duo that only waits would stall the
game: ``max_ticks`` (default ``"auto"``: one virtual hour, 36,000 ticks at the default
``dt``; a game whose every timer runs out lasts under 30 minutes; None: no cap)
truncates it.

Vocabulary (``VOCABULARY``, 9,477 words for v1, shipped frozen in
``data/twinz_v1_vocabulary.txt``): what :func:`build_vocabulary` made of the data as v1
shipped it, every word of both decks (``data/decks.json``) and every word of the
association lexicon (``data/associations_yellow.json``, ``data/associations_blue.json``:
what French players say for each deck word), one entry per folded form (case and accents
folded, as the rules compare words; the spelling kept is the deck's, else the
alphabetically first), sorted by folded form. Every mystery word is in it: a deck review
since v1 (issue 40) chose its new words inside it, and a test holds every card word to it.
The vocabulary is part of the version: ``tests/games/twinz/test_env.py`` pins its size and
fingerprint; a new vocabulary (:func:`build_vocabulary` on today's data) needs a
``twinz_v2``. Word bots may say words outside it: an index
cannot name them (``index_of`` raises :class:`UnknownWordError`), but
``raw_env.step_action`` plays any engine action of the seat on turn, so a wrapper can seat
those bots unchanged; the observation then shows such a word as ``UNKNOWN_WORD``.

Actions (``Discrete(WORD_BASE + len(VOCABULARY))``; the mask is an int8
:class:`ActionMask`, whose ``nonzero`` is quicker than a plain array's): 0 wait, 1 draw
(take the card, which starts the countdown), 2 contest the first duo member's clue, 3
contest the second's, 4 vote to uphold a contest, 5 vote to dismiss it, ``WORD_BASE`` + i
(``WORD_BASE`` = 6) say ``VOCABULARY[i]``: the clue of a duo member in the clue phase, a
guess of anyone else in the guessing phase. Any word is a legal clue or guess (a reused
clue or one on the mystery word's root is legal and penalised, as at the table); the mask
comes from the seat's view (``view.legal``), plus wait, which is always legal until the end.

Observation (``OBSERVATION``, float32, every value >= 0). Seats are relative: slot 0 is
the observing seat, slot ``k`` the seat ``k`` places to its left; slots past the player
count stay 0. A *word code* is the vocabulary index + 1; 0 means no word (none given, or
not shown to this seat), ``UNKNOWN_WORD`` (``len(VOCABULARY) + 1``) a word outside the
vocabulary. Only the seat's view (``TwinzGame.view``) is encoded: the mystery word only
for the duo, the partner's clue only once both are revealed, a guess inside the tie
window only to its guesser; never the pile or another duo's secrets.

==================  ====  =============================================================
field               size  meaning
==================  ====  =============================================================
``present``         10    1 for the slots that hold a seat
``duo_first``       10    one-hot slot of the duo's first member
``duo_second``      10    one-hot slot of the duo's second member
``phase``           4     one-hot draw, clues, guesses, over
``attempt``         2     one-hot attempt 1, 2
``line``            6     one-hot line (1–6) of the card that holds the mystery word
``pile``            1     cards left in the draw pile
``round``           1     round number
``countdown``       1     seconds left in the clue countdown (clue phase)
``clue_due``        1     seconds until clues close, grace included (clue phase)
``guess_due``       1     seconds until the guessing attempt times out (guess phase)
``mystery``         1     word code of the mystery word (duo only, once drawn)
``clue_given``      2     1 for each duo member (first, second) who gave a clue
``my_clue``         1     word code of my clue this attempt
``revealed``        1     1 once this attempt's clues are revealed
``clues``           2     word codes of the revealed clues (0 when missing)
``guessed``         10    1 for each slot that guessed this attempt
``guess``           10    word code of each slot's guess (0 while hidden)
``hidden``          10    1 for a guess inside the tie window (word and verdict withheld)
``used``            84    word codes of the clue words given so far this game, in order
``points``          10    each slot's points (tokens)
``cards``           10    each slot's cards won
``contest``         2     one-hot duo member whose clue is being voted on
``votes``           1     votes cast on the open contest
==================  ====  =============================================================

Rewards: ``reward="score"`` (default) gives every seat the change in its score (points +
2 per card, the final score's formula) after every step, so an episode's rewards add up
to the final score less the 3 starting points; ``reward="win"`` gives +1 to each winner
and −1 to everyone else at the end. When the game ends, or ``max_ticks`` truncates it,
each agent's info holds ``winner`` (this seat won), ``winners``, ``score`` and ``scores``
(the outcome's totals; at a truncation the totals so far, and no winner).
``reset(seed=s)`` plays the engine's game of seed ``s`` (as ``twintable sim --seed s``
does); a reset without a seed draws the next game's seed from
the last seeded generator.

Engine: ``raw_env(native=None)`` plays on the C engine (``games/twinz/_native.c``, built
by setup.py where a C compiler is found; ``NATIVE`` says whether it was) with a printed
deck (``yellow``, ``blue``) and any values of the other options; on the reference rules
(rules.py) with ``native=False``, with a designer's word list (``native=True`` refuses
one), or where the engine was not built. Both give the same observations, masks, rewards,
infos and states for the same seed and moves (tests/games/twinz/test_native.py). The
engine compares words as vocabulary indices: the root rule, the plurals and the reused
clues are worked out once per deck (``games/twinz/native_tables.py``; the first engine of
a process takes about a second for it, most of it loading the root rule's data, which the
rules load at their first reveal anyway). On the engine ``env.unwrapped.state`` is a fresh
copy at each read, replayed on the rules from the engine's log of moves and timer runs
(bots and evaluation read it; changing it changes nothing). A seed outside 0 to 2**64 - 1,
or a word that ``step_action`` plays and the vocabulary does not spell alike (outside it,
or in other letters, case or accents), moves that game to the rules (until the next
reset).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from functools import cache, lru_cache
from importlib import resources
from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv

from twintable.core.errors import RuleError
from twintable.core.table_engine import next_step, run_timers
from twintable.core.types import Action
from twintable.envs.aec import (
    AUTO,
    TableEnv,
    check_render_mode,
    check_reward,
    episode_cap,
    win_rewards,
)
from twintable.envs.errors import IllegalActionError
from twintable.envs.fast_wrapper import FastOrderEnforcingWrapper
from twintable.envs.layout import Field, Layout
from twintable.games.twinz.decks import DECKS, fold, load_decks
from twintable.games.twinz.native_tables import deck_tables, flat
from twintable.games.twinz.rules import (
    CLUE,
    CONTEST,
    DRAW_KIND,
    GUESS,
    MAX_WORD,
    ONE_WORD,
    PILE_SIZE,
    VOTE,
    TwinzGame,
)
from twintable.games.twinz.state import CLUES, DRAW, GUESSES, OVER, TwinzState
from twintable.games.twinz.views import TwinzView

try:
    from twintable.games.twinz import _native
except ImportError:  # built without a C compiler: see setup.py
    _native = None  # type: ignore[assignment]

#: Whether the C engine was built (``raw_env(native=None)`` uses it where it can).
NATIVE = _native is not None
MAX_SEATS = 10
PHASES = (DRAW, CLUES, GUESSES, OVER)
LINES = 6
#: Clue words a game can use up: two clues, two attempts, every round (one card stays).
MAX_USED = 4 * max(PILE_SIZE.values())
WAIT, DRAW_INDEX, CONTEST_FIRST, CONTEST_SECOND, VOTE_UPHOLD, VOTE_DISMISS = range(6)
WORD_BASE = 6
REWARDS = ("score", "win")
#: The default episode cap (``max_ticks="auto"``) in virtual time: one hour.
CAP_MS = 60 * 60_000


class UnknownWordError(ValueError):
    """A word that has no index in this environment's vocabulary."""


def _association_words(deck: str) -> Iterable[str]:
    text = resources.files("twintable.games.twinz").joinpath(
        f"data/associations_{deck}.json").read_text(encoding="utf-8")
    for word, entry in json.loads(text)["words"].items():
        yield word
        yield from entry["associations"]


@cache
def build_vocabulary() -> tuple[str, ...]:
    """A vocabulary from the data as it is now: deck words and association words, one per
    folded form (v1's, frozen in ``data/twinz_v1_vocabulary.txt``, was built so)."""
    deck_words = {word for name in DECKS for card in load_decks()[name]
                  for pair in card.lines for word in pair}
    spellings: dict[str, str] = {}
    candidates = sorted(deck_words) + sorted(
        word for name in DECKS for word in _association_words(name))
    for word in candidates:
        if not ONE_WORD.fullmatch(word) or len(word) > MAX_WORD:
            continue  # not a word a player could send (none in the v1 data)
        key = fold(word)
        known = spellings.get(key)
        if known is None or (known not in deck_words and word < known):
            spellings[key] = word
    return tuple(spellings[key] for key in sorted(spellings))


def _frozen_vocabulary() -> tuple[str, ...]:
    text = resources.files("twintable.games.twinz").joinpath(
        "data/twinz_v1_vocabulary.txt").read_text(encoding="utf-8")
    return tuple(line for line in text.splitlines() if line)


VOCABULARY = _frozen_vocabulary()
#: Folded form -> vocabulary index (words are compared folded, as the rules compare them).
WORD_INDEX = {fold(word): index for index, word in enumerate(VOCABULARY)}
N_ACTIONS = WORD_BASE + len(VOCABULARY)
UNKNOWN_WORD = len(VOCABULARY) + 1
_CODE = float(UNKNOWN_WORD)
_S = MAX_SEATS

OBSERVATION = Layout([
    Field("present", _S, 1, "1 for the slots that hold a seat"),
    Field("duo_first", _S, 1, "one-hot slot of the duo's first member"),
    Field("duo_second", _S, 1, "one-hot slot of the duo's second member"),
    Field("phase", len(PHASES), 1, "one-hot draw, clues, guesses, over"),
    Field("attempt", 2, 1, "one-hot attempt 1, 2"),
    Field("line", LINES, 1, "one-hot line of the card that holds the mystery word"),
    Field("pile", 1, max(PILE_SIZE.values()), "cards left in the draw pile"),
    Field("round", 1, max(PILE_SIZE.values()), "round number"),
    Field("countdown", 1, 60, "seconds left in the clue countdown (clue phase)"),
    Field("clue_due", 1, 80, "seconds until clues close, grace included (clue phase)"),
    Field("guess_due", 1, 300, "seconds until the guessing attempt times out"),
    Field("mystery", 1, _CODE, "word code of the mystery word (duo only, once drawn)"),
    Field("clue_given", 2, 1, "1 for each duo member who gave a clue this attempt"),
    Field("my_clue", 1, _CODE, "word code of my clue this attempt"),
    Field("revealed", 1, 1, "1 once this attempt's clues are revealed"),
    Field("clues", 2, _CODE, "word codes of the revealed clues (0 when missing)"),
    Field("guessed", _S, 1, "1 for each slot that guessed this attempt"),
    Field("guess", _S, _CODE, "word code of each slot's guess (0 while hidden)"),
    Field("hidden", _S, 1, "1 for a guess inside the tie window (word withheld)"),
    Field("used", MAX_USED, _CODE, "word codes of the clue words given so far, in order"),
    Field("points", _S, 100, "each slot's points (tokens)"),
    Field("cards", _S, max(PILE_SIZE.values()), "each slot's cards won"),
    Field("contest", 2, 1, "one-hot duo member whose clue is being voted on"),
    Field("votes", 1, MAX_SEATS, "votes cast on the open contest"),
])


if _native is not None and (OBSERVATION.size, WORD_BASE, MAX_USED) != (
        _native.OBSERVATION_SIZE, _native.WORD_BASE, _native.MAX_USED):
    raise ImportError("games/twinz/_native.c encodes another layout than env.py's")

#: Each field's first index (encode's hot path reads them, not the Layout).
_AT = {name: where.start for name, where in OBSERVATION.slices.items()}


class ActionMask(np.ndarray[Any, np.dtype[Any]]):
    """The type of Twinz's action masks: an int8 array like any other (its values, dtype,
    shape and every operation are numpy's), whose ``nonzero`` (so ``np.nonzero`` and
    ``np.flatnonzero`` too) is faster. numpy finds the non-zero elements of an int8 array
    one element at a time through the dtype's generic test, about 14 µs for Twinz's 9,483
    actions, several times a whole step of the C engine. A one-dimensional int8 mask is
    read by the C engine's module instead (``_native.nonzero``: runs of non-zero elements,
    most of a mask when every word is legal, written in bulk), or without it compared with
    0 into a bool array, whose elements numpy finds in bulk: the same indices whatever the
    values (tests/games/twinz/test_native.py)."""

    def nonzero(self) -> tuple[np.ndarray[Any, np.dtype[np.intp]], ...]:
        if self.dtype is _INT8 and self.ndim == 1:
            if _native is None:
                return _not_equal(self.view(np.ndarray), 0).nonzero()
            size = len(self)
            found = _empty(size, _INTP)
            count = _native.nonzero(self, found)
            # A few indices keep no buffer the size of the mask alive.
            return (found[:count] if count + count > size else found[:count].copy(),)
        return super().nonzero()


_INT8 = np.dtype(np.int8)
_INTP = np.dtype(np.intp)
_empty = np.empty
_not_equal = np.not_equal


def _new_mask() -> ActionMask:
    return ActionMask((N_ACTIONS,), _INT8)


def word_code(word: str | None) -> float:
    """A word as the observation holds it: index + 1, 0 for none, UNKNOWN_WORD outside."""
    if word is None:
        return 0.0
    return _word_code(word)


@lru_cache(maxsize=1 << 16)
def _word_code(word: str) -> float:
    # Folding (accents, case) is most of an observation's cost: a game repeats its words.
    index = WORD_INDEX.get(fold(word))
    return float(UNKNOWN_WORD if index is None else index + 1)


def encode(view: TwinzView, now_ms: int) -> np.ndarray:
    """One seat's view at time ``now_ms`` as the observation vector (the layout above).

    Written into a Python list and converted once: a numpy element write costs several
    list writes, and an observation is ~200 small numbers."""
    seat = view.viewer
    assert seat is not None, "spectators have no observation"
    players = view.players
    out = [0.0] * OBSERVATION.size
    at = _AT
    # slots[other]: the other seat's relative slot (0: me).
    slots = [(other - seat) % players for other in range(players)]
    present = at["present"]
    out[present:present + players] = [1.0] * players
    first, second = view.duo
    out[at["duo_first"] + slots[first]] = 1.0
    out[at["duo_second"] + slots[second]] = 1.0
    phase = view.phase
    out[at["phase"] + PHASES.index(phase)] = 1.0
    out[at["attempt"] + min(view.attempt, 2) - 1] = 1.0
    out[at["line"] + view.line - 1] = 1.0
    out[at["pile"]] = view.pile
    out[at["round"]] = view.round_no
    if phase == CLUES:
        out[at["countdown"]] = min(max(view.countdown_ends - now_ms, 0) / 1000, 60)
        out[at["clue_due"]] = min(max(view.clue_due - now_ms, 0) / 1000, 80)
    if phase == GUESSES and view.guess_due is not None:
        out[at["guess_due"]] = min(max(view.guess_due - now_ms, 0) / 1000, 300)
    if view.mystery is not None:
        out[at["mystery"]] = _word_code(view.mystery)
    given = at["clue_given"]
    out[given:given + 2] = view.clue_given
    if view.my_clue is not None:
        out[at["my_clue"]] = _word_code(view.my_clue)
    if view.clues is not None:
        out[at["revealed"]] = 1.0
        for member, clue in enumerate(view.clues):
            out[at["clues"] + member] = word_code(clue)
    hidden = view.hidden
    for other, guess in view.guessed:
        out[at["guessed"] + slots[other]] = 1.0
        out[at["guess"] + slots[other]] = word_code(guess)
        out[at["hidden"] + slots[other]] = float(other in hidden)
    used = view.used[:MAX_USED]
    if used:
        start = at["used"]
        out[start:start + len(used)] = map(_word_code, used)
    points, cards, points_at, cards_at = view.points, view.cards, at["points"], at["cards"]
    for other in range(players):
        out[points_at + slots[other]] = min(points[other], 100)
        out[cards_at + slots[other]] = cards[other]
    if phase == GUESSES and view.contest in view.duo:
        # Only a contest of this duo's clue is open (the view keeps an upheld one's
        # member until the next card is drawn).
        out[at["contest"] + view.duo.index(view.contest)] = 1.0
    out[at["votes"]] = view.votes
    return np.array(out, dtype=np.float32)


def legal_moves(view: TwinzView) -> tuple[list[int], bool]:
    """The view's legal moves as action indices below ``WORD_BASE``, and whether it may
    say a word (a clue or a guess: then every word index is legal)."""
    indices: set[int] = set()
    words = False
    for action in view.legal:
        if action.kind == DRAW_KIND:
            indices.add(DRAW_INDEX)
        elif action.kind in (CLUE, GUESS):
            words = True
        elif action.kind == CONTEST:
            indices.add(CONTEST_FIRST + view.duo.index(action.payload["member"]))
        elif action.kind == VOTE:
            indices.add(VOTE_UPHOLD if action.payload["uphold"] else VOTE_DISMISS)
    return sorted(indices), words


def state_moves(state: TwinzState, seat: int) -> tuple[list[int], bool]:
    """:func:`legal_moves` of the seat's view, read from the state: what
    ``TwinzGame.legal_actions`` allows, without building its sample words (folding them is
    most of a step's cost). tests/games/twinz/test_env.py holds the two equal."""
    phase, duo = state.phase, state.duo
    if phase == OVER or not 0 <= seat < state.players:
        return [], False
    if phase == DRAW:
        return ([DRAW_INDEX] if seat in duo and state.pause_until is None else []), False
    if phase == CLUES:
        return [], seat in duo and seat not in state.clues
    if seat in duo:
        return [], False
    indices = []
    if state.contest is None and state.tie_due is None:
        indices += [CONTEST_FIRST + at for at, member in enumerate(duo)
                    if state.revealed.get(member) and member not in state.dismissed]
    if state.contest is not None and seat not in state.votes:
        indices += [VOTE_UPHOLD, VOTE_DISMISS]
    return indices, seat not in state.guessed


def acting(state: TwinzState) -> list[int]:
    """``TwinzGame.to_act`` from :func:`state_moves`: the seats that may do anything."""
    found = []
    for seat in range(state.players):
        indices, words = state_moves(state, seat)
        if indices or words:
            found.append(seat)
    return found


def state_view(game: TwinzGame, state: TwinzState, seat: int) -> TwinzView:
    """``game.view(state, seat)`` without its legal actions (``legal`` is empty): what
    :func:`encode` reads, at a fraction of the cost. tests/games/twinz/test_env.py holds
    the two equal."""
    in_duo = seat in state.duo
    hidden = state.hidden
    phase = state.phase
    duo = state.duo
    return TwinzView(
        viewer=seat, options=state.options, players=state.players, phase=phase,
        now_ms=state.clock, opened_ms=state.opened_ms,
        pause_until=state.pause_until if phase == DRAW else None,
        round_no=state.round_no, attempt=state.attempt, duo=duo, line=state.line,
        pile=len(state.pile), mystery=game.mystery(state) if in_duo and
        phase in (CLUES, GUESSES) else None,
        countdown_ends=state.countdown_ends, clue_due=state.clue_due,
        guess_due=state.guess_due if phase == GUESSES else None,
        clue_given=tuple(member in state.clues for member in duo),
        my_clue=state.clues[seat][0] if seat in state.clues else None,
        clues=tuple(state.revealed.get(member) for member in duo)
        if state.revealed else None,
        guessed=tuple((other, word if other not in hidden or other == seat else None)
                      for other, word in sorted(state.guessed.items())),
        hidden=tuple(sorted(set(hidden))), used=tuple(state.used),
        points=tuple(state.points), cards=tuple(state.cards_won),
        contest=state.contest, votes=len(state.votes), recap=state.recap, legal=())


def observe_view(view: TwinzView) -> dict[str, np.ndarray]:
    """A seat's observation from its view alone, at the view's clock (a policy seated as
    a bot: ``twintable.bots.user``); wait is always allowed until the end."""
    mask = _new_mask()
    mask[:] = 0
    if view.phase != OVER:
        mask[WAIT] = 1
        indices, words = legal_moves(view)
        mask[indices] = 1
        if words:
            mask[WORD_BASE:] = 1
    return {"observation": encode(view, view.now_ms), "action_mask": mask}


def view_now(view: Any) -> int:
    """The moment a view shows (a policy seated as a bot plans from it)."""
    return int(view.now_ms)


def view_action(view: TwinzView, index: int) -> Action | None:
    """The move ``index`` names for the view's seat now (None: wait);
    IllegalActionError when the view does not allow it."""
    if index == WAIT:
        return None
    seat = view.viewer
    assert seat is not None, "spectators do not act"
    indices, words = legal_moves(view)
    if index in indices:
        if index == DRAW_INDEX:
            return Action(seat, DRAW_KIND, {})
        if index in (CONTEST_FIRST, CONTEST_SECOND):
            return Action(seat, CONTEST, {"member": view.duo[index - CONTEST_FIRST]})
        return Action(seat, VOTE, {"uphold": index == VOTE_UPHOLD})
    if words and WORD_BASE <= index < N_ACTIONS:
        kind = CLUE if view.phase == CLUES else GUESS
        return Action(seat, kind, {"word": VOCABULARY[index - WORD_BASE]})
    raise IllegalActionError(f"action {index} is not legal for seat {seat} now")


def _move(state: TwinzState, seat: int, index: int, now: int) -> Action | None:
    """The engine action a legal index means for ``seat`` in ``state`` at ``now`` (None:
    wait)."""
    if index == WAIT:
        return None
    if index == DRAW_INDEX:
        return Action(seat, DRAW_KIND, {}, now)
    if index in (CONTEST_FIRST, CONTEST_SECOND):
        return Action(seat, CONTEST, {"member": state.duo[index - CONTEST_FIRST]}, now)
    if index in (VOTE_UPHOLD, VOTE_DISMISS):
        return Action(seat, VOTE, {"uphold": index == VOTE_UPHOLD}, now)
    kind = CLUE if state.phase == CLUES else GUESS
    return Action(seat, kind, {"word": VOCABULARY[index - WORD_BASE]}, now)


#: The C engine's phase numbers.
_OVER_CODE = PHASES.index(OVER)
#: What the C engine's step() answers: flags (a score changed, the game ended, the cap
#: truncated it) and, above them, the seat on turn next.
_SCORED, _ENDED, _TRUNCATED = 1, 2, 4
_FLAGS, _SEAT_SHIFT = 7, 3
_OBSERVATION_SIZE = OBSERVATION.size
_FLOAT32 = np.dtype(np.float32)
#: Seeds the C engine takes (core.rng seeds with any int; the engine with 64 bits).
_ENGINE_SEEDS = 2**64


class raw_env(TableEnv):
    """Twinz in ticks: each seat that may act gets a turn a tick, in a rotating order."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "twinz_v1", "render_modes": ["ansi", "human"], "is_parallelizable": False}
    wait_index = WAIT
    vocabulary = VOCABULARY

    def __init__(self, players: int = 4, options: dict[str, Any] | None = None,
                 render_mode: str | None = None, dt: int = 100, reward: str = "score",
                 max_ticks: int | str | None = AUTO, native: bool | None = None):
        check_render_mode(self.metadata, render_mode)
        check_reward(reward, REWARDS)
        if dt <= 0:
            raise ValueError("dt must be a positive number of milliseconds")
        self.game = TwinzGame()
        self.options = self.game.resolve_options(options)
        self.game.check_players(players, self.options)
        covered = isinstance(self.options["deck"], str) and dt < 2**31
        if native and not NATIVE:
            raise RuntimeError("the C engine of Twinz was not built (no C compiler at "
                               "install time); use native=False")
        if native and not covered:
            raise ValueError("the C engine of Twinz plays the printed decks (and dt below "
                             "2**31 ms); a word list needs native=False")
        self.players = players
        self.dt = int(dt)
        self.reward = reward
        self.max_ticks = episode_cap(max_ticks, -(-CAP_MS // self.dt), "max_ticks")
        super().__init__(players, render_mode, OBSERVATION.box(), N_ACTIONS)
        self.native: bool = NATIVE and covered if native is None else native
        """Whether games run on the C engine (a seed past 64 bits, or a word
        ``step_action`` plays that the vocabulary does not spell alike, moves a game to
        the rules)."""
        self._engine: _native.Engine | None = native_engine(
            self.options, players, self.dt, self.max_ticks) if self.native else None
        #: The engine while this game runs on it (None: on the rules).
        self._live: _native.Engine | None = None
        self._seeds = random.Random()
        self._rules_state: TwinzState = self.game.new_state(self.options, players, 0)
        self._now = 0
        self._tick = 0
        self._views_key: tuple[int, int, int] = (-1, -1, -1)
        self._views: dict[int, TwinzView] = {}
        self._turns: list[int] = []
        self._turn = 0
        # On the engine: the game's seed, the rules' copy of its state (replayed from the
        # engine's log up to entry _replayed when read), the scores after the last step,
        # and whether ``rewards`` may hold a non-zero reward.
        self._game_seed = 0
        self._replayed = 0
        self._scores_after: list[int] = []
        self._rewarded = True

    @property
    def _on_engine(self) -> bool:
        """Whether this game runs on the C engine."""
        return self._live is not None

    @property
    def now_ms(self) -> int:
        """The virtual clock: the time every move of this tick is stamped with."""
        live = self._live
        return self._now if live is None else int(live.now_ms)

    @property
    def tick(self) -> int:
        """Ticks since the reset."""
        live = self._live
        return self._tick if live is None else int(live.tick)

    @property
    def _state(self) -> TwinzState:
        """The rules' state; on the engine a fresh copy at each read, replayed from the
        engine's log (changing it changes nothing)."""
        if not self._on_engine:
            return self._rules_state
        return self._synced().clone()

    def _synced(self) -> TwinzState:
        """The rules' state brought up to the engine's: its moves and timer runs since the
        last read, replayed on the rules."""
        engine = self._engine
        assert engine is not None
        if self._replayed == 0:
            self._rules_state = self.game.new_state(self.options, self.players,
                                                    self._game_seed)
        state = self._rules_state
        entries = engine.log(self._replayed)
        for seat, index, t in entries:
            if seat < 0:
                run_timers(self.game, state, t)
            else:
                move = _move(state, seat, index, t)
                assert move is not None  # the engine logs no wait
                self.game.apply(state, move)
        self._replayed += len(entries)
        return state

    def _leave_engine(self) -> None:
        """Play on from here on the rules (until the next reset)."""
        engine = self._engine
        assert engine is not None
        fields = engine.fields()
        self._synced()
        self._now, self._tick = fields["now_ms"], fields["tick"]
        self._turns, self._turn = list(fields["turns"]), fields["turn"]
        self._views_key = (-1, -1, -1)
        self._live = None

    # -- the convention every environment keeps ------------------------------------------
    def action_of(self, index: int, agent: str | None = None) -> Action | None:
        """The engine action an index means now for ``agent`` (default: the agent on
        turn), stamped with the tick's time; None for wait. IllegalActionError when its
        mask bit is 0."""
        seat = self.seat(agent or self.agent_selection)
        number = self._checked(seat, index)
        if number == WAIT:
            return None
        return _move(self._state, seat, number, self.now_ms)

    def _checked(self, seat: int, action: Any) -> int:
        """:func:`masked_index` against the seat's mask, read without building it."""
        agent = self.possible_agents[seat]
        if action is None:
            raise IllegalActionError(f"{agent} must give an action index (0 waits)")
        index = int(action)
        live = self._live
        if live is not None:
            if 0 <= index < N_ACTIONS and live.legal(seat, index):
                return index
        elif self._rules_state.phase != OVER:
            if index == WAIT:
                return index
            indices, words = state_moves(self._rules_state, seat)
            if index in indices or (words and WORD_BASE <= index < N_ACTIONS):
                return index
        raise IllegalActionError(f"action {index} is not legal for {agent} now")

    def index_of(self, action: Action | None) -> int:
        """The index of an engine action (None: wait). A word outside the vocabulary
        raises UnknownWordError; ``step_action`` can still play it."""
        if action is None:
            return WAIT
        if action.kind == DRAW_KIND:
            return DRAW_INDEX
        if action.kind == CONTEST:
            member = action.payload.get("member")
            live = self._live
            duo = self._rules_state.duo if live is None else tuple(live.duo)
            if member not in duo:
                raise ValueError(f"seat {member!r} is not in the duo {duo}")
            return CONTEST_FIRST + duo.index(member)
        if action.kind == VOTE:
            return VOTE_UPHOLD if action.payload.get("uphold") is True else VOTE_DISMISS
        if action.kind in (CLUE, GUESS):
            word = action.payload.get("word")
            index = WORD_INDEX.get(fold(word)) if isinstance(word, str) else None
            if index is None:
                raise UnknownWordError(
                    f"{word!r} is not in the twinz_v1 vocabulary ({len(VOCABULARY)} deck "
                    f"and association words); raw_env.step_action can play it")
            return WORD_BASE + index
        raise ValueError(f"Twinz has no action index for {action.kind!r}")

    # -- seeing ----------------------------------------------------------------------------
    def _view(self, seat: int) -> TwinzView:
        """The seat's view (legal actions left out: :func:`state_view`), built once per
        state version and tick (a step observes and masks from the same one)."""
        state = self._rules_state
        key = (id(state), state.version, self._now)
        if key != self._views_key:
            self._views_key, self._views = key, {}
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = state_view(self.game, state, seat)
        return view

    def _mask(self, seat: int) -> np.ndarray:
        mask = _new_mask()
        mask[:] = 0
        if self._rules_state.phase != OVER:
            mask[WAIT] = 1
            indices, words = state_moves(self._rules_state, seat)
            if indices:
                mask[indices] = 1
            if words:
                mask[WORD_BASE:] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat_of[agent]
        live = self._live
        if live is not None:
            # Fresh arrays every time (a learner may keep them); the engine writes every
            # element.
            observation = np.empty(_OBSERVATION_SIZE, _FLOAT32)
            mask = ActionMask((N_ACTIONS,), _INT8)
            live.encode(seat, observation, mask)
            return {"observation": observation, "action_mask": mask}
        return {"observation": encode(self._view(seat), self._now),
                "action_mask": self._mask(seat)}

    # -- playing ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``options`` is PettingZoo's reset argument and is not used: game
        options are given to the constructor."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = int(seed)
        else:
            game_seed = self._seeds.randrange(2**31)
        engine = self._engine
        self._live = engine if 0 <= game_seed < _ENGINE_SEEDS else None
        self._views_key = (-1, -1, -1)
        self._now = 0
        self._tick = 0
        if engine is not None and self._live is not None:
            engine.reset(game_seed)
            self._game_seed, self._replayed = game_seed, 0
            self._scores_after = self._engine_scores()
            self._rewarded = False
            self._start(self.possible_agents[engine.next_seat])
            return
        self._rules_state = self.game.new_state(self.options, self.players, game_seed)
        self._start_tick()
        self._start(self._selected(self.possible_agents))

    def step(self, action: Any) -> None:
        live = self._live
        if live is None:
            super().step(action)
            return
        # TableEnv.step on the engine, one call shorter (the cap is max_ticks: Twinz
        # leaves max_steps None).
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._play_native(live, agent, action)
        self.steps += 1

    def play(self, agent: str, action: Any) -> None:
        live = self._live
        if live is not None:
            self._play_native(live, agent, action)
            return
        self._play(agent, self.action_of(action, agent))

    def _play_native(self, engine: _native.Engine, agent: str, action: Any) -> None:
        """``play`` on the C engine: the same checks, errors, rewards and ends as the
        rules'."""
        if action is None:
            raise IllegalActionError(f"{agent} must give an action index (0 waits)")
        index = int(action)
        result = engine.step(self._seat_of[agent], index) if 0 <= index < N_ACTIONS else -1
        if result < 0:
            raise IllegalActionError(f"action {index} is not legal for {agent} now")
        flags = result & _FLAGS
        if not flags:
            # A step that changes no score and ends nothing.
            self._settle_quietly(agent, self.possible_agents[result >> _SEAT_SHIFT])
            return
        over, truncated = bool(flags & _ENDED), bool(flags & _TRUNCATED)
        scores = self._engine_scores()
        rewards: dict[str, float]
        if self.reward == "score":
            rewards = {name: float(after - earlier) for name, after, earlier
                       in zip(self.possible_agents, scores, self._scores_after, strict=True)}
        elif over:
            rewards = win_rewards(self.agents, self.standing()[1])
        else:
            rewards = dict.fromkeys(self.agents, 0.0)
        self._scores_after = scores
        self._rewarded = True
        self._settle(agent, rewards, self.agents[0] if over or truncated
                     else self.possible_agents[result >> _SEAT_SHIFT], over=over,
                     truncated=truncated)

    def _engine_scores(self) -> list[int]:
        engine = self._engine
        assert engine is not None
        return [points + 2 * cards for points, cards in zip(engine.points, engine.cards,
                                                            strict=True)]

    def step_action(self, action: Action | None) -> None:
        """Play an engine action for the agent on turn (None: wait), words outside the
        vocabulary included: how a wrapper seats the project's word bots. An action the
        engine refuses raises IllegalActionError and changes nothing."""
        agent = self.agent_selection
        seat = self.seat(agent)
        if self.terminations[agent] or self.truncations[agent]:
            raise IllegalActionError(f"{agent} is done: step(None) removes it")
        if action is not None:
            if action.seat != seat:
                raise IllegalActionError(f"it is {agent}'s turn, not seat_{action.seat}'s")
            action = action.at(self.now_ms)
            trial = self._state.clone()
            try:
                self.game.apply(trial, action)
            except RuleError as error:
                raise IllegalActionError(f"{agent}: {error.code}: {error.message}") from None
            live = self._live
            if live is not None:
                index = self._engine_index(action)
                if index is None:
                    # The engine knows the vocabulary as spelt: this game goes on on the
                    # rules.
                    self._leave_engine()
                else:
                    self._play_native(live, agent, index)
                    return
        elif self._live is not None:
            self._play_native(self._live, agent, WAIT)
            return
        self._play(agent, action)

    def _engine_index(self, action: Action) -> int | None:
        """The index of a move the rules accept, if the engine plays it alike: a word must
        be a vocabulary entry as spelt (the root rule reads a clue's accents, and the
        state keeps the word as given)."""
        try:
            index = self.index_of(action)
        except UnknownWordError:
            return None
        if index >= WORD_BASE and action.payload.get("word") != VOCABULARY[index - WORD_BASE]:
            return None
        return index

    def _play(self, agent: str, move: Action | None) -> None:
        before = self._scores()
        if move is not None:
            self.game.apply(self._rules_state, move)
        self._turn += 1
        if self._turn >= len(self._turns):
            self._next_tick()
        over = self.game.is_over(self._rules_state)
        truncated = (not over and self.max_ticks is not None
                     and self._tick >= self.max_ticks)
        self._settle(agent, self._rewards(before, over),
                     self.agents[0] if over or truncated else self._selected(self.agents),
                     over=over, truncated=truncated)

    def standing(self) -> tuple[list[int] | None, list[int]]:
        """The outcome's totals and winners, or at a truncation the totals so far (points
        + 2 per card won, as the outcome counts) and no winner."""
        engine = self._live
        if engine is not None:
            totals = self._engine_scores()
            if engine.phase != _OVER_CODE:
                return totals, []
            # TwinzGame.outcome: the best total; a tie goes to more cards won.
            cards = engine.cards
            tied = [seat for seat, total in enumerate(totals) if total == max(totals)]
            most = max(cards[seat] for seat in tied)
            return totals, [seat for seat in tied if cards[seat] == most]
        if self.game.is_over(self._rules_state):
            return super().standing()
        return self._scores(), []

    def _selected(self, agents: list[str]) -> str:
        if not self._turns:
            return agents[0]
        return self.possible_agents[self._turns[self._turn]]

    def _start_tick(self) -> None:
        """This tick's turns: the seats that may act, from seat ``tick mod n`` on."""
        seats = acting(self._rules_state)
        first = self._tick % self.players
        self._turns = [seat for step in range(self.players)
                       if (seat := (first + step) % self.players) in seats]
        self._turn = 0

    def _next_tick(self) -> None:
        """On to the next tick in which someone may act: the clock moves on, and every
        timer that ran out fires at its deadline."""
        game, state, dt = self.game, self._rules_state, self.dt
        while True:
            self._tick += 1
            self._now += dt
            run_timers(game, state, self._now)
            self._start_tick()
            if self._turns or game.is_over(state):
                return
            if self.max_ticks is not None and self._tick >= self.max_ticks:
                return
            # Nobody may act: the table engine's next step is the game's timer.
            timer = next_step(game, state, self._now, ())
            if timer is None:
                raise RuntimeError("twinz: nobody may act and no timer is set")
            # Who may act depends on the state alone, and nothing changes it before the
            # timer fires: the ticks until then pass at once (not one by one).
            idle = -(-(timer.at_ms - self._now) // dt) - 1
            if self.max_ticks is not None:
                idle = min(idle, self.max_ticks - self._tick - 1)
            if idle > 0:
                self._tick += idle
                self._now += idle * dt

    def _scores(self) -> list[int]:
        state = self._rules_state
        return [state.points[seat] + 2 * state.cards_won[seat] for seat in range(self.players)]

    def _rewards(self, before: list[int], over: bool) -> dict[str, float]:
        if self.reward == "score":
            return {agent: float(after - earlier) for agent, after, earlier
                    in zip(self.possible_agents, self._scores(), before, strict=True)
                    if agent in self.agents}
        if not over:
            return dict.fromkeys(self.agents, 0.0)
        outcome = self.game.outcome(self._rules_state)
        assert outcome is not None
        return win_rewards(self.agents, outcome.winners)

    # -- showing ---------------------------------------------------------------------------
    def describe(self) -> str:
        view = self.game.view(self._state, None)
        clues = ", ".join(str(clue) for clue in view.clues) if view.clues else "-"
        guesses = ", ".join(f"seat_{seat} {word or '?'}" for seat, word in view.guessed)
        text = (f"Twinz t={self.now_ms} ms, round {view.round_no} attempt {view.attempt}, "
                f"{view.phase}, duo seat_{view.duo[0]} + seat_{view.duo[1]}\n"
                f"  clues: {clues}; guesses: {guesses or '-'}\n"
                f"  points {list(view.points)}, cards {list(view.cards)}")
        return text


def native_engine(options: dict[str, Any], players: int, dt: int,
                  max_ticks: int | None) -> _native.Engine:
    """A C engine for resolved ``options`` (a printed deck), the player count and the
    environment's clock and cap."""
    assert _native is not None
    tables = deck_tables(options["deck"], VOCABULARY)
    timing = (int(options["countdown_s"]), int(options["grace_ms"]),
              int(options["guess_timeout_s"]), int(options["tie_ms"]),
              int(bool(options["accept_plural"])), int(options["result_pause_ms"]),
              int(options["read_ms"]))
    return _native.Engine(players, PILE_SIZE[players], dt,
                          -1 if max_ticks is None else max_ticks, timing,
                          len(VOCABULARY), flat(tables.backs), flat(tables.card_words),
                          flat(tables.matches), flat(tables.starts), flat(tables.refused))


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment, wrapped only in PettingZoo's order checks (an
    ``OrderEnforcingWrapper`` whose hot reads are direct: ``twintable.envs.fast_wrapper``)."""
    return FastOrderEnforcingWrapper(raw_env(**kwargs))


__all__ = [
    "NATIVE",
    "N_ACTIONS",
    "OBSERVATION",
    "UNKNOWN_WORD",
    "VOCABULARY",
    "WAIT",
    "WORD_BASE",
    "ActionMask",
    "UnknownWordError",
    "acting",
    "encode",
    "env",
    "legal_moves",
    "observe_view",
    "raw_env",
    "state_moves",
    "state_view",
    "view_action",
    "view_now",
]
