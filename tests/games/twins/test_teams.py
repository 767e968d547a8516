"""Twins in teams (the ``teams`` option): play is unchanged and each seat keeps its own
chips; at the end the team holding the most chips together wins, every member alike
(ties share, a bankrupt member counts 0), on the rules and both engines of the
environment."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.twins.scenario import GAME
from twintable.core.errors import OptionError
from twintable.games.twins.rules import final_outcome
from twintable.games.twins.state import OVER
from twintable.sim.report import build_report
from twintable.sim.runner import run_games

ENGINES = [pytest.param(True, id="native"), pytest.param(False, id="reference")]


def test_the_team_with_the_most_chips_together_wins() -> None:
    outcome = final_outcome([10, 5, 3, 9], [False] * 4, (0, 1, 0, 1))
    assert outcome.winners == {1, 3}  # 14 against 13, though seat 0 holds the most
    assert outcome.scores == (10, 5, 3, 9) and outcome.team_scores == (13, 14)
    assert outcome.to_json()["teams"] == [0, 1, 0, 1]


def test_teams_level_on_chips_share_the_win() -> None:
    assert final_outcome([7, 5, 3, 5], [False] * 4, (0, 1, 0, 1)).winners == {0, 1, 2, 3}


def test_a_bankrupt_member_adds_nothing_to_the_team() -> None:
    outcome = final_outcome([2, 6, 0, 5, 4, 0], [False, False, True, False, False, True],
                            (0, 1, 2, 0, 1, 2))
    assert outcome.team_scores == (7, 10, 0) and outcome.winners == {1, 4}


def test_without_teams_the_richest_seat_wins_as_before() -> None:
    outcome = final_outcome([10, 5, 10], [False] * 3, None)
    assert outcome.winners == {0, 2} and outcome.teams is None
    assert "teams" not in outcome.to_json()


def test_teams_that_do_not_fit_the_table_are_refused() -> None:
    for players, teams in ((3, [1, 2, 1]), (5, "alternate"), (6, [1, 1, 2, 2, 2, 3])):
        with pytest.raises(OptionError) as error:
            GAME.check_players(players, {"teams": teams})
        assert error.value.code == "teams.invalid"


def play_out(options: dict[str, Any], players: int, seed: int) -> tuple[Any, list[Any]]:
    rng = random.Random(seed)
    state = GAME.new_state(options, players, seed)
    history = []
    while state.phase != OVER and state.hand_no <= 40:
        acting = sorted(GAME.to_act(state))
        GAME.apply(state, rng.choice([a for s in acting for a in GAME.legal_actions(state, s)]))
        history.append((list(state.chips), state.bank))
    return state, history


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), teams=st.sampled_from(
    [("alternate", 4), ([1, 1, 2, 2, 2], 5), ([1, 2, 3, 3, 2, 1], 6), ("alternate", 6)]),
       starting_chips=st.integers(2, 12))
def test_teams_change_no_move_only_who_wins(seed: int, teams: tuple[Any, int],
                                            starting_chips: int) -> None:
    value, players = teams
    base = {"max_hands": 4, "starting_chips": starting_chips}
    state, history = play_out({**base, "teams": value}, players, seed)
    _, solo_history = play_out(base, players, seed)
    assert history == solo_history  # the same moves move the same chips
    assert all(sum(chips) + bank == starting_chips * players for chips, bank in history)
    outcome = GAME.outcome(state)
    assert outcome is not None  # four hands at most
    sides = GAME.sides(state)
    assert sides is not None
    totals = [sum(0 if state.out[s] else state.chips[s] for s in range(players)
                  if sides[s] == team) for team in range(max(sides) + 1)]
    assert outcome.winners == {s for s in range(players) if totals[sides[s]] == max(totals)}


@pytest.mark.parametrize("native", ENGINES)
def test_the_environment_ends_with_the_winning_team_in_every_info(native: bool) -> None:
    pytest.importorskip("pettingzoo")
    from twintable.games.twins import env as twins_v0

    if native and not twins_v0.NATIVE:
        pytest.skip("the C engine of Twins was not built")
    for seed in range(4):
        env = twins_v0.raw_env(players=4, options={"teams": [1, 1, 2, 2], "max_hands": 2},
                               native=native)
        env.reset(seed=seed)
        rng = random.Random(seed)
        while not all(env.terminations.values()):
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(rng.choice(np.flatnonzero(mask).tolist()))
        info = env.infos["seat_0"]
        chips = info["scores"]
        totals = [chips[0] + chips[1], chips[2] + chips[3]]  # a bankrupt seat holds 0
        expected = [s for s in range(4) if totals[s // 2] == max(totals)]
        assert info["winners"] == expected
        assert env.rewards["seat_0"] == env.rewards["seat_1"]


def test_simulations_report_team_win_rates() -> None:
    options = {"teams": "alternate", "max_hands": 3}
    lineup = ["heuristic", "random", "heuristic", "random"]
    results = [r for chunk in run_games("twins", options, lineup, 8, 0, workers=1)
               for r in chunk]
    assert all(r.sides == (0, 1, 0, 1) for r in results)
    report = build_report("twins", 4, lineup, 0, options, results)
    assert [row["seats"] for row in report["teams"]["sides"]] == [[0, 2], [1, 3]]
    assert sum(row["wins"] for row in report["teams"]["sides"]) == pytest.approx(8)
