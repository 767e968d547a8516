"""The leaderboard: each game's best rated players, ranked by a conservative rating."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from twintable.server.errors import LobbyError
from twintable.server.protocol import LeaderboardRow
from twintable.server.ratings import (
    RANKED_AFTER_GAMES,
    RANKED_AFTER_OPPONENTS,
    conservative,
    is_ranked,
)
from twintable.server.routes import ERRORS, LobbyDep
from twintable.server.storage.models import RatingRow

router = APIRouter()


@router.get("/api/leaderboard/{game_id}", responses=ERRORS)
async def leaderboard(
        game_id: str, lobby: LobbyDep, limit: int = 50,
        player: Annotated[str | None, Query(max_length=64)] = None,
) -> list[LeaderboardRow]:
    """The best ranked players of a game, best first, each with its rank (equal ratings
    share one); a rating is ranked once it rests on enough games against enough
    distinct opponents (``server/ratings.py``). ``player``: that player's row comes last
    too when it is not among them, marked provisional when it is not ranked yet (nothing
    is added for a player without a rating in this game)."""
    store = lobby.store
    if game_id not in lobby.registry:
        raise LobbyError(404, "game.unknown", "no such game")
    rows = await store.leaderboard(game_id, max(1, min(limit, 500)), RANKED_AFTER_GAMES,
                                   RANKED_AFTER_OPPONENTS)
    ranked: list[LeaderboardRow] = []
    for r in rows:
        rating = conservative(r.mu, r.sigma)
        rank = (ranked[-1].rank if ranked and ranked[-1].rating == rating
                else len(ranked) + 1)
        ranked.append(leaderboard_row(r, rank))
    if player is not None and all(row.player_id != player for row in ranked):
        place = await store.leaderboard_place(game_id, player, RANKED_AFTER_GAMES,
                                              RANKED_AFTER_OPPONENTS)
        if place is not None:
            ranked.append(leaderboard_row(place[1], place[0]))
    return ranked


def leaderboard_row(rating: RatingRow, rank: int) -> LeaderboardRow:
    """A rating as the leaderboard lists it, at place ``rank``."""
    return LeaderboardRow(player_id=rating.player_id, display_name=rating.display_name,
                          rating=conservative(rating.mu, rating.sigma), mu=rating.mu,
                          sigma=rating.sigma, games=rating.games, rank=rank,
                          opponents=rating.opponents or 0, ranked=is_ranked(rating))
