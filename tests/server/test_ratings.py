"""Ratings (``server/ratings.py``): only when there is someone to compare with, only for
a person who made most of their seat's moves, never for one profile in two seats, less
and less for games against the same profile, and ranked only past enough games against
enough opponents."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from typing import Any

import pytest

from tests.server.client import app_client, auth, create_table, profile, start
from tests.server.test_rematch import finished_timo, wait_finished
from twintable.core.game import Outcome
from twintable.server.ratings import (
    RANKED_AFTER_GAMES,
    RANKED_AFTER_OPPONENTS,
    Rated,
    is_ranked,
    new_ratings,
)
from twintable.server.storage.models import RatingRow, SeatRow


class NoStore:
    """Fails if touched: these games must not be rated at all."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the store was used ({name})")


@pytest.mark.parametrize(("players", "winners"), [(1, {0}), (3, {0, 1, 2})],
                         ids=["solo", "cooperative"])
def test_solo_and_cooperative_games_are_not_rated(players: int, winners: set[int]) -> None:
    seats = [SeatRow(table_id="t", seat=seat, kind="human", player_id=f"player-{seat}x",
                     display_name=f"P{seat}") for seat in range(players)]
    outcome = Outcome((3,) * players, frozenset(winners))
    moves = {seat.seat: (5, 5) for seat in seats}
    rated = asyncio.run(new_ratings(NoStore(), "twinit", seats, outcome, moves))  # type: ignore[arg-type]
    assert rated.ratings == [] and rated.met == []


class MemoryStore:
    """The two reads ``new_ratings`` makes, from what earlier games saved here."""

    def __init__(self) -> None:
        self.rows: dict[str, RatingRow] = {}
        self.met: dict[str, dict[str, int]] = {}

    async def ratings(self, game: str, ids: list[str]) -> dict[str, RatingRow]:
        return {i: self.rows[i] for i in ids if i in self.rows}

    async def opponents(self, game: str, ids: list[str]) -> dict[str, dict[str, int]]:
        return {i: dict(self.met[i]) for i in ids if i in self.met}

    def save(self, rated: Rated) -> None:
        for row in rated.ratings:
            self.rows[row.player_id] = row
        for met in rated.met:
            self.met.setdefault(met.player_id, {})[met.opponent] = met.games


def two_people(first: str = "p-ann", second: str = "p-bea") -> list[SeatRow]:
    return [SeatRow(table_id="t", seat=0, kind="human", player_id=first, display_name="Ann"),
            SeatRow(table_id="t", seat=1, kind="human", player_id=second, display_name="Bea")]


ANN_WINS = Outcome((10, 0), frozenset({0}))
BOTH_PLAYED = {0: (20, 20), 1: (20, 20)}


def play(store: MemoryStore, seats: list[SeatRow], outcome: Outcome = ANN_WINS,
         moves: dict[int, tuple[int, int]] | None = None) -> Rated:
    rated = asyncio.run(new_ratings(store, "timo", seats, outcome,  # type: ignore[arg-type]
                                    BOTH_PLAYED if moves is None else moves))
    store.save(rated)
    return rated


def test_a_seat_a_stand_in_played_for_is_not_rated() -> None:
    store = MemoryStore()
    # Bea closed her tab: a stand-in made 15 of her 20 moves; Ann played hers.
    rated = play(store, two_people(), moves={0: (20, 20), 1: (5, 20)})
    assert [row.player_id for row in rated.ratings] == ["p-ann"]
    # Half is not most: a person must have made more than half of their moves.
    assert play(store, two_people(), moves={0: (10, 20), 1: (10, 20)}).ratings == []


def test_one_profile_in_two_seats_is_rated_in_neither() -> None:
    store = MemoryStore()
    seats = [*two_people("p-ann", "p-ann"),
             SeatRow(table_id="t", seat=2, kind="bot", bot="heuristic", display_name="Ada")]
    outcome = Outcome((10, 5, 0), frozenset({0}))
    assert play(store, seats, outcome, {0: (9, 9), 1: (9, 9), 2: (0, 9)}).ratings == []


def test_games_against_the_same_profile_move_a_rating_less_and_less() -> None:
    store = MemoryStore()
    gains = []
    for _ in range(20):  # two accounts farming each other: Ann always wins
        before = store.rows.get("p-ann")
        play(store, two_people())
        after = store.rows["p-ann"]
        gains.append(after.mu - (before.mu if before else 25.0))
    assert all(later < earlier for earlier, later in itertools.pairwise(gains))
    assert gains[-1] < gains[0] / 10
    # Against strangers, each game weighs whole again.
    fresh = MemoryStore()
    fresh_gain = [play(fresh, two_people("p-ann", f"p-{n}")).ratings[0].mu for n in range(3)]
    assert fresh_gain[2] - fresh_gain[1] > gains[2] * 2


