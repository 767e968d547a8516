"""The replay viewer's data: every step as spectators saw it and, once the game is over,
as each seat saw it (every hand); and the leaderboard's ranks and the asker's own row."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.server.client import app_client, create_table, hello, play_to_end, start
from twintable.core.registry import default_registry
from twintable.core.replay import Replay
from twintable.core.types import events_for
from twintable.server.protocol import REPLAY_PAGE_DEFAULT, REPLAY_PAGE_MAX
from twintable.server.storage.models import RatingRow
from twintable.server.storage.store import Store

REGISTRY = default_registry()
SHORT = {"timo": {"target": 30}, "twins": {"max_hands": 1}}


def finished_table(client: Any, game: str, players: int) -> str:
    joined = create_table(client, game, players, SHORT[game])
    table_id, token = joined["table"]["id"], joined["token"]
    start(client, table_id, token)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, token)
        play_to_end(ws)
    return str(table_id)


@pytest.mark.parametrize(("game_id", "players"), [("timo", 3), ("twins", 3)])
def test_a_finished_game_shows_every_seats_view_of_every_step(
        sqlite_url: str, game_id: str, players: int) -> None:
    with app_client(sqlite_url) as client:
        table_id = finished_table(client, game_id, players)
        replay = client.get(f"/api/tables/{table_id}/replay").json()
        plain = client.get(f"/api/tables/{table_id}/replay/views").json()
        response = client.get(f"/api/tables/{table_id}/replay/views?every_seat=true")
    assert response.status_code == 200, response.text
    steps = response.json()
    game = REGISTRY.get(game_id)
    assert len(steps) == len(plain) == len(replay["actions"]) + 1
    # (steps() yields the live state: each is checked before the next action changes it.)
    expected = Replay.from_json(replay).steps(game)
    for step, before, (action, events, state) in zip(steps, plain, expected, strict=True):
        # The spectators' part is what it always was; each seat's view is the game's own.
        assert {key: step[key] for key in ("action", "events", "view")} == before
        assert step["view"] == game.view(state, None).to_json()
        assert step["events"] == [e.to_json() for e in events_for(events, None)]
        assert step["action"] == (action.to_json() if action is not None else None)
        assert len(step["views"]) == players
        for seat, seen in enumerate(step["views"]):
            assert seen == {**game.view(state, seat).to_json(), "legal": []}
    # The deal: every hand shows, each in its seat's view and in none of the others.
    first = steps[0]["views"]
    assert all(view["hand"] for view in first)
    assert not steps[0]["view"]["hand"]
    ids = [{card["id"] for card in view["hand"]} for view in first]
    assert all(not (ids[a] & ids[b]) for a in range(players) for b in range(a + 1, players))


def test_the_views_of_every_seat_are_refused_before_the_end(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        joined = create_table(client, "timo", 2, {"target": 40})
        table_id = joined["table"]["id"]
        for path in ("", "?every_seat=true", "?every_seat=1"):
            response = client.get(f"/api/tables/{table_id}/replay/views{path}")
            assert response.status_code == 409, response.text
            assert response.json()["code"] == "table.not_finished"
        start(client, table_id, joined["token"])
        response = client.get(f"/api/tables/{table_id}/replay/views?every_seat=true")
        assert response.status_code == 409 and response.json()["code"] == "table.not_finished"
        assert "hand" not in response.text
        assert client.get("/api/tables/nope/replay/views?every_seat=true").status_code == 404


def test_the_default_answer_keeps_its_shape(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table_id = finished_table(client, "timo", 2)
        plain = client.get(f"/api/tables/{table_id}/replay/views?every_seat=false",
                           headers={"accept-encoding": "identity"})
        zipped = client.get(f"/api/tables/{table_id}/replay/views?every_seat=false",
                            headers={"accept-encoding": "gzip"})
    # Gzipped for a client that takes it, the same JSON either way.
    assert "content-encoding" not in plain.headers
    assert zipped.headers["content-encoding"] == "gzip"
    assert zipped.headers["content-type"] == "application/json"
    assert len(zipped.content) > 0 and zipped.json() == plain.json()
    steps = plain.json()
    assert steps[0]["action"] is None and steps[0]["events"] == []
    assert all(set(step) == {"action", "events", "view"} for step in steps)
    assert all(step["view"]["viewer"] is None for step in steps)


def test_the_replay_comes_in_pages_with_the_same_steps(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table_id = finished_table(client, "twins", 3)
        url = f"/api/tables/{table_id}/replay"
        whole = client.get(f"{url}/views?every_seat=true").json()
        moves = len(client.get(url).json()["actions"])
        assert len(whole) == moves + 1 > 7
        pages: list[dict[str, Any]] = []
        start = 0
        while start <= moves:  # pages of 7, then the rest: the last page is shorter
            page = client.get(f"{url}/steps?every_seat=true&from={start}&count=7").json()
            assert page["from"] == start and page["moves"] == moves
            assert 1 <= len(page["steps"]) <= 7
            pages.append(page)
            start += len(page["steps"])
        # Any window, any size: the very steps of the whole answer, gzipped or not.
        middle = client.get(f"{url}/steps?every_seat=true&from={moves // 2}&count=3",
                            headers={"accept-encoding": "gzip"})
        spectators = client.get(f"{url}/steps?from={moves}").json()
        default = client.get(f"{url}/steps").json()
    assert [step for page in pages for step in page["steps"]] == whole
    assert len(pages[-1]["steps"]) == ((moves + 1) % 7 or 7)
    # Spectators still see no hand; each seat its own, from the game's view function.
    paged = [step for page in pages for step in page["steps"]]
    assert all(step["view"]["viewer"] is None for step in paged)
    assert not paged[0]["view"]["hand"] and all(view["hand"] for view in paged[0]["views"])
    assert [view["viewer"] for view in paged[0]["views"]] == [0, 1, 2]
    assert middle.headers["content-encoding"] == "gzip"
    assert middle.json() == {"from": moves // 2, "moves": moves,
                             "steps": whole[moves // 2:moves // 2 + 3]}
    # Without every_seat: the spectators' part alone; without a window: the first page.
    assert spectators["steps"] == [{key: whole[moves][key] for key in ("action", "events", "view")}]
    assert default["from"] == 0 and len(default["steps"]) == min(moves + 1, REPLAY_PAGE_DEFAULT)
    assert all("views" not in step for step in default["steps"])


def test_a_bad_page_is_refused_with_a_reason(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        table_id = finished_table(client, "timo", 2)
        url = f"/api/tables/{table_id}/replay/steps"
        moves = client.get(f"{url}?count=1").json()["moves"]
        last = client.get(f"{url}?from={moves}&count={REPLAY_PAGE_MAX}")
        assert last.status_code == 200 and len(last.json()["steps"]) == 1
        for query, field in [("count=0", "count"), (f"count={REPLAY_PAGE_MAX + 1}", "count"),
                             ("from=-1", "from"), ("from=x", "from"), ("count=2.5", "count")]:
            response = client.get(f"{url}?{query}")
            assert response.status_code == 422, query
            refusal = response.json()
            assert refusal["code"] == "request.invalid", query
            assert refusal["message"].startswith(f"{field}: "), refusal
        past = client.get(f"{url}?from={moves + 1}")
        assert past.status_code == 422
        assert past.json()["code"] == "replay.past_end"
        assert str(moves) in past.json()["message"]
        # Before the end, a page is as secret as the whole: refused, no hand in it.
        joined = create_table(client, "timo", 2, {"target": 40})
        running = joined["table"]["id"]
        start(client, running, joined["token"])
        early = client.get(f"/api/tables/{running}/replay/steps?every_seat=true&count=1")
        assert early.status_code == 409 and early.json()["code"] == "table.not_finished"
        assert "hand" not in early.text
        assert client.get("/api/tables/nope/replay/steps").status_code == 404


def rate(db_url: str, game: str,
         ratings: dict[str, tuple[float, float, int, int]]) -> None:
    """Save ratings: (mu, sigma, games, distinct opponents) by player."""
    async def save() -> None:
        store = Store(db_url)
        await store.save_ratings([RatingRow(game=game, player_id=player, display_name=player,
                                            mu=mu, sigma=sigma, games=games,
                                            opponents=opponents)
                                  for player, (mu, sigma, games, opponents)
                                  in ratings.items()])
        await store.close()

    asyncio.run(save())


def test_the_leaderboard_ranks_players_and_finds_the_askers_row(db_url: str) -> None:
    with app_client(db_url) as client:  # migrates the database
        assert client.get("/api/leaderboard/timo").json() == []
    rate(db_url, "timo", {"p-a": (30.0, 2.0, 9, 4), "p-b": (28.0, 1.0, 5, 3),
                          "p-c": (28.0, 1.0, 6, 3), "p-d": (20.0, 3.0, 5, 3),
                          "p-e": (25.0, 8.0, 5, 5),
                          # Twenty games against one other account: provisional.
                          "p-f": (40.0, 1.0, 20, 1),
                          # Three opponents, but four games only: provisional too.
                          "p-g": (45.0, 1.0, 4, 3)})
    rate(db_url, "twins", {"p-e": (40.0, 1.0, 5, 3)})
    with app_client(db_url) as client:
        board = client.get("/api/leaderboard/timo").json()
        assert [(row["player_id"], row["rank"]) for row in board] == [
            ("p-b", 1), ("p-c", 1), ("p-a", 3), ("p-d", 4), ("p-e", 5)]
        assert board[0]["rating"] == pytest.approx(25.0)
        assert board[0]["games"] == 5 and board[0]["opponents"] == 3
        assert all(row["ranked"] for row in board)
        top = client.get("/api/leaderboard/timo?limit=2&player=p-d").json()
        assert [(row["player_id"], row["rank"]) for row in top] == [
            ("p-b", 1), ("p-c", 1), ("p-d", 4)]
        assert top[-1]["rating"] == pytest.approx(11.0) and top[-1]["games"] == 5
        # A provisional rating is shown to its owner alone, with the rank it would have.
        farmer = client.get("/api/leaderboard/timo?limit=2&player=p-f").json()[-1]
        assert (farmer["player_id"], farmer["rank"], farmer["ranked"]) == ("p-f", 1, False)
        # Already among the best: not twice. Unknown here, or rated in another game only:
        # nothing added.
        assert len(client.get("/api/leaderboard/timo?limit=2&player=p-c").json()) == 2
        assert len(client.get("/api/leaderboard/timo?limit=2&player=p-zz").json()) == 2
        assert [row["rank"] for row in
                client.get("/api/leaderboard/twins?player=p-a").json()] == [1]
        assert client.get("/api/leaderboard/timo?player=" + "x" * 65).status_code == 422
