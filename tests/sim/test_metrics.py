"""Custom metrics (sim/metrics.py) and the statistics of many comparisons (core/stats.py):
named or written metrics read a game safely, and Holm's correction keeps a sweep's
family of comparisons honest."""

from __future__ import annotations

import pytest

from twintable.core.stats import holm, two_sided_p
from twintable.sim.metrics import (
    MetricError,
    cell_context,
    check_names,
    metric_summary,
    parse_metric,
)
from twintable.sim.runner import GameResult


def _game(seed: int, bots: tuple[str, ...], winners: set[int], first: int = 0) -> GameResult:
    return GameResult(seed, bots, tuple(10 * seat for seat in range(len(bots))),
                      frozenset(winners), {"turns": 30.0, "rounds": 3.0}, first=first,
                      dealer=len(bots) - 1, standings=((0,) * len(bots),) * 3, steps=40)


GAMES = [_game(0, ("strong", "weak"), {0}), _game(1, ("weak", "strong"), {1}),
         _game(2, ("strong", "weak"), {1}, first=1), _game(3, ("weak", "strong"), {1})]


def test_the_weaker_side_is_found_per_cell_and_its_share_read_per_game() -> None:
    context = cell_context(2, GAMES)
    assert (context.weakest, context.strongest, context.even) == ("weak", "strong", 0.5)
    weakest = parse_metric("weakest")
    assert [weakest.value(game, context) for game in GAMES] == [0.0, 0.0, 1.0, 0.0]
    summary = metric_summary(parse_metric("weakest - even"), 2, GAMES)
    assert summary["mean"] == pytest.approx(0.25 - 0.5) and summary["games"] == 4


def test_an_expression_reads_lengths_figures_and_a_named_bots_share() -> None:
    context = cell_context(2, GAMES)
    assert parse_metric("turns / rounds").value(GAMES[0], context) == 10.0
    assert parse_metric("share('weak') if first == 1 else -1").value(GAMES[2], context) == 1.0
    assert parse_metric("max(abs(margin), 5)").value(GAMES[0], context) == 10.0
    # A game's own named metric, as its entry declares it.
    assert parse_metric("per_round", {"per_round": "turns / rounds"}).expression == \
        "turns / rounds"
    # No value where the game has none: a bot absent from it, a division by zero.
    assert parse_metric("share('nobody')").value(GAMES[0], context) is None
    assert parse_metric("1 / (rounds - 3)").value(GAMES[0], context) is None


@pytest.mark.parametrize("text", ["__import__('os')", "first.real", "[first]", "open('x')",
                                  "lambda: 1", "first +"])
def test_anything_but_arithmetic_on_the_games_figures_is_refused(text: str) -> None:
    with pytest.raises(MetricError):
        parse_metric(text)


def test_an_unknown_name_is_a_typo_said_with_the_names_there_are() -> None:
    with pytest.raises(MetricError, match=r"unknown name turnz .*turns"):
        check_names(parse_metric("turnz / rounds"), {"turns", "rounds"})
    check_names(parse_metric("max(turns, 1)"), {"turns"})  # a function is no name


def test_holm_scales_each_p_value_for_the_family_and_keeps_the_order() -> None:
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_a_p_value_is_read_back_from_a_95_percent_interval() -> None:
    assert two_sided_p(1.0, 0.0, 2.0) == pytest.approx(0.05, abs=1e-4)
    assert two_sided_p(0.0, -1.0, 1.0) == pytest.approx(1.0)
    assert two_sided_p(0.3, 0.3, 0.3) == 0.0 and two_sided_p(0.0, 0.0, 0.0) == 1.0


def test_precision_holds_a_share_to_points_of_win_rate_but_not_a_count() -> None:
    from twintable.sim.lab import half_widths
    from twintable.sim.report import build_report

    report = build_report("timo", 2, ("strong", "weak"), 0, {}, GAMES)
    share = metric_summary(parse_metric("weakest"), 2, GAMES)
    count = metric_summary(parse_metric("turns * 2"), 2, GAMES)
    assert share["share"] and not count["share"]
    plain = half_widths(report)
    assert len(half_widths({**report, "metric": share})) == len(plain) + 1
    assert half_widths({**report, "metric": count}) == plain
