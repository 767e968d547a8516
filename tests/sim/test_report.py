"""Reports by turn order, by team and by round; fixed seats; lengths and margins."""

from __future__ import annotations

from collections import Counter

import pytest

from twintable.core.registry import default_registry
from twintable.sim.export import game_row, result_from_row
from twintable.sim.extension import simulation_engine
from twintable.sim.report import build_report, leader_curve, margin, reading_unit, win_shares
from twintable.sim.runner import GameResult, make_bots, play_game, run_games
from twintable.sim.summary import markdown_summary

REGISTRY = default_registry()


def result(seed: int, winners: set[int], first: int | None = None,
           scores: tuple[int, ...] = (0, 0, 0, 0), bots: tuple[str, ...] = ("a", "b", "a", "b"),
           standings: tuple[tuple[int, ...], ...] = (),
           sides: tuple[int, ...] | None = None) -> GameResult:
    dealer = None if first is None else (first - 1) % len(bots)
    return GameResult(seed, bots, scores, frozenset(winners), first=first, dealer=dealer,
                      standings=standings, sides=sides, steps=10)


def test_turn_order_counts_from_the_first_player_whatever_the_seat() -> None:
    # The first player wins every game, from a different seat each time.
    results = [result(seed, {seed % 4}, first=seed % 4) for seed in range(8)]
    report = build_report("timo", 4, ["a", "b"], 0, {}, results)
    order = report["turn_order"]
    assert [row["name"] for row in order] == ["1st (first player)", "2nd", "3rd",
                                              "4th (dealer)"]
    assert [row["win_rate"] for row in order] == [1.0, 0.0, 0.0, 0.0]
    assert [row["win_rate"] for row in report["seats"]] == [0.25] * 4
    assert order[0]["bots"]["a"] == {"games": 4, "wins": 4.0, "win_rate": 1.0,
                                     "ci95": order[0]["bots"]["a"]["ci95"]}
    assert report["even"] == 0.25
    assert "1st (first player)" in markdown_summary(report)


def test_a_game_without_turns_has_no_turn_order() -> None:
    report = build_report("twinit", 4, ["a", "b"], 0, {}, [result(0, {1})])
    assert report["turn_order"] == []


@pytest.mark.parametrize(("game_id", "lineup", "options"), [
    ("timo", ["heuristic", "random", "random", "random"], {"target": 150}),
    ("twins", ["heuristic", "random", "random", "random"], {"max_hands": 3}),
])
def test_games_report_their_dealer_first_player_and_scores_by_round(
        game_id: str, lineup: list[str], options: dict[str, int]) -> None:
    results = [r for chunk in run_games(game_id, options, lineup, 40, 3, workers=1)
               for r in chunk]
    for played in results:
        assert played.first == (played.dealer + 1) % 4  # type: ignore[operator]
        assert played.standings[-1] == played.scores
        rounds = played.stats.get("rounds", played.stats.get("hands"))
        assert len(played.standings) == rounds and played.steps > 0
    # The first dealer is drawn at random: every seat deals first in some game.
    assert set(Counter(played.dealer for played in results)) == {0, 1, 2, 3}


def test_the_c_engine_reports_what_the_python_rules_do() -> None:
    entry = REGISTRY.entry("timo")
    python, simulator = entry.rules, simulation_engine(entry)
    for seed in range(5):
        ours, theirs = (play_game(game, {"target": 100}, make_bots(entry, ["heuristic"] * 3),
                                  seed) for game in (simulator, python))
        assert (ours.first, ours.dealer, ours.standings, ours.steps) == (
            theirs.first, theirs.dealer, theirs.standings, theirs.steps)


def test_fixed_seats_keep_every_bot_in_its_seat() -> None:
    lineup = ["heuristic", "random", "random"]
    rotating, fixed = ([r.bots for chunk in run_games("timo", {"target": 50}, lineup, 6, 0,
                                                        workers=1, fixed_seats=still)
                        for r in chunk] for still in (False, True))
    assert fixed == [tuple(lineup)] * 6
    assert len(set(rotating)) == 3
    report = build_report("timo", 3, lineup, 0, {"target": 50},
                          [r for chunk in run_games("timo", {"target": 50}, lineup, 6, 0,
                                                    workers=1, fixed_seats=True)
                           for r in chunk], fixed_seats=True)
    assert report["fixed_seats"] and report["seats"][0]["wins"] == report["bots"][
        "heuristic"]["wins"]


def test_a_team_win_counts_whole_for_each_member_against_one_team_in_two() -> None:
    sides = (0, 1, 0, 1)
    # Team 0 ("a" and "a") wins three games of four; one game is a tie between the teams.
    results = [result(0, {0, 2}, sides=sides), result(1, {0, 2}, sides=sides),
               result(2, {0, 2}, sides=sides), result(3, {0, 1, 2, 3}, sides=sides)]
    assert win_shares(results[0]) == {0: 1.0, 2: 1.0}
    assert win_shares(results[3]) == dict.fromkeys(range(4), 0.5)
    report = build_report("twinit", 4, ["a", "b"], 0, {}, results)
    assert report["even"] == 0.5
    assert report["bots"]["a"]["win_rate"] == pytest.approx(3.5 / 4)
    assert report["bots"]["b"]["win_rate"] == pytest.approx(0.5 / 4)
    teams = report["teams"]
    assert [(row["team"], row["seats"], row["win_rate"]) for row in teams["sides"]] == [
        (1, [0, 2], 3.5 / 4), (2, [1, 3], 0.5 / 4)]
    assert set(teams["partnerships"]) == {"a+a", "b+b"}
    assert "partnership" in markdown_summary(report)


