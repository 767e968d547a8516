"""Timo's Twist and Twins as OpenSpiel games (twintable.envs.openspiel registers every
game's; the face is twintable.envs.openspiel_face): OpenSpiel's own
random simulation test, loading by name, observers that leak nothing, the engine's
results for the same actions, and OpenSpiel's IS-MCTS playing them."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import twintable.envs.openspiel  # noqa: E402, F401  (registers every game's)
from twintable.games.timo.research.openspiel import TIMO_NAME  # noqa: E402
from twintable.games.timo.rules import TimoGame  # noqa: E402
from twintable.games.twins.research.openspiel import TWINS_NAME  # noqa: E402
from twintable.games.twins.rules import TwinsGame  # noqa: E402

GAMES = [
    (TIMO_NAME, {"players": 2, "target": 60}),
    (TIMO_NAME, {"players": 4, "target": 1}),
    (TWINS_NAME, {"players": 3, "max_hands": 2}),
    (TWINS_NAME, {"players": 5, "max_hands": 1}),
]
IDS = [f"{name.rsplit('_', 1)[1]}-{params['players']}p" for name, params in GAMES]


def random_states(game: Any, seed: int, limit: int = 400) -> list[Any]:
    """Every state of one random game (up to ``limit`` moves), start and end included."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    states = [state.clone()]
    while not state.is_terminal() and len(states) < limit:
        state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


@pytest.mark.parametrize(("name", "params"), GAMES, ids=IDS)
def test_openspiel_random_sim_test_passes(name: str, params: dict[str, Any]) -> None:
    # serialize=False: pyspiel serialises a sampled-stochastic game through the game's
    # RNG state, which a Python game cannot provide (docs/openspiel.md).
    game = pyspiel.load_game(name, {**params, "seed": 5})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_games_load_by_name_with_their_parameters() -> None:
    timo = pyspiel.load_game("python_twintable_timo(players=4,target=100,stacking=False)")
    assert timo.num_players() == 4
    assert timo.get_parameters()["target"] == 100
    assert timo.rules.options == {"deck": "timo54", "stacking": False,
                                  "draw_when_able": False, "target": 100, "hand_size": 7,
                                  "teams": ()}
    twins = pyspiel.load_game(TWINS_NAME, {"players": 6, "max_hands": 3})
    assert twins.num_players() == 6
    assert twins.max_game_length() == 3 * 5 * 6
    assert twins.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game(TWINS_NAME, {"players": 2})


