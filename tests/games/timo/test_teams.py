"""Timo's Twist in teams (the ``teams`` option): the team going out scores its opponents'
cards only, partners share the score and the win, on the Python rules, the C engine, the
simulations and the environment alike."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.timo.native import mirrored_apply, require_native
from tests.games.timo.scenario import GAME, build, card
from twintable.core.errors import OptionError
from twintable.core.types import Action
from twintable.games.timo.fast import NATIVE
from twintable.sim.report import build_report
from twintable.sim.runner import run_games

ALTERNATE = {"teams": "alternate"}
ENGINES = [pytest.param(True, id="native"), pytest.param(False, id="reference")]


def going_out(native: bool, options: dict[str, Any], scores: list[int] | None = None
              ) -> tuple[Any, list[str]]:
    """Four seats, alternate teams: seat 0 goes out with blue 1 while its partner (seat 2)
    holds 9 + 20 points and the opponents 7 + 50 and 3."""
    state = build([["blue 1"], ["pink 7", "colour"], ["green 9", "green stop"], ["pink 3"]],
                  top="blue 5", options=options, scores=scores)
    action = Action(0, "play", {"card": card("blue 1")})
    if native:
        require_native()
        events = mirrored_apply(GAME, state, action)
    else:
        events = GAME.apply(state, action)
    return state, [event.kind for event in events]


@pytest.mark.parametrize("native", ENGINES)
def test_the_team_going_out_scores_the_opponents_cards_only(native: bool) -> None:
    state, _ = going_out(native, ALTERNATE)
    assert state.scores == [60, 0, 60, 0]  # 7 + 50 + 3; the partner's 29 count nothing
    solo, _ = going_out(native, {})
    assert solo.scores == [7 + 50 + 9 + 20 + 3, 0, 0, 0]


@pytest.mark.parametrize("native", ENGINES)
def test_the_first_team_to_the_target_wins_with_both_partners(native: bool) -> None:
    state, kinds = going_out(native, {**ALTERNATE, "target": 100}, scores=[45, 90, 45, 90])
    assert kinds[-1] == "game_over" and state.over
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == {0, 2} and outcome.scores == (105, 90, 105, 90)
    assert outcome.to_json() == {"scores": [105, 90, 105, 90], "winners": [0, 2],
                                 "teams": [0, 1, 0, 1], "team_scores": [105, 90]}
    assert GAME.sides(state) == (0, 1, 0, 1)


def test_round_and_game_events_name_the_winning_team() -> None:
    state = build([["blue 1"], ["pink 7"], ["green 9"], ["pink 3"]], top="blue 5",
                  options={**ALTERNATE, "target": 5})
    events = GAME.apply(state, Action(0, "play", {"card": card("blue 1")}))
    by_kind = {event.kind: event.data for event in events}
    assert by_kind["round_over"]["winners"] == [0, 2] and by_kind["round_over"]["points"] == 10
    assert by_kind["game_over"]["winners"] == [0, 2]


def test_a_table_with_teams_that_do_not_fit_is_refused_before_it_exists() -> None:
    for players, teams in ((3, "alternate"), (5, "alternate"), (4, [1, 1, 1, 2])):
        with pytest.raises(OptionError) as error:
            GAME.check_players(players, {"teams": teams})
        assert error.value.code == "teams.invalid"
    GAME.check_players(5, {"teams": [1, 2, 1, 2, 2]})


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), teams=st.sampled_from(
    [("alternate", 4), ([1, 1, 2, 2], 4), ([1, 2, 1, 2, 2], 5), ([1, 2, 3, 1, 2, 3], 6),
     ("alternate", 6)]), choices=st.randoms())
def test_team_games_keep_every_card_and_partners_level_on_both_engines(
        seed: int, teams: tuple[Any, int], choices: random.Random) -> None:
    value, players = teams
    options = {"teams": value, "target": 60}
    reference = GAME.new_state(options, players, seed)
    fast: Any = None
    if NATIVE:
        from twintable.games.timo.fast import FastTimoGame

        fast = FastTimoGame()
        native = fast.new_state(options, players, seed)
    deck = list(range(reference.deck.size))
    sides = GAME.sides(reference)
    assert sides is not None
    for _ in range(3000):
        if GAME.is_over(reference):
            break
        seat = choices.choice(sorted(GAME.to_act(reference)))
        action = choices.choice(GAME.legal_actions(reference, seat))
        GAME.apply(reference, action)
        assert GAME.conserved(reference)["cards"] == deck
        for a in range(players):
            for b in range(players):
                if sides[a] == sides[b]:
                    assert reference.scores[a] == reference.scores[b]
        if fast is not None:
            fast.apply(native, action)
            assert fast.snapshot(native) == GAME.snapshot(reference)
    outcome = GAME.outcome(reference)
    if outcome is not None:
        assert outcome.winners == {s for s in range(players)
                                   if sides[s] == sides[reference.round_winner]}
        if fast is not None:
            assert fast.outcome(native) == outcome


def test_simulations_report_team_win_rates_and_every_win_is_a_whole_team() -> None:
    options = {"teams": "alternate", "target": 60}
    lineup = ["heuristic", "random", "heuristic", "random"]
    results = [r for chunk in run_games("timo", options, lineup, 12, 0, workers=1)
               for r in chunk]
    assert all(r.sides == (0, 1, 0, 1) for r in results)
    for r in results:
        assert r.winners in ({0, 2}, {1, 3})
    report = build_report("timo", 4, lineup, 0, options, results)
    assert report["even"] == 0.5
    sides = report["teams"]["sides"]
    assert [row["seats"] for row in sides] == [[0, 2], [1, 3]]
    assert sum(row["wins"] for row in sides) == pytest.approx(12)
    assert all(0 <= row["ci95"][0] <= row["win_rate"] <= row["ci95"][1] <= 1 for row in sides)


@pytest.mark.parametrize("native", ENGINES)
def test_the_environment_ends_with_the_winning_team_in_every_info(native: bool) -> None:
    pytest.importorskip("pettingzoo")
    if native:
        require_native()
    from twintable.games.timo import env as timo_v0

    env = timo_v0.raw_env(4, {"teams": "alternate", "target": 60}, native=native)
    env.reset(seed=11)
    rng = random.Random(11)
    while not env.state.over:
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
    info = env.infos["seat_0"]
    assert info["winners"] in ([0, 2], [1, 3])
    scores = info["scores"]
    assert scores[0] == scores[2] and scores[1] == scores[3] and max(scores) >= 60


def test_the_vector_engine_refuses_teams() -> None:
    pytest.importorskip("gymnasium")
    require_native()
    from twintable.games.timo.research.vector import TimoVectorEnv

    with pytest.raises(ValueError, match="teams"):
        TimoVectorEnv(2, players=4, options={"teams": "alternate"})


@pytest.mark.parametrize("teams,aware,expected", [
    ([1, 1, 2, 2], True, "blue 3"),      # the partner plays next: spare them the Stop
    ([1, 1, 2, 2], False, "blue stop"),  # a partner-blind bot stops its own partner
    ([1, 2, 1, 2], True, "blue stop"),   # an opponent next, at two cards: stop them
    ((), True, "blue stop"),
])
def test_the_heuristic_bot_spares_a_partner_who_plays_next(teams: Any, aware: bool,
                                                            expected: str) -> None:
    from twintable.games.timo.bots import HeuristicTimoBot

    state = build([["blue stop", "blue 3", "green 7"], ["pink 1", "pink 2"],
                   ["green 1", "green 2", "green 3"], ["pink 4", "pink 5", "pink 6"]],
                  top="blue 5", options={"teams": teams})
    action = HeuristicTimoBot(partner_aware=aware).choose_turn(GAME.view(state, 0))
    assert action.payload["card"] == card(expected)


def test_a_partners_round_counts_for_the_search_as_its_own() -> None:
    from twintable.games.timo.bots import _round_value

    state = build([["blue 1"], ["pink 7"], ["green 9"], ["pink 3"]], top="blue 5",
                  options={"teams": [1, 1, 2, 2]})
    view = GAME.view(state, 1)
    assert _round_value(view, 0, [10, 10, 0, 0]) == pytest.approx(0.1)
    assert _round_value(view, 2, [0, 0, 10, 10]) == pytest.approx(-0.1)


def test_the_search_decides_a_team_game_alike_on_both_engines() -> None:
    require_native()
    from twintable.games.timo.bots import SearchTimoBot

    on_c, in_python = SearchTimoBot(samples=6, native=True), SearchTimoBot(samples=6,
                                                                           native=False)
    decisions = 0
    for seed in range(4):
        state = GAME.new_state({"teams": [1, 1, 2, 2]}, 4, seed)
        walk = random.Random(seed)
        while not state.over and state.round_no == 1 and decisions < 30 * (seed + 1):
            seat = state.turn
            view = GAME.view(state, seat)
            first, second = random.Random(seed * 31 + decisions), random.Random(
                seed * 31 + decisions)
            assert on_c.act(view, first) == in_python.act(view, second)
            decisions += 1
            GAME.apply(state, walk.choice(GAME.legal_actions(state, seat)))
    assert decisions > 40


def test_the_sim_command_reports_team_win_shares_with_intervals(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from twintable.cli import app

    report_path = tmp_path / "teams.json"
    result = CliRunner().invoke(app, [
        "sim", "timo", "--players", "4", "--games", "10", "--bots", "heuristic",
        "--option", "teams=alternate", "--option", "target=40", "--workers", "1",
        "--json", str(report_path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Teams (even line 50.0%: one team in 2)" in result.output
    report = json.loads(report_path.read_text())
    assert report["options"]["teams"] == "alternate" and report["even"] == 0.5
    sides = report["teams"]["sides"]
    assert [(row["team"], row["seats"]) for row in sides] == [(1, [0, 2]), (2, [1, 3])]
    assert sum(row["wins"] for row in sides) == pytest.approx(10)
    refused = CliRunner().invoke(app, ["sim", "timo", "--players", "3", "--games", "1",
                                       "--option", "teams=alternate"])
    assert refused.exit_code != 0 and "even number of players" in refused.output


def test_the_terminal_names_each_seats_team_and_the_winning_team(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.console import Console

    from twintable.games.timo.terminal import describe_event, render

    monkeypatch.setenv("TWINTABLE_LANG", "en")
    state = build([["blue 1"], ["pink 7"], ["green 9"], ["pink 3"]], top="blue 5",
                  options={**ALTERNATE, "target": 5})
    names = ["Ann", "Bo", "Cy", "Di"]
    events = GAME.apply(state, Action(0, "play", {"card": card("blue 1")}))
    view = GAME.view(state, 0)
    lines = [describe_event(view, event, names, 0) for event in events]
    assert "Ann goes out: their team scores 10 points" in lines
    assert "Ann and Cy win!" in lines
    console = Console(width=100, record=True)
    console.print(render(view, names))
    text = console.export_text()
    assert "Ann (Team 1)" in text and "Bo (Team 2)" in text


@pytest.mark.parametrize("exposed,catches", [(1, False), (2, True)])
def test_bots_catch_an_opponent_who_forgot_timo_but_never_a_partner(exposed: int,
                                                                     catches: bool) -> None:
    from twintable.games.timo.bots import HeuristicTimoBot, timo_reaction

    state = build([["blue 3", "blue 4"], ["pink 1"], ["green 1"], ["pink 4", "pink 5"]],
                  top="blue 5", options={"teams": [1, 1, 2, 2]}, turn=3)
    state.exposed = exposed
    view = GAME.view(state, 0)
    assert any(a.kind == "catch" and a.payload["target"] == exposed for a in view.legal)
    action = HeuristicTimoBot().act(view, random.Random(0))
    assert (action is not None and action.kind == "catch") is catches
    if not catches:  # nor at a table with people, however quick it is
        assert all(timo_reaction(HeuristicTimoBot(), view, random.Random(seed)) is None
                   for seed in range(20))
