"""Twinz's C engine (games/twinz/_native.c) against the reference rules: the AEC
environment on each, fed the same seed and the same moves, gives the same observations,
masks, rewards, ends, infos and states, step for step; refused moves are refused alike.
The moves lean on what the rules judge (the mystery word and its plurals, clues on its
root, reused and identical clues, waiting out the timers), which random words seldom
reach."""

from __future__ import annotations

import pickle
import random
from functools import partial
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.native_pair import paired, refuse_alike, refuses_native_unbuilt, same_step
from tests.games.native_pair import require_native as require_native_engine
from twintable.core.types import Action
from twintable.games.twinz import env as twinz_v1
from twintable.games.twinz import roots
from twintable.games.twinz.decks import fold, load_decks
from twintable.games.twinz.env import N_ACTIONS, VOCABULARY, WAIT, WORD_BASE, WORD_INDEX
from twintable.games.twinz.native_tables import deck_tables
from twintable.games.twinz.rules import CLUE
from twintable.games.twinz.state import CLUES, DRAW, GUESSES, OVER, TwinzState

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def require_native() -> None:
    require_native_engine(twinz_v1, "Twinz")


#: Options that reach every rule quickly: the other deck, no tie window, no pause or
#: reading time, plurals refused, short timers.
OPTIONS: list[dict[str, Any]] = [
    {}, {"deck": "blue"}, {"tie_ms": 0}, {"result_pause_ms": 0, "read_ms": 0},
    {"accept_plural": False, "tie_ms": 1000},
    {"countdown_s": 1, "grace_ms": 0, "guess_timeout_s": 5, "read_ms": 0},
]
PHASE_CODES = {DRAW: 0, CLUES: 1, GUESSES: 2, OVER: 3}


def index(word: str) -> int:
    return WORD_BASE + WORD_INDEX[fold(word)]


def pick(reference: Any, agent: str, rng: random.Random, patience: float) -> int:
    """A legal move that tests a rule more often than a random word would: a duo member
    waits (``patience``: late and missing clues), or says the mystery word, a word on its
    root, a clue already used or its partner's; a guesser waits (timeouts), or guesses the
    word or its plural."""
    state: TwinzState = reference.state
    mask = reference.observe(agent)["action_mask"]
    small = [int(i) for i in np.flatnonzero(mask[:WORD_BASE])]
    if not mask[WORD_BASE] or rng.random() < patience:
        return rng.choice(small)
    roll = rng.random()
    mystery = reference.game.mystery(state)
    plural = fold(mystery) + "s"
    if state.phase == GUESSES:
        if roll < 0.15:
            return index(mystery)
        if roll < 0.2 and plural in WORD_INDEX:
            return index(plural)
        return WORD_BASE + rng.randrange(len(VOCABULARY))
    if roll < 0.04:
        return index(mystery)
    if roll < 0.1:
        tables = deck_tables(state.options["deck"], VOCABULARY)
        words = [word for card in load_decks()[state.options["deck"]] for pair in card.lines
                 for word in pair]
        mid = list(dict.fromkeys(words)).index(mystery)
        refused = tables.refused[tables.starts[mid]:tables.starts[mid + 1]]
        if refused:
            return WORD_BASE + rng.choice(refused)
    used = [word for word in state.used if word in WORD_INDEX]
    if roll < 0.25 and used:
        return index(rng.choice(used))
    given = [word for word, _ in state.clues.values() if fold(word) in WORD_INDEX]
    if roll < 0.4 and given:
        return index(rng.choice(given))
    return WORD_BASE + rng.randrange(len(VOCABULARY))


def same_fields(native: Any, reference: Any) -> None:
    """The engine's fields against the rules' state and the environment's clock."""
    fields, state = native._engine.fields(), reference.state
    duo = state.duo

    def code(word: str | None) -> int:
        return -1 if word is None else WORD_INDEX[fold(word)]

    assert fields["phase"] == PHASE_CODES[state.phase]
    assert (fields["pile"], fields["card"], fields["orientation"], fields["line"]) == (
        tuple(state.pile), state.card, state.orientation, state.line)
    assert (fields["duo"], fields["round_no"], fields["attempt"]) == (
        duo, state.round_no, state.attempt)
    assert (fields["points"], fields["cards_won"]) == (tuple(state.points),
                                                      tuple(state.cards_won))
    assert fields["counter"] == state.rng.counter
    assert fields["pause_until"] == state.pause_until
    assert (fields["countdown_ends"], fields["clue_due"], fields["guess_due"],
            fields["tie_due"]) == (state.countdown_ends, state.clue_due, state.guess_due,
                                   state.tie_due)
    assert fields["clues"] == tuple(code(state.clues[m][0]) if m in state.clues else -1
                                    for m in duo)
    assert fields["revealed"] == (tuple(code(state.revealed.get(m)) for m in duo)
                                  if state.revealed else None)
    assert fields["used"] == tuple(map(code, state.used))
    assert fields["guessed"] == tuple(code(state.guessed.get(seat))
                                      for seat in range(state.players))
    assert fields["hidden"] == tuple(int(seat in state.hidden)
                                     for seat in range(state.players))
    assert fields["right"] == tuple(state.right)
    assert fields["contest"] == state.contest
    assert fields["votes"] == tuple(-1 if seat not in state.votes else int(state.votes[seat])
                                    for seat in range(state.players))
    assert fields["dismissed"] == tuple(int(m in state.dismissed) for m in duo)
    assert (fields["now_ms"], fields["tick"]) == (reference.now_ms, reference.tick)
    assert (list(fields["turns"]), fields["turn"]) == (reference._turns, reference._turn)