def test_twin_it_team_mode_with_fixed_seats_gives_the_team_to_the_named_bots() -> None:
    lineup = ["expert", "beginner", "expert", "beginner"]
    results = [r for chunk in run_games("twinit", {"mode": "team", "sets_to_win": 3}, lineup,
                                        4, 0, workers=1, fixed_seats=True) for r in chunk]
    report = build_report("twinit", 4, lineup, 0, {"mode": "team"}, results, True)
    assert all(r.sides == (0, 1, 0, 1) for r in results)
    assert set(report["teams"]["partnerships"]) == {"expert+expert", "beginner+beginner"}
    assert report["even"] == 0.5
    team_wins = sum(row["wins"] for row in report["teams"]["sides"])
    assert team_wins == pytest.approx(4)


def test_the_leader_after_round_k_is_followed_to_the_end() -> None:
    results = [
        # Seat 0 leads after rounds 1 and 2 and wins.
        result(0, {0}, scores=(30, 0), bots=("a", "b"),
               standings=((10, 0), (20, 5), (30, 0))),
        # Seat 0 leads after round 1, ties after round 2, seat 1 wins.
        result(1, {1}, scores=(10, 40), bots=("a", "b"),
               standings=((10, 0), (10, 10), (10, 40))),
        # Over after round 1: it says nothing about "after round 1".
        result(2, {1}, scores=(0, 50), bots=("a", "b"), standings=((0, 50),)),
    ]
    curve = leader_curve(results)
    assert [(row["round"], row["games"], row["win_rate"]) for row in curve] == [
        (1, 2, 0.5), (2, 1, 1.0)]
    assert [margin(r) for r in results] == [30, 30, 50]


def test_a_team_that_scores_together_wins_by_its_total() -> None:
    """Twins' partners win on their chips together: the margin is the winning team's
    total ahead of the best other team's, not one member's chips against another's (which
    read -5 here)."""
    won_together = GameResult(0, ("a", "b", "a", "b"), (10, 30, 25, 0), frozenset({0, 2}),
                              sides=(0, 1, 0, 1), team_scores=(35, 30))
    assert margin(won_together) == 5
    # Timo's partners each hold the team's score: the same either way.
    timo_like = GameResult(0, ("a", "b", "a", "b"), (60, 20, 60, 20), frozenset({0, 2}),
                           sides=(0, 1, 0, 1), team_scores=(60, 20))
    assert margin(timo_like) == 40
    tied = GameResult(0, ("a", "b", "a", "b"), (10, 30, 25, 5), frozenset({0, 1, 2, 3}),
                      sides=(0, 1, 0, 1), team_scores=(35, 35))
    assert margin(tied) is None


def test_a_simulated_twins_team_game_is_won_by_a_margin() -> None:
    """Whatever the chips of each member, the winning team is never behind: every game's
    margin, read from the game's own team totals, is at least 0, and a kept row reads
    back the same."""
    results = [r for chunk in run_games("twins", {"teams": "alternate"}, ["heuristic"] * 4,
                                        24, 5, workers=1) for r in chunk]
    assert all(r.team_scores is not None and len(r.team_scores) == 2 for r in results)
    assert all(gap is None or gap >= 0 for gap in map(margin, results))
    assert any(gap for gap in map(margin, results))
    rows = [game_row("twins", {"teams": "alternate"}, r) for r in results]
    assert [margin(result_from_row(row)) for row in rows] == list(map(margin, results))


def test_a_short_run_is_flagged_with_the_games_that_would_do() -> None:
    short = build_report("timo", 2, ["a", "b"], 0, {},
                         [result(seed, {seed % 2}, first=0, bots=("a", "b"), scores=(0, 0))
                          for seed in range(20)])
    assert "Warning" in markdown_summary(short) and "2401 games" in markdown_summary(short)


def test_lengths_are_read_in_rounds_unless_every_game_lasts_one() -> None:
    one_round = [r for chunk in run_games("timo", {"target": 1}, ["heuristic"] * 3, 6, 0,
                                          workers=1) for r in chunk]
    many = [r for chunk in run_games("timo", {"target": 100}, ["heuristic"] * 3, 6, 0,
                                     workers=1) for r in chunk]
    short, full = (build_report("timo", 3, ["heuristic"], 0, {}, results)["lengths"]["length"]
                   for results in (one_round, many))
    assert short["rounds"]["min"] == short["rounds"]["max"] == 1
    assert reading_unit([short]) == "turns"
    assert reading_unit([full]) == reading_unit([short, full]) == "rounds"
    assert reading_unit([{"moves": short["moves"]}]) == "moves"


@pytest.mark.parametrize(("game_id", "options", "lineup"), [
    ("timo", {"target": 60}, ["heuristic", "random"]),
    ("twins", {"max_hands": 2}, ["heuristic"] * 3),
    ("twinit", {"sets_to_win": 3}, ["expert", "beginner"]),
])
def test_a_games_length_in_moves_counts_the_moves_played(
        game_id: str, options: dict[str, int], lineup: list[str]) -> None:
    entry = REGISTRY.entry(game_id)
    played = play_game(entry.rules, options, make_bots(entry, lineup), 4, record=True,
                       plan=entry.plan)
    assert played.actions is not None and played.steps == len(played.actions) > 0
