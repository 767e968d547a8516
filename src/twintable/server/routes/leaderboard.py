"""The leaderboard: each game's best rated players, ranked by a conservative rating."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from twintable.server.errors import LobbyError
from twintable.server.protocol import LeaderboardRow
from twintable.server.ratings import conservative
from twintable.server.routes import ERRORS, LobbyDep

router = APIRouter()


@router.get("/api/leaderboard/{game_id}", responses=ERRORS)
async def leaderboard(
        game_id: str, lobby: LobbyDep, limit: int = 50,
        player: Annotated[str | None, Query(max_length=64)] = None,
) -> list[LeaderboardRow]:
    """The best rated players of a game, best first, each with its rank (equal ratings
    share one); ``player``: that player's row comes last too when it is not among
    them (nothing is added for a player without a rating in this game)."""
    store = lobby.store
    if game_id not in lobby.registry:
        raise LobbyError(404, "game.unknown", "no such game")
    rows = await store.leaderboard(game_id, max(1, min(limit, 500)))
    ranked: list[LeaderboardRow] = []
    for r in rows:
        rating = conservative(r.mu, r.sigma)
        rank = (ranked[-1].rank if ranked and ranked[-1].rating == rating
                else len(ranked) + 1)
        ranked.append(LeaderboardRow(player_id=r.player_id, display_name=r.display_name,
                                     rating=rating, mu=r.mu, sigma=r.sigma,
                                     games=r.games, rank=rank))
    if player is not None and all(row.player_id != player for row in ranked):
        place = await store.leaderboard_place(game_id, player)
        if place is not None:
            rank, r = place
            ranked.append(LeaderboardRow(
                player_id=r.player_id, display_name=r.display_name,
                rating=conservative(r.mu, r.sigma), mu=r.mu, sigma=r.sigma,
                games=r.games, rank=rank))
    return ranked