def same_moment(native: Any, reference: Any) -> None:
    """The same clock, and the same step for every seat."""
    assert (native.now_ms, native.tick) == (reference.now_ms, reference.tick)
    same_step(native, reference, native.possible_agents)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63), moves=st.integers(0, 2**32 - 1),
       players=st.integers(4, 10), options=st.sampled_from(OPTIONS),
       reward=st.sampled_from(["score", "win"]),
       max_ticks=st.sampled_from(["auto", 400, 1500]),
       patience=st.sampled_from([0.25, 0.8, 0.97]))
def test_the_engine_plays_every_game_as_the_rules_do(seed: int, moves: int, players: int,
                                                      options: dict[str, Any], reward: str,
                                                      max_ticks: Any, patience: float) -> None:
    require_native()
    native, reference = paired(partial(twinz_v1.raw_env, players=players, options=options,
                                       reward=reward, max_ticks=max_ticks), seed)
    envs = [native, reference]
    assert native._on_engine and not reference._on_engine
    rng = random.Random(moves)
    steps = 0
    # Most games end well within the steps (a patient table's run long: it is compared
    # up to there).
    while native.agents and steps < 800:
        same_moment(native, reference)
        if steps % 7 == 0:
            same_fields(native, reference)
        agent = native.agent_selection
        if native.terminations[agent] or native.truncations[agent]:
            action = None
        else:
            if rng.random() < 0.05:
                illegal = rng.choice([-1, N_ACTIONS, rng.randrange(N_ACTIONS), 1, 2, 4])
                legal = native.observe(agent)["action_mask"]
                if not 0 <= illegal < N_ACTIONS or not legal[illegal]:
                    assert refuse_alike(envs, illegal, agent) == (
                        f"action {illegal} is not legal for {agent} now")
            action = pick(reference, agent, rng, patience)
            steps += 1
        for env in envs:
            env.step(action)
    same_moment(native, reference)
    same_fields(native, reference)
    assert native.game.snapshot(native.state) == reference.game.snapshot(reference.state)


def test_the_engine_is_the_default_and_its_state_is_a_replayed_copy() -> None:
    require_native()
    env = twinz_v1.env(players=4)
    env.reset(seed=4)
    raw = env.unwrapped
    assert raw.native and raw._on_engine
    for _ in range(40):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[-1]))
    state = raw.state
    state.points[0] = 99  # a copy: the engine does not see it
    assert raw.state.points[0] != 99 and raw.state is not raw.state
    assert raw.state.history == state.history and raw.state.version == state.version
    assert "Twinz t=" in raw.describe()
    assert raw.action_of(WAIT) is None


@pytest.mark.parametrize("word", ["zzyzxqua", "MÛRE", "mure", "Maison"])
def test_a_word_outside_the_vocabulary_moves_the_game_to_the_rules(word: str) -> None:
    """A word the vocabulary does not spell alike: outside it, or another spelling of an
    entry (the root rule reads a clue's accents: MURE typed bare is not MÛRE)."""
    require_native()
    native, reference = paired(partial(twinz_v1.raw_env, players=4), 3)
    envs = [native, reference]
    while reference.state.phase != CLUES or reference.agent_selection not in (
            f"seat_{seat}" for seat in reference.state.duo):
        action = reference.index_of(None) if reference.state.phase != DRAW else 1
        mask = reference.observe(reference.agent_selection)["action_mask"]
        for env in envs:
            env.step(action if mask[action] else WAIT)
    seat = native.seat(native.agent_selection)
    assert word not in VOCABULARY
    for env in envs:
        env.step_action(Action(seat, CLUE, {"word": word}))
    assert not native._on_engine
    rng = random.Random(word)
    for _ in range(60):
        same_moment(native, reference)
        agent = native.agent_selection
        if not native.agents:
            break
        done = native.terminations[agent] or native.truncations[agent]
        move = None if done else pick(reference, agent, rng, 0.5)
        for env in envs:
            env.step(move)
    assert native.game.snapshot(native.state) == reference.game.snapshot(reference.state)
    native.reset(seed=3)
    assert native._on_engine
    vocabulary_word = VOCABULARY[WORD_INDEX["maison"]]
    assert native.index_of(Action(0, CLUE, {"word": vocabulary_word})) == index("maison")


