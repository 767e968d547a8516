"""The C engine of Timo's Twist plays exactly the Python rules: same deals, same legal
moves, same views, same refusals, same finished games (test_rules.py also runs every
scenario through both)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.timo.native import require_native
from twintable.bots.base import RandomBot
from twintable.core.conformance import check_replay, random_playout
from twintable.core.errors import OptionError, RuleError
from twintable.core.types import Action
from twintable.games.timo import TimoGame
from twintable.games.timo.bots import HeuristicTimoBot, SearchTimoBot
from twintable.games.timo.plugin import entry as timo_entry
from twintable.sim.extension import simulation_engine
from twintable.sim.runner import play_game, run_games

pytestmark = pytest.mark.usefixtures("native")
REFERENCE = TimoGame()

options_strategy = st.fixed_dictionaries({"target": st.sampled_from([1, 60, 300])}, optional={
    "stacking": st.booleans(), "draw_when_able": st.booleans(),
    "deck": st.sampled_from(["timo54", "classic108"]),
    "hand_size": st.sampled_from([1, 4, 7, 9, 12]),
})


@pytest.fixture
def native() -> None:
    require_native()


def fast_game() -> Any:
    from twintable.games.timo.fast import FastTimoGame

    return FastTimoGame()


def assert_same(fast: Any, native: Any, reference: Any, players: int) -> None:
    assert fast.snapshot(native) == REFERENCE.snapshot(reference)
    assert fast.to_act(native) == REFERENCE.to_act(reference)
    assert fast.is_over(native) == REFERENCE.is_over(reference)
    for viewer in [*range(players), None]:
        assert fast.view(native, viewer) == REFERENCE.view(reference, viewer)
        if viewer is not None:
            assert fast.legal_actions(native, viewer) == REFERENCE.legal_actions(reference,
                                                                                  viewer)


@settings(max_examples=40, deadline=None)
@given(seed=st.one_of(st.integers(0, 2**32), st.integers(2**63, 2**64 - 1)),
       players=st.integers(2, 6), options=options_strategy, choices=st.randoms())
def test_both_engines_play_the_same_game_move_for_move(
        seed: int, players: int, options: dict[str, Any], choices: random.Random) -> None:
    fast = fast_game()
    # A bigger hand seats fewer players (hand_size 12 on the 54-card deck: four at most).
    players = min(players, REFERENCE.player_range(options)[1])
    native, reference = fast.new_state(options, players, seed), REFERENCE.new_state(
        options, players, seed)
    for _ in range(3000):
        assert_same(fast, native, reference, players)
        if reference.over:
            break
        seat = choices.choice(sorted(REFERENCE.to_act(reference)))
        # The engine's own Action objects, which take its fast path.
        action = choices.choice(fast.legal_actions(native, seat))
        assert fast.apply(native, action) == []
        REFERENCE.apply(reference, action)
    assert fast.outcome(native) == REFERENCE.outcome(reference)
    assert fast.stats(native) == REFERENCE.stats(reference)


@pytest.mark.parametrize(("hand_size", "players"), [(1, 6), (5, 4), (9, 5), (26, 2)])
def test_both_engines_deal_the_hand_size_the_table_chose(hand_size: int, players: int) -> None:
    options = {"hand_size": hand_size, "deck": "classic108" if hand_size > 20 else "timo54"}
    if hand_size > 20:
        with pytest.raises(OptionError, match="hand_size"):
            fast_game().new_state(options, players, 3)
        return
    native = fast_game().new_state(options, players, 3)
    reference = REFERENCE.new_state(options, players, 3)
    # A start card that makes the first player draw (+2) can grow one hand.
    assert sorted(map(len, native.state()["hands"]))[:-1] == [hand_size] * (players - 1)
    assert fast_game().snapshot(native) == REFERENCE.snapshot(reference)


def test_a_hand_the_deck_cannot_deal_to_every_seat_is_refused_by_both_engines() -> None:
    from twintable.games.timo import _native

    # 54 cards: five hands of 10 and the start card fit; six do not.
    assert REFERENCE.player_range({"hand_size": 10}) == (2, 5)
    for game in (REFERENCE, fast_game()):
        with pytest.raises(OptionError, match="2 to 5 players with these options"):
            game.new_state({"hand_size": 10}, 6, 1)
    colours, ranks, points = (bytes(54),) * 3
    with pytest.raises(ValueError, match="does not fit"):
        _native.Engine(colours, ranks, points, 6, 1, True, False, 300, None, {}, None,
                       [[None] * _native.CODE_COUNT] * 6, None, None, hand_size=10)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_engine_passes_the_conformance_suite(players: int) -> None:
    fast = fast_game()
    for seed in (1, 2):
        playout = random_playout(fast, players, seed, {"target": 80}, probe_every=3,
                                 keep_snapshots=True)
        assert playout.illegal_probes > 0 and playout.leak_probes_that_changed_hidden_state
        check_replay(fast, playout)
        # The replay rebuilds the same game on the Python rules too.
        assert REFERENCE.snapshot(playout.replay.final_state(REFERENCE)) == \
            playout.snapshots[-1]


@pytest.mark.parametrize("action", [
    Action(0, "play", {"card": 999}), Action(1, "draw"), Action(0, "pass"),
    Action(0, "call_timo"), Action(1, "catch", {"target": 0}), Action(9, "draw"),
    Action(0, "shout"), Action(0, "play", {"card": True}),
], ids=str)
def test_refusals_are_the_rules_own_and_change_nothing(action: Action) -> None:
    fast = fast_game()
    native = fast.new_state({}, 2, 11)
    reference = fast.to_reference(native)
    if native.turn == 1:
        action = action._replace(seat=1 - action.seat if action.seat < 2 else action.seat)
    before = fast.snapshot(native)
    with pytest.raises(RuleError) as expected:
        REFERENCE.apply(reference, action)
    with pytest.raises(RuleError) as error:
        fast.apply(native, action)
    assert (error.value.code, error.value.message) == (expected.value.code,
                                                        expected.value.message)
    assert fast.snapshot(native) == before


def test_an_equal_action_from_json_is_played_and_reports_the_rules_events() -> None:
    fast = fast_game()
    native = fast.new_state({}, 3, 5)
    reference = fast.to_reference(native)
    legal = fast.legal_actions(native, native.turn)[0]
    rebuilt = Action.from_json(legal.to_json())
    assert rebuilt is not legal
    events = fast.apply(native, rebuilt)
    assert events == REFERENCE.apply(reference, rebuilt) and events
    assert fast.snapshot(native) == REFERENCE.snapshot(reference)


def test_move_codes_are_checked_and_clones_are_independent() -> None:
    fast = fast_game()
    native = fast.new_state({}, 2, 3)
    copy = native.clone()
    with pytest.raises(ValueError, match="not legal"):
        native.apply(1 - native.turn, native.legal(native.turn)[0])
    native.apply(native.turn, native.legal(native.turn)[-1])
    assert native.version == 1 and copy.version == 0
    assert fast.snapshot(copy) == REFERENCE.snapshot(REFERENCE.new_state({}, 2, 3))


def test_loading_refuses_a_state_that_loses_or_doubles_cards() -> None:
    fast = fast_game()
    native = fast.new_state({}, 2, 3)
    data = native.state()
    data["hands"][0].append(data["draw_pile"][0])
    with pytest.raises(ValueError, match="exactly one place"):
        native.load(data)
    assert fast.snapshot(native) == REFERENCE.snapshot(REFERENCE.new_state({}, 2, 3))


def test_seeds_outside_what_the_engine_holds_are_refused() -> None:
    with pytest.raises(ValueError, match="seeds"):
        fast_game().new_state({}, 2, -1)
    with pytest.raises(ValueError, match="seeds"):
        fast_game().new_state({}, 2, 2**64)


def test_determinized_copies_keep_what_the_viewer_sees() -> None:
    fast = fast_game()
    native = fast.new_state({}, 4, 8)
    redealt = fast.determinize(native, 2, random.Random(1))
    assert fast.view(redealt, 2) == fast.view(native, 2)
    assert fast.snapshot(redealt)["hands"] != fast.snapshot(native)["hands"]


@pytest.mark.parametrize("lineup", [("random", "random"), ("heuristic", "random", "random"),
                                    ("search", "heuristic")], ids="-".join)
def test_simulations_give_the_same_results_on_either_engine(lineup: tuple[str, ...]) -> None:
    fast = fast_game()
    factories: dict[str, Any] = {"random": RandomBot, "heuristic": HeuristicTimoBot,
                                 "search": lambda: SearchTimoBot(samples=4)}
    games = 2 if "search" in lineup else 20
    for seed in range(games):
        bots = [factories[name]() for name in lineup]
        options = {"target": 1 if "search" in lineup else 200}
        ours = play_game(fast, options, bots, seed, record=True)
        theirs = play_game(REFERENCE, options, bots, seed, record=True)
        assert (ours.scores, ours.winners, ours.stats, ours.actions) == (
            theirs.scores, theirs.winners, theirs.stats, theirs.actions)


def test_simulations_run_on_the_c_engine() -> None:
    assert type(simulation_engine(timo_entry())).__name__ == "FastTimoGame"
    chunks = list(run_games("timo", {"target": 100}, ["random", "heuristic"], 6, seed=4,
                            workers=1, chunk=3))
    results = [result for chunk in chunks for result in chunk]
    for index, result in enumerate(results):
        bots: list[Any] = [RandomBot(), HeuristicTimoBot()]
        if index % 2:
            bots.reverse()
        again = play_game(REFERENCE, {"target": 100}, bots, 4 + index)
        assert (result.scores, result.winners) == (again.scores, again.winners)


def test_search_rollouts_on_the_c_engine_decide_as_the_python_ones() -> None:
    on_c, in_python = SearchTimoBot(samples=6, native=True), SearchTimoBot(samples=6,
                                                                           native=False)
    decisions = 0
    for seed in range(12):
        players = 2 + seed % 3
        state = REFERENCE.new_state({"stacking": seed % 2 == 0}, players, seed)
        walk = random.Random(seed)
        while not state.over and state.round_no == 1:
            seat = state.turn
            view = REFERENCE.view(state, seat)
            first, second = random.Random(seed * 31 + decisions), random.Random(
                seed * 31 + decisions)
            chosen = on_c.act(view, first)
            assert chosen == in_python.act(view, second)
            assert first.getstate() == second.getstate()
            decisions += 1
            REFERENCE.apply(state, walk.choice(REFERENCE.legal_actions(state, seat)))
    assert decisions > 100
