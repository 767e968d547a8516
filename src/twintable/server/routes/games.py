"""The games: what each offers (options, bots, seats, its client), its rules page and its
assets, all read from the game's entry (``server/catalog.py``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from twintable.server.catalog import game_info
from twintable.server.errors import LobbyError
from twintable.server.extension import ServerGame
from twintable.server.protocol import GameInfo
from twintable.server.routes import ERRORS, LobbyDep
from twintable.server.rules_pages import rules_page

router = APIRouter()


@router.get("/api/games")
async def games(lobby: LobbyDep, request: Request) -> list[GameInfo]:
    version = getattr(request.app.state, "assets_version", None)
    return [game_info(entry, version) for entry in lobby.registry.entries()]


@router.get("/api/games/{game_id}/rules", responses=ERRORS)
async def rules(game_id: str, lobby: LobbyDep, lang: str = "en") -> dict[str, Any]:
    """The game's rules page for players as HTML, in ``lang`` (else English)."""
    registry = lobby.registry
    if game_id not in registry:
        raise LobbyError(404, "game.unknown", "no such game")
    entry = registry.entry(game_id)
    return rules_page(entry.package, lang, entry.rules.table_minutes).to_json()


@router.get("/api/games/{game_id}/assets", responses=ERRORS)
async def assets(game_id: str, lobby: LobbyDep) -> dict[str, Any]:
    """Whatever a client needs to draw the game (Twin It: the SVG of every picture)."""
    registry = lobby.registry
    if game_id not in registry:
        raise LobbyError(404, "game.unknown", "no such game")
    assets = registry.entry(game_id).extension(ServerGame).assets
    return assets() if assets is not None else {}