def test_native_is_refused_where_it_cannot_play(monkeypatch: pytest.MonkeyPatch) -> None:
    words = [word for card in load_decks()["yellow"][:14] for pair in card.lines
             for word in pair]
    with pytest.raises(ValueError, match="word list"):
        twinz_v1.raw_env(players=4, native=True, options={"deck": {"words": words}})
    assert not twinz_v1.raw_env(players=4, options={"deck": {"words": words}}).native
    assert not twinz_v1.raw_env(players=4, native=False).native
    refuses_native_unbuilt(monkeypatch, twinz_v1)


@pytest.mark.parametrize("deck", ["yellow", "blue"])
def test_the_refused_clues_are_the_root_rules(deck: str) -> None:
    """The tables against roots.refusal: every deck word's own refusals and a sample of
    the vocabulary around it (the words that begin alike, where the rule hesitates)."""
    tables = deck_tables(deck, VOCABULARY)
    words = list(dict.fromkeys(word for card in load_decks()[deck] for pair in card.lines
                               for word in pair))
    rng = random.Random(deck)
    by_start: dict[str, list[int]] = {}
    for at, word in enumerate(VOCABULARY):
        by_start.setdefault(fold(word)[:3], []).append(at)
    for mid in rng.sample(range(len(words)), 40):
        mystery = words[mid]
        refused = set(tables.refused[tables.starts[mid]:tables.starts[mid + 1]])
        sample = set(by_start.get(fold(mystery)[:3], ())) | set(rng.sample(
            range(len(VOCABULARY)), 40)) | refused
        for at in sample:
            assert (at in refused) == (roots.refusal(VOCABULARY[at], mystery) is not None), (
                mystery, VOCABULARY[at])


def mask_patterns() -> list[np.ndarray]:
    """Int8 arrays as a mask can be: random values (a learner may write into its mask),
    the engine's shapes (every word legal or none), runs longer and shorter than the C
    scan's 8-byte blocks, odd lengths."""
    rng = np.random.default_rng(5)
    patterns = [rng.choice(np.array(values, dtype=np.int8), size=N_ACTIONS)
                for values in ([0, 1], [0, 1, 2, -1, -128, 127], [0, 0, 0, 0, 0, 0, 0, 3])]
    for ones in ((0, 1), (0, 2, 4), (0, N_ACTIONS), (6, N_ACTIONS), (9, 17, 4000, 4003)):
        pattern = np.zeros(N_ACTIONS, np.int8)
        for start, stop in zip(ones[::2], (*ones[1::2], N_ACTIONS), strict=False):
            pattern[start:stop] = 1
        patterns.append(pattern)
    patterns += [np.zeros(N_ACTIONS, np.int8), np.ones(13, np.int8), np.zeros(0, np.int8)]
    return patterns


@pytest.mark.parametrize("engine", [True, False])
def test_the_mask_finds_the_same_indices_as_a_plain_array(
        engine: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """ActionMask's quicker nonzero (the C scan, or without the engine a bool array)
    against numpy's own, whatever the values, shapes and strides; and it is still what
    the space holds."""
    if engine:
        require_native()
    else:
        monkeypatch.setattr(twinz_v1, "_native", None)
        monkeypatch.setattr(twinz_v1, "NATIVE", False)
    for plain in mask_patterns():
        mask = twinz_v1.ActionMask(plain.shape, np.int8)
        mask[:] = plain
        views = [(mask, plain), (mask[::3], plain[::3]), (mask[7:40], plain[7:40]),
                 (mask[::-1], plain[::-1]), (mask.astype(np.bool_), plain.astype(np.bool_))]
        if len(plain) == N_ACTIONS:
            views.append((mask.reshape(-1, 29), plain.reshape(-1, 29)))
        for mine, theirs in views:
            found, expected = mine.nonzero(), theirs.nonzero()
            assert len(found) == len(expected)
            for got, want in zip(found, expected, strict=True):
                assert type(got) is np.ndarray and got.dtype == want.dtype
                assert np.array_equal(got, want)
        assert np.array_equal(np.flatnonzero(mask), np.flatnonzero(plain))
    env = twinz_v1.env(players=4)
    env.reset(seed=2)
    observation = env.observe(env.agent_selection)
    assert isinstance(observation["action_mask"], twinz_v1.ActionMask)
    assert observation["action_mask"].dtype == np.int8
    assert env.observation_space(env.agent_selection).contains(observation)
    # A vectorised learner sends observations to other processes.
    copy = pickle.loads(pickle.dumps(observation["action_mask"]))
    assert type(copy) is twinz_v1.ActionMask
    assert np.array_equal(copy.nonzero()[0], np.flatnonzero(copy.view(np.ndarray)))
