"""The bot ladder: pairings as documented, ratings that follow results, runs that replay."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from twintable.bots.registry import level_bots
from twintable.core.errors import OptionError
from twintable.core.registry import default_registry
from twintable.sim.ladder import Ladder, climb, game_ladder, lineups, main, parse_ladder, rate
from twintable.sim.runner import GameResult


def result(bots: tuple[str, ...], scores: tuple[int, ...]) -> GameResult:
    best = max(scores)
    return GameResult(seed=0, bots=bots, scores=scores,
                      winners=frozenset(s for s, v in enumerate(scores) if v == best))


def test_pairings_face_to_face_or_on_alternate_seats() -> None:
    two = Ladder("x", "timo", {}, 2, ("a", "b", "c"))
    assert lineups(two) == [("a", "b"), ("a", "c"), ("b", "c")]
    four = Ladder("y", "twins", {}, 4, ("a", "b", "c"))
    assert lineups(four)[0] == ("a", "b", "a", "b")


def test_a_ladder_seats_the_bot_of_each_level_the_game_offers() -> None:
    registry = default_registry()
    for entry in registry.entries():
        names = list(level_bots(entry).values())
        if len(names) < 2:
            continue
        players = max(2, entry.rules.player_range({})[0])
        ladder = parse_ladder(f"{entry.id}:{players}", registry)
        assert ladder == Ladder(f"{entry.id}-{players}p", entry.id, {}, players, tuple(names))
    # No bot people cannot choose (Timo's research bots, Twin It's random touches).
    assert game_ladder("timo", 4).bots == ("random", "greedy", "heuristic", "search")
    assert "random" not in game_ladder("twinit", 2).bots


def test_a_ladder_names_levels_and_may_be_short_or_narrowed() -> None:
    ladder = game_ladder("timo", 2, short=True, only=["random", "learned", "search"])
    assert ladder.bots == ("random", "search", "learned")
    assert ladder.options == {"target": 100}
    assert ladder.levels == {"random": "beginner", "learned": "expert", "search": "expert"}
    report = main(["timo:2", "--games", "1", "--short", "--bots", "random,greedy",
                   "--note", "a smoke run"])
    assert report["note"] == "a smoke run"
    assert report["timo-2p"]["options"] == {"target": 100}
    assert {row["bot"]: row["level"] for row in report["timo-2p"]["ratings"]} == {
        "random": "beginner", "greedy": "easy"}


def test_the_docs_gather_the_ladders_the_games_ship() -> None:
    root = Path(__file__).resolve().parents[2]
    docs = json.loads((root / "docs" / "figures" / "ladder.json").read_text(encoding="utf-8"))
    for entry in default_registry().entries():
        shipped = resources.files(entry.package).joinpath("web", "ladder.json")
        if shipped.is_file():
            assert docs.pop(entry.id) == json.loads(shipped.read_text(encoding="utf-8"))
    assert docs == {}, "the docs gather a ladder no game ships"


def test_a_ladder_that_cannot_be_climbed_is_refused() -> None:
    with pytest.raises(ValueError, match="GAME:PLAYERS"):
        parse_ladder("timo")
    with pytest.raises(OptionError, match="unknown game"):
        parse_ladder("chess:2")
    with pytest.raises(OptionError, match="players"):
        parse_ladder("timo:9")


def test_ratings_follow_the_results_and_shares_count_ties() -> None:
    games = [result(("a", "b"), (300, 40)) for _ in range(6)]
    games += [result(("b", "c"), (310, 12)) for _ in range(6)]
    games.append(result(("a", "c"), (50, 50)))  # a tie: half a win each
    table = rate(games, ["a", "b", "c"])["ratings"]
    assert [row["bot"] for row in table] == ["a", "b", "c"]
    by_bot = {row["bot"]: row for row in table}
    assert by_bot["a"]["games"] == 7 and by_bot["a"]["win_share"] == round(6.5 / 7, 4)
    assert by_bot["c"]["win_share"] == round(0.5 / 7, 4)
    low, high = by_bot["b"]["win_share_interval"]
    assert low < by_bot["b"]["win_share"] < high


def test_a_bot_on_two_seats_is_rated_once_per_game() -> None:
    table = rate([result(("a", "b", "a", "b"), (5, 9, 7, 1))], ["a", "b"])["ratings"]
    assert {row["bot"]: row["games"] for row in table} == {"a": 1, "b": 1}


def test_a_small_ladder_replays() -> None:
    ladder = Ladder("tiny", "timo", {"target": 40}, 2, ("random", "heuristic"))
    first = climb(ladder, 4, seed=3)
    assert climb(ladder, 4, seed=3) == first
    assert first["ratings"][0]["bot"] == "heuristic" and first["ratings"][0]["games"] == 4


def test_the_command_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    report = main(["timo:2", "--games", "1", "--bots", "random,heuristic,search",
                   "--out", str(out)])
    assert out.read_text(encoding="utf-8").startswith("{")
    assert set(report) == {"timo-2p"}
    assert {row["bot"] for row in report["timo-2p"]["ratings"]} == {"random", "heuristic",
                                                                    "search"}
    with pytest.raises(SystemExit):
        main(["nosuchgame:2", "--games", "1"])
