"""Profiles: who is rated. A profile's id is public; its secret proves who uses it."""

from __future__ import annotations

from fastapi import APIRouter, Request

from twintable.server.address_groups import client_group
from twintable.server.errors import LobbyError
from twintable.server.lobby import bearer
from twintable.server.protocol import (
    CreateProfile,
    GuidedGames,
    MarkGuided,
    PlayerRating,
    Profile,
    RatingPoint,
    RenameProfile,
)
from twintable.server.ratings import RANKED_AFTER_GAMES, RANKED_AFTER_OPPONENTS, conservative
from twintable.server.routes import ERRORS, Authorization, LobbyDep
from twintable.server.routes.leaderboard import leaderboard_row

#: The most points of a rating's history a profile's page is sent.
HISTORY_POINTS = 200

router = APIRouter()


@router.post("/api/profiles", status_code=201, responses={**ERRORS, 429: ERRORS[409]})
async def create_profile(request: CreateProfile, http: Request, lobby: LobbyDep) -> Profile:
    wait = await lobby.profile_quota.take(client_group(http))
    if wait is not None:
        raise LobbyError(429, "profiles.too_many",
                         "too many profiles made from your address; try again in a minute",
                         retry_after_s=max(1, round(wait)))
    player_id, secret = await lobby.server.create_profile(request.display_name)
    return Profile(player_id=player_id, display_name=request.display_name, secret=secret)


@router.get("/api/profiles/{player_id}", responses=ERRORS)
async def profile(player_id: str, lobby: LobbyDep) -> Profile:
    row = await lobby.store.profile(player_id)
    if row is None:
        raise LobbyError(404, "profile.unknown", "no such profile")
    return Profile(player_id=row.id, display_name=row.display_name)


@router.post("/api/profiles/{player_id}/check", responses=ERRORS)
async def check_profile(player_id: str, lobby: LobbyDep,
                        authorization: Authorization = None) -> Profile:
    """Whether a secret key is this profile's (a browser asks before it keeps a profile
    link it was given): the profile's public part, or 403 ``profile.invalid``."""
    await lobby.server.check_profile(player_id, bearer(authorization) or "")
    row = await lobby.store.profile(player_id)
    if row is None:  # gone between the two reads (a restore, say)
        raise LobbyError(403, "profile.invalid", "no such profile")
    return Profile(player_id=row.id, display_name=row.display_name)


@router.put("/api/profiles/{player_id}", responses=ERRORS)
async def rename_profile(player_id: str, request: RenameProfile, lobby: LobbyDep,
                         authorization: Authorization = None) -> Profile:
    """A new name, everywhere the profile is listed; only with the profile's secret."""
    await lobby.server.check_profile(player_id, bearer(authorization))
    await lobby.store.rename_profile(player_id, request.display_name)
    return Profile(player_id=player_id, display_name=request.display_name)


@router.get("/api/profiles/{player_id}/guided", responses=ERRORS)
async def guided_games(player_id: str, lobby: LobbyDep,
                       authorization: Authorization = None) -> GuidedGames:
    """The games whose guided first game this profile started, skipped or finished (only
    with the profile's secret: what a player has learnt is theirs to read)."""
    await lobby.server.check_profile(player_id, bearer(authorization))
    return GuidedGames.model_validate({"games": await lobby.store.guided_games(player_id)})


@router.put("/api/profiles/{player_id}/guided/{game}", responses=ERRORS)
async def mark_guided(player_id: str, game: str, request: MarkGuided, lobby: LobbyDep,
                      authorization: Authorization = None) -> GuidedGames:
    """Records what the profile did with ``game``'s guided game, so that no browser
    holding the profile is offered it again; answers all the profile's marks."""
    await lobby.server.check_profile(player_id, bearer(authorization))
    if game not in lobby.registry:
        raise LobbyError(404, "game.unknown", "no such game")
    await lobby.store.mark_guided(player_id, game, request.how)
    return GuidedGames.model_validate({"games": await lobby.store.guided_games(player_id)})


@router.get("/api/profiles/{player_id}/ratings", responses=ERRORS)
async def profile_ratings(player_id: str, lobby: LobbyDep) -> list[PlayerRating]:
    """A profile's rating in each game it has one (public, as the leaderboard is), each
    with its place and the latest points of its history."""
    store = lobby.store
    if await store.profile(player_id) is None:
        raise LobbyError(404, "profile.unknown", "no such profile")
    ratings: list[PlayerRating] = []
    for row in await store.player_ratings(player_id):
        if row.game not in lobby.registry:
            continue  # a game no longer installed here
        place = await store.leaderboard_place(row.game, player_id, RANKED_AFTER_GAMES,
                                              RANKED_AFTER_OPPONENTS)
        rank = place[0] if place else 0
        history = await store.rating_history(row.game, player_id, HISTORY_POINTS)
        ratings.append(PlayerRating(
            **leaderboard_row(row, rank).model_dump(), game=row.game,
            history=[RatingPoint(games=point.games, rating=conservative(point.mu, point.sigma),
                                 mu=point.mu, sigma=point.sigma, table_id=point.table_id,
                                 at_ms=point.at_ms) for point in history]))
    return ratings