def test_farming_one_opponent_never_reaches_the_leaderboard() -> None:
    store = MemoryStore()
    for _ in range(20):
        play(store, two_people())
    ann = store.rows["p-ann"]
    assert ann.games == 20 and ann.opponents == 1
    assert not is_ranked(ann)
    # Games against enough different opponents do rank.
    for n in range(RANKED_AFTER_OPPONENTS):
        play(store, two_people("p-cy", f"p-{n}"))
    for _ in range(RANKED_AFTER_GAMES - RANKED_AFTER_OPPONENTS):
        play(store, two_people("p-cy", "p-0"))
    assert is_ranked(store.rows["p-cy"])


def test_a_game_played_by_stand_ins_rates_nobody_and_one_profile_holds_one_seat(
        sqlite_url: str) -> None:
    """As a new user found: someone who closed the tab after Play again was rated for a
    game a stand-in played for them. And one profile cannot sit twice at a table."""
    with app_client(sqlite_url) as client:
        table_id, _, _ = finished_timo(client)  # both people had profiles
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"
        with sqlite3.connect(sqlite_url.split("///", 1)[1]) as database:
            assert database.execute("SELECT COUNT(*) FROM ratings").fetchone() == (0,)
        ann = profile(client, "Ann")
        made = client.post("/api/tables", json={
            "game": "timo", "players": 3, "display_name": "Ann", **ann,
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]})
        assert made.status_code == 201, made.text
        twice = client.post(f"/api/tables/{made.json()['table']['id']}/join",
                            json={"display_name": "Ann again", **ann})
        assert twice.status_code == 409 and twice.json()["code"] == "profile.seated"


def test_a_conceded_game_is_a_loss_whatever_the_stand_in_made_of_it() -> None:
    """Issue #39: conceding is rated as a loss. Bea conceded early (her stand-in made 18 of
    her 20 moves) and the stand-in then outscored Ann: Bea is still rated, and last."""
    store = MemoryStore()
    stand_in_won = Outcome((0, 10), frozenset({1}))
    rated = asyncio.run(new_ratings(store, "timo", two_people(), stand_in_won,  # type: ignore[arg-type]
                                    {0: (20, 20), 1: (2, 20)}, conceded={1}))
    after = {row.player_id: row.mu for row in rated.ratings}
    assert set(after) == {"p-ann", "p-bea"}
    assert after["p-ann"] > after["p-bea"]  # Ann won, as if Bea had lost outright
    # Without the concession the stand-in's game would not be Bea's: not rated at all.
    alone = asyncio.run(new_ratings(MemoryStore(), "timo", two_people(), stand_in_won,  # type: ignore[arg-type]
                                    {0: (20, 20), 1: (2, 20)}))
    assert [row.player_id for row in alone.ratings] == ["p-ann"]


def test_a_profile_shows_each_rating_with_its_history(sqlite_url: str) -> None:
    """Issue #39's rating history: each rated game adds a point to the player's history
    in that game, which their profile's ratings list shows, oldest first."""
    with app_client(sqlite_url) as client:
        ann = profile(client, "Ann")
        assert client.get(f"/api/profiles/{ann['player_id']}/ratings").json() == []
        for _ in range(2):  # Ann gives two games up against a bot: two rated losses
            made = create_table(client, "timo", 2, {"target": 20}, identity=ann,
                                seats=[{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
                                grace_s=3600)
            table_id, token = made["table"]["id"], made["token"]
            start(client, table_id, token)
            assert client.post(f"/api/tables/{table_id}/concede",
                               headers=auth(token)).status_code == 200
            wait_finished(client, table_id)
        (timo,) = client.get(f"/api/profiles/{ann['player_id']}/ratings").json()
        assert (timo["game"], timo["games"], timo["ranked"]) == ("timo", 2, False)
        points = timo["history"]
        assert [point["games"] for point in points] == [1, 2]
        assert points[0]["at_ms"] <= points[1]["at_ms"]
        assert points[1]["mu"] < points[0]["mu"]  # a second loss
        assert points[1]["rating"] == timo["rating"]  # the last point is the rating now
        assert client.get("/api/profiles/nobody/ratings").json()["code"] == "profile.unknown"
