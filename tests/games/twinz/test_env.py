"""Twinz in discrete time: PettingZoo's own tests, the fixed vocabulary, the clock (late
clues, the tie window, timeouts), refused actions, rewards, and no leak of the mystery
word, the partner's clue or a guess inside the tie window."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from gymnasium.spaces import Discrete
from pettingzoo.test import api_test, seed_test

from twintable.core.types import Action
from twintable.envs import IllegalActionError
from twintable.games.twinz import env as twinz_v1
from twintable.games.twinz.decks import DECKS, fold, load_decks
from twintable.games.twinz.env import (
    OBSERVATION,
    UNKNOWN_WORD,
    VOCABULARY,
    WAIT,
    WORD_BASE,
    UnknownWordError,
    encode,
    legal_moves,
)
from twintable.games.twinz.roots import same_root

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

#: Changing the vocabulary changes what every index means: that is a new version
#: (twinz_v2), never an edit of v1.
VOCABULARY_SIZE = 9477
VOCABULARY_SHA256 = "2416d494a20cfae8a259962924a0cf60b2e60f1faf9186ad0731a1d018d3f0cc"

Policy = Callable[[Any, str], int]


def field(observation: np.ndarray, name: str) -> np.ndarray:
    return observation[OBSERVATION.slices[name]]


def code(word: str) -> float:
    return float(VOCABULARY.index(word) + 1)


def random_legal(rng: random.Random) -> Policy:
    def choose(raw: Any, agent: str) -> int:
        mask = raw.observe(agent)["action_mask"]
        return int(rng.choice(np.flatnonzero(mask).tolist()))
    return choose


def like_a_random_bot(rng: random.Random) -> Policy:
    """Uniform over the moves, a word counting as one move (as the random bot plays):
    contests and votes come up often."""
    def choose(raw: Any, agent: str) -> int:
        mask = raw.observe(agent)["action_mask"]
        moves = [int(index) for index in np.flatnonzero(mask[:WORD_BASE])]
        if mask[WORD_BASE]:
            moves.append(WORD_BASE + rng.randrange(len(VOCABULARY)))
        return rng.choice(moves)
    return choose


def run(env: Any, policy: Policy, until: Callable[[Any], bool] | None = None,
        limit: int = 50_000) -> dict[str, float]:
    """Step with ``policy`` until the episode ends (or ``until`` holds); the rewards."""
    raw = env.unwrapped
    received = dict.fromkeys(env.possible_agents, 0.0)
    for _ in range(limit):
        if not env.agents or (until is not None and until(raw)):
            break
        agent = env.agent_selection
        _, gained, terminated, truncated, _ = env.last(observe=False)
        received[agent] += gained
        env.step(None if terminated or truncated else policy(raw, agent))
    else:
        raise AssertionError("the episode did not end")
    return received


def clues_for(mystery: str) -> list[str]:
    """Two vocabulary words that share no root with the mystery word."""
    return [word for word in ("maison", "voyage", "musique", "animal")
            if not same_root(word, mystery)][:2]


def test_pettingzoo_api_and_seed_tests() -> None:
    api_test(twinz_v1.env(players=4), num_cycles=200)
    api_test(twinz_v1.env(players=10, options={"deck": "blue"}), num_cycles=60)
    seed_test(lambda: twinz_v1.env(players=5), num_cycles=100)


def test_the_vocabulary_is_fixed_and_holds_every_card_word() -> None:
    digest = hashlib.sha256("\n".join(VOCABULARY).encode("utf-8")).hexdigest()
    assert (len(VOCABULARY), digest) == (VOCABULARY_SIZE, VOCABULARY_SHA256), \
        "the twinz_v1 vocabulary changed: keep the data or make a twinz_v2"
    folded = [fold(word) for word in VOCABULARY]
    assert folded == sorted(set(folded))
    cards = {word for deck in DECKS for card in load_decks()[deck]
             for pair in card.lines for word in pair}
    assert cards <= set(VOCABULARY)
    raw = twinz_v1.raw_env()
    assert raw.vocabulary is VOCABULARY
    space = raw.action_space("seat_0")
    assert isinstance(space, Discrete) and space.n == WORD_BASE + VOCABULARY_SIZE


def test_indices_and_actions_round_trip() -> None:
    raw = twinz_v1.raw_env(players=4)
    raw.reset(seed=1)
    agent = raw.agent_selection
    seat = raw.seat(agent)
    draw = raw.action_of(1)
    assert draw == Action(seat, "draw") and raw.index_of(draw) == 1
    assert raw.action_of(WAIT) is None and raw.index_of(None) == WAIT
    assert raw.index_of(Action(seat, "guess", {"word": "MAISON"})) == \
        WORD_BASE + VOCABULARY.index("maison")
    with pytest.raises(UnknownWordError, match="vocabulary"):
        raw.index_of(Action(seat, "clue", {"word": "zzyzx"}))
    with pytest.raises(IllegalActionError):
        raw.action_of(WORD_BASE)  # no word before the card is drawn
    raw.step(1)  # the duo takes the card
    for name in raw.agents:
        if raw.seat(name) in raw.state.duo and raw.observe(name)["action_mask"][WORD_BASE]:
            clue = raw.action_of(WORD_BASE + 5, name)
            assert clue is not None and clue.kind == "clue"
            assert clue.payload["word"] == VOCABULARY[5]
            assert raw.index_of(clue) == WORD_BASE + 5


def test_an_illegal_index_raises_and_changes_nothing() -> None:
    env = twinz_v1.env(players=4)
    env.reset(seed=2)
    raw = env.unwrapped
    before = (raw.game.snapshot(raw.state), env.agent_selection, raw.now_ms, raw.tick)
    for index in (WORD_BASE, 2, 4, twinz_v1.N_ACTIONS, -1, None):
        with pytest.raises(IllegalActionError):
            env.step(index)
    assert (raw.game.snapshot(raw.state), env.agent_selection, raw.now_ms, raw.tick) == before


def test_a_random_game_ends_and_score_rewards_add_up_to_the_final_scores() -> None:
    for players, seed, policy in ((4, 5, random_legal), (7, 6, like_a_random_bot),
                                  (5, 7, like_a_random_bot)):
        env = twinz_v1.env(players=players)
        env.reset(seed=seed)
        received = run(env, policy(random.Random(seed)))
        raw = env.unwrapped
        outcome = raw.game.outcome(raw.state)
        assert outcome is not None
        assert [received[agent] for agent in env.possible_agents] == \
            [score - 3.0 for score in outcome.scores]


def test_win_rewards_and_final_infos() -> None:
    env = twinz_v1.env(players=4, reward="win")
    env.reset(seed=8)
    infos: dict[str, dict[str, Any]] = {}

    def policy(raw: Any, agent: str) -> int:
        return random_legal(random.Random(len(infos)))(raw, agent)

    received = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, gained, terminated, truncated, info = env.last()
        received[agent] += gained
        if terminated:
            infos[agent] = info
        env.step(None if terminated or truncated else policy(env.unwrapped, agent))
    assert set(received.values()) <= {-1.0, 1.0}
    assert {agent for agent, value in received.items() if value == 1.0} == \
        {agent for agent, info in infos.items() if info["winner"]}


def omniscient(guessers_right: set[int], late: int | None = None) -> Policy:
    """Draw at once; clue (one seat ``late``: after the countdown plus the grace time);
    the seats in ``guessers_right`` guess the mystery word as soon as they may."""
    def choose(raw: Any, agent: str) -> int:
        seat, state = raw.seat(agent), raw.state
        mask = raw.observe(agent)["action_mask"]
        if mask[1]:
            return 1
        mystery = raw.game.mystery(state)
        if seat in state.duo and mask[WORD_BASE]:
            if seat == late and raw.now_ms <= state.countdown_ends + state.options["grace_ms"]:
                return WAIT
            return WORD_BASE + VOCABULARY.index(clues_for(mystery)[state.duo.index(seat)])
        if seat in guessers_right and mask[WORD_BASE]:
            return int(raw.index_of(Action(seat, "guess", {"word": mystery})))
        return WAIT
    return choose


def round_over(raw: Any) -> bool:
    return bool(raw.state.history)


def test_a_clue_after_the_grace_time_is_late() -> None:
    env = twinz_v1.env(players=4)
    env.reset(seed=11)
    raw = env.unwrapped
    first, second = raw.state.duo
    run(env, omniscient({2, 3}, late=second), until=lambda raw: raw.state.revealed != {})
    points = raw.state.points
    assert (points[first], points[second]) == (3, 2)  # -1 for the late clue only


def test_right_guesses_in_the_same_tick_share_the_win() -> None:
    env = twinz_v1.env(players=4)
    env.reset(seed=12)
    raw = env.unwrapped
    run(env, omniscient({2, 3}), until=round_over)
    assert raw.state.history[0]["result"] == "found"
    assert sorted(raw.state.history[0]["winners"]) == [2, 3]
    assert raw.state.cards_won == [0, 0, 0, 0]  # a shared win discards the card
    assert raw.state.points == [4, 4, 4, 4]


def test_a_right_guess_after_the_tie_window_is_too_late() -> None:
    env = twinz_v1.env(players=4, options={"tie_ms": 200})
    env.reset(seed=13)
    raw = env.unwrapped
    fast = omniscient({2})
    slow = omniscient({3})
    opened: list[int] = []

    def policy(raw: Any, agent: str) -> int:
        if raw.state.tie_due is not None and not opened:
            opened.append(raw.now_ms)
        if raw.seat(agent) == 3:
            # Seat 3 finds the word 300 ms after seat 2: past the 200 ms window.
            return slow(raw, agent) if opened and raw.now_ms >= opened[0] + 300 else WAIT
        return fast(raw, agent)

    run(env, policy, until=round_over)
    assert raw.state.history[0]["winners"] == [2]
    assert raw.state.cards_won == [0, 0, 1, 0]


def test_waiting_lets_the_timers_run_and_a_stalled_duo_is_truncated() -> None:
    env = twinz_v1.env(players=4)
    env.reset(seed=14)
    raw = env.unwrapped

    def draw_then_wait(raw: Any, agent: str) -> int:
        return 1 if raw.observe(agent)["action_mask"][1] else WAIT

    run(env, draw_then_wait, until=lambda raw: len(raw.state.history) == 1)
    # Both attempts: no clue (-1 each), nobody guessed (timeout), then -1 each.
    assert raw.state.history[0]["result"] == "timeout"
    assert raw.state.points[:2] == [0, 0]
    timers = raw.state.options
    attempt_ms = ((timers["countdown_s"] * 1000 + 2 * timers["grace_ms"])
                  + timers["guess_timeout_s"] * 1000)
    assert raw.now_ms >= 2 * attempt_ms

    stalled = twinz_v1.env(players=4, max_ticks=50)
    stalled.reset(seed=14)
    run(stalled, lambda raw, agent: WAIT)
    assert stalled.unwrapped.tick == 50


def test_step_action_plays_words_outside_the_vocabulary() -> None:
    raw = twinz_v1.raw_env(players=4)
    raw.reset(seed=15)
    raw.step(1)
    agent = raw.agent_selection
    seat = raw.seat(agent)
    assert seat in raw.state.duo
    with pytest.raises(IllegalActionError):
        raw.step_action(Action(seat, "guess", {"word": "zzyzx"}))  # the duo gives clues
    raw.step_action(Action(seat, "clue", {"word": "zzyzx"}))
    assert raw.state.clues[seat][0] == "zzyzx"
    assert field(raw.observe(agent)["observation"], "my_clue")[0] == UNKNOWN_WORD


def test_observations_show_only_the_seats_view() -> None:
    """No leak: each seat's observation and mask are the same after ``determinize``
    re-deals what that seat cannot see; the mystery word shows to the duo only, the
    partner's clue only once revealed, a guess inside the tie window to its guesser."""
    env = twinz_v1.env(players=5, options={"tie_ms": 500})
    env.reset(seed=16)
    rng = random.Random(16)
    noise = like_a_random_bot(rng)
    checks = {"mystery": 0, "partner": 0, "hidden": 0, "contest": 0}

    def policy(raw: Any, agent: str) -> int:
        state, seat = raw.state, raw.seat(agent)
        if state.phase == "guesses" and seat not in state.duo and rng.random() < 0.5 and \
                raw.observe(agent)["action_mask"][WORD_BASE]:
            return int(raw.index_of(Action(seat, "guess", {"word": raw.game.mystery(state)})))
        return noise(raw, agent)

    def inspect(raw: Any) -> bool:
        state, game = raw.state, raw.game
        for seat in range(state.players):
            seen = raw.observe(f"seat_{seat}")
            other = game.determinize(state, seat, random.Random(rng.random()))
            view = game.view(other, seat)
            assert np.array_equal(seen["observation"], encode(view, raw.now_ms))
            assert legal_moves(view) == legal_moves(game.view(state, seat))
            mystery = field(seen["observation"], "mystery")[0]
            if state.phase in ("clues", "guesses"):
                expected = word_code(game.mystery(state)) if seat in state.duo else 0.0
                assert mystery == expected
                checks["mystery"] += 1
            if state.phase == "clues" and seat in state.duo:
                partner = state.duo[1 - state.duo.index(seat)]
                if partner in state.clues and seat not in state.clues:
                    assert field(seen["observation"], "my_clue")[0] == 0.0
                    assert not field(seen["observation"], "clues").any()
                    checks["partner"] += 1
            if state.contest is not None and state.phase == "guesses":
                assert field(seen["observation"], "contest")[
                    state.duo.index(state.contest)] == 1.0
                checks["contest"] += 1
            for guesser in state.hidden:
                slot = (guesser - seat) % state.players
                shown = field(seen["observation"], "guess")[slot]
                assert field(seen["observation"], "hidden")[slot] == 1.0
                assert (shown != 0.0) == (guesser == seat)
                checks["hidden"] += 1
        return False

    def word_code(word: str) -> float:
        return code(VOCABULARY[twinz_v1.WORD_INDEX[fold(word)]])

    for _ in range(3):
        run(env, lambda raw, agent: (inspect(raw), policy(raw, agent))[1])
        env.reset()
    assert all(count > 0 for count in checks.values()), checks


