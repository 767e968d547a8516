"""Profiles: who is rated. A profile's id is public; its secret proves who uses it."""

from __future__ import annotations

from fastapi import APIRouter, Request

from twintable.server.address_groups import client_group
from twintable.server.errors import LobbyError
from twintable.server.lobby import bearer
from twintable.server.protocol import CreateProfile, Profile, RenameProfile
from twintable.server.routes import ERRORS, Authorization, LobbyDep

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
