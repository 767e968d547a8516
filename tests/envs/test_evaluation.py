"""evaluate(): seats rotate, runs replay, ties are shared, and the figures it gives rank
policies the way their strength says."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from twintable.envs import evaluate
from twintable.envs.evaluation import Evaluation, masked_random

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
SHORT_TIMO = {"target": 60}


def test_the_policy_seat_moves_round_the_table_and_a_run_replays() -> None:
    result = evaluate(masked_random(1), "random", 9, seed=3, game="timo", players=3,
                      options=SHORT_TIMO)
    assert isinstance(result, Evaluation)
    assert {seat: games for seat, (games, _) in result.by_seat.items()} == {0: 3, 1: 3, 2: 3}
    assert sum(wins for _, wins in result.by_seat.values()) == result.wins
    low, high = result.win_interval
    assert low <= result.win_rate <= high
    r_low, r_high = result.return_interval
    assert r_low <= result.mean_return <= r_high
    again = evaluate(masked_random(1), "random", 9, seed=3, game="timo", players=3,
                     options=SHORT_TIMO)
    assert again == result


def test_a_bot_as_the_policy_and_the_ranking_it_gives() -> None:
    strong = evaluate("heuristic", "random", 30, seed=0, game="timo", options=SHORT_TIMO)
    weak = evaluate(masked_random(0), "heuristic", 30, seed=0, game="timo", options=SHORT_TIMO)
    assert strong.win_interval[0] > 0.5 > weak.win_interval[1]
    assert strong.mean_return > 0 > weak.mean_return
    assert "games: win rate" in str(strong)


def test_everyone_winning_is_a_shared_win() -> None:
    # Cooperative Twin It: every seat wins together, so each game is a share of 1/players.
    result = evaluate(masked_random(0), "casual", 2, game="twinit", players=2,
                      options={"mode": "coop", "duration_s": 10}, max_ticks=200)
    assert result.wins == pytest.approx(1.0)


def test_bad_requests_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        evaluate(masked_random(0), "random", 0, game="timo")
    with pytest.raises(ValueError, match="unknown bot"):
        evaluate("grandmaster", "random", 1, game="timo", options=SHORT_TIMO)
    with pytest.raises(ValueError, match="no bot at level easy"):
        evaluate(masked_random(0), "easy", 1, game="twins")