@pytest.mark.parametrize(("name", "params"), GAMES, ids=IDS)
def test_the_same_seed_and_actions_give_the_same_game(name: str,
                                                      params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    first, second = random_states(game, 3, 60), random_states(game, 3, 60)
    assert [s.observation_string(0) for s in first] == [s.observation_string(0)
                                                        for s in second]
    assert [s.history() for s in first] == [s.history() for s in second]


def hidden_hands(state: Any, player: int) -> list[list[int]]:
    engine = state.engine
    hands = engine.state()["hands"] if hasattr(engine, "state") else engine.hands
    return [sorted(hand) for seat, hand in enumerate(hands) if seat != player]


@pytest.mark.parametrize(("name", "params"), GAMES, ids=IDS)
def test_observers_never_show_what_the_seat_has_not_seen(name: str,
                                                         params: dict[str, Any]) -> None:
    """Re-deal everything a seat has not seen: its observation and information state,
    strings and tensors, must not change, though the other hands did."""
    game = pyspiel.load_game(name, params)
    public = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    public_observer = game.make_py_observer(public)
    sampler = random.Random(9).random
    redealt = 0
    for state in random_states(game, 11, 120)[::3]:
        for player in range(game.num_players()):
            other = state.resample_from_infostate(player, sampler)
            redealt += hidden_hands(other, player) != hidden_hands(state, player)
            assert other.information_state_string(player) == \
                state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            np.testing.assert_array_equal(other.observation_tensor(player),
                                          state.observation_tensor(player))
            assert public_observer.string_from(other, player) == \
                public_observer.string_from(state, player)
            if player == state.current_player():
                assert other.legal_actions() == state.legal_actions()
    assert redealt > 10  # the check compared states that really differ


def test_a_twins_pick_stays_secret_until_the_reveal() -> None:
    game = pyspiel.load_game(TWINS_NAME, {"players": 3})
    state = game.new_initial_state(seed=4)
    while state.engine.phase == "buy":
        state.apply_action(state.legal_actions()[0])
    picker = state.current_player()
    before = {seat: state.information_state_string(seat) for seat in range(3)}
    state.apply_action(state.legal_actions()[-1])
    following = state.current_player()
    assert following != picker
    seen_by_other = state.information_state_string(following)
    assert seen_by_other.startswith(before[following])
    assert seen_by_other.splitlines()[-1].startswith(f"{picker}:pick ")
    assert state.information_state_string(picker).splitlines()[-1].startswith(
        f"{picker}:{state.history()[-1]} ")


def replay_on_reference(name: str, game: Any, state: Any) -> Any:
    """The state's actions replayed on the reference engine (TimoGame / TwinsGame) from
    the same seed, checking at every step that both offer the same moves."""
    reference_game = TimoGame() if name == TIMO_NAME else TwinsGame()
    rules = game.rules
    reference = reference_game.new_state(rules.options, game.num_players(),
                                         state.engine_seed)
    replay = game.new_initial_state(seed=state.engine_seed)
    for action_id in state.history():
        seat = replay.current_player()
        offered = {rules.id_of(a) for a in reference_game.legal_actions(reference, seat)}
        assert offered == set(replay.legal_actions())
        reference_game.apply(reference, rules.action_of(seat, action_id))
        replay.apply_action(action_id)
    return reference_game, reference


@pytest.mark.parametrize(("name", "params"), GAMES, ids=IDS)
def test_results_are_the_engines_for_the_same_actions(name: str,
                                                      params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    for seed in (1, 2):
        state = random_states(game, seed, 100_000)[-1]
        assert state.is_terminal()
        reference_game, reference = replay_on_reference(name, game, state)
        outcome = reference_game.outcome(reference)
        assert outcome is not None
        assert state.scores() == list(outcome.scores)
        assert state.returns() == [1 / len(outcome.winners) if seat in outcome.winners
                                   else 0.0 for seat in range(game.num_players())]
        assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize(("name", "params"), [GAMES[1], GAMES[2]], ids=[IDS[1], IDS[2]])
def test_openspiel_ismcts_plays_the_games(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    random_state = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, random_state), 1.4,
                           max_simulations=8, random_state=random_state)
    state = game.new_initial_state(seed=8)
    for _ in range(6):
        action = bot.step(state)  # resamples through resample_from_infostate
        assert action in state.legal_actions()
        state.apply_action(action)


def test_timo_plays_on_the_python_rules_without_the_c_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from twintable.games.timo.research import openspiel

    monkeypatch.setattr(openspiel, "NATIVE", False)
    game = openspiel.TimoOpenSpielGame({"players": 3, "target": 1})
    assert type(game.rules.game) is TimoGame
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    state = random_states(game, 6, 100_000)[-1]
    _, reference = replay_on_reference(TIMO_NAME, game, state)
    assert state.returns()[reference.round_winner] == 1.0


# -- what a game cannot serve fails fast ---------------------------------------------------

@pytest.mark.parametrize("walker", ["python-cfr", "cpp-cfr", "tabular-policy",
                                    "nash-conv"])
def test_algorithms_that_walk_the_whole_tree_fail_fast_with_a_clear_error(
        walker: str) -> None:
    """CFR on Twins once grew to 13.7 GB: an exhaustive walk now stops at its first
    backtrack, with the tree's size and what to use instead."""
    import resource

    from open_spiel.python import policy
    from open_spiel.python.algorithms import cfr, exploitability

    from twintable.envs.openspiel import TreeWalkError

    game = pyspiel.load_game(TWINS_NAME, {"players": 3, "max_hands": 1})
    walks = {"python-cfr": lambda: cfr.CFRSolver(game),
             "cpp-cfr": lambda: pyspiel.CFRSolver(game),
             "tabular-policy": lambda: policy.TabularPolicy(game),
             "nash-conv": lambda: exploitability.nash_conv(
                 game, policy.UniformRandomPolicy(game))}
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(TreeWalkError, match=r"cannot be walked exhaustively.*10\^\d+.*IS-MCTS"):
        walks[walker]()
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 200_000


def test_exact_algorithms_are_refused_by_name_up_front_and_sampling_ones_pass() -> None:
    from twintable.envs.openspiel import TreeWalkError, check_algorithm

    game = pyspiel.load_game(TIMO_NAME, {"players": 2, "target": 60})
    for name in ("cfr", "CFR+", "nash_conv", "best_response"):
        with pytest.raises(TreeWalkError, match="Timo"):
            check_algorithm(game, name)
    for name in ("mcts", "ismcts", "dqn"):
        check_algorithm(game, name)


def test_a_game_walked_with_child_one_move_at_a_time_is_not_a_tree_walk() -> None:
    game = pyspiel.load_game(TWINS_NAME, {"players": 3, "max_hands": 2})
    state, rng = game.new_initial_state(seed=1), random.Random(1)
    while not state.is_terminal():
        state = state.child(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == pytest.approx(1.0)