def test_the_docs_show_the_observation_layout() -> None:
    docs = Path(__file__).resolve().parents[3] / "docs" / "envs_twinz.md"
    assert OBSERVATION.table() in docs.read_text(encoding="utf-8")


def test_idle_ticks_pass_until_the_table_engines_next_step(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    # While nobody may act the clock jumps to the first tick at or after the table
    # engine's next step (the game's timer), and the timer fires in that tick. The
    # Python rules' path (the C engine skips idle ticks inside the engine, and
    # tests/games/twinz/test_native.py holds it to this path step by step).
    from twintable.core import table_engine
    from twintable.games.twinz import env as module

    seen: list[tuple[str, int, int]] = []

    def next_step(game: Any, state: Any, now_ms: int, plans: Any) -> Any:
        step = table_engine.next_step(game, state, now_ms, plans)
        assert step is not None
        seen.append(("idle", now_ms, step.at_ms))
        return step

    def run_timers(game: Any, state: Any, now_ms: int) -> int:
        fired = table_engine.run_timers(game, state, now_ms)
        seen.append(("tick", now_ms, fired))
        return fired

    monkeypatch.setattr(module, "next_step", next_step)
    monkeypatch.setattr(module, "run_timers", run_timers)
    env = twinz_v1.env(players=4, native=False)
    env.reset(seed=0)
    run(env, random_legal(random.Random(0)), until=lambda raw: raw.now_ms > 20_000)
    dt = env.unwrapped.dt
    idle = [index for index, (kind, _, _) in enumerate(seen) if kind == "idle"]
    assert len(idle) >= 3
    for index in idle:
        _, now, due = seen[index]
        kind, tick, fired = seen[index + 1]
        assert kind == "tick" and tick == now + -(-(due - now) // dt) * dt and fired
