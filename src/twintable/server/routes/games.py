"""The games: what each offers (options, bots, seats), its rules page and its assets."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from twintable.bots.registry import bot_factories
from twintable.server.errors import LobbyError
from twintable.server.protocol import GameInfo
from twintable.server.routes import ERRORS, LobbyDep
from twintable.server.rules_pages import rules_page

router = APIRouter()


def players_by_mode(game: Any) -> dict[str, list[int]] | None:
    mode = game.options_schema.options.get("mode")
    if mode is None or mode.kind != "choice":
        return None
    return {str(choice): list(game.player_range({"mode": choice}))
            for choice in mode.choices}


@router.get("/api/games")
async def games(lobby: LobbyDep) -> list[GameInfo]:
    return [GameInfo(id=g.id, name=g.name, min_players=g.min_players,
                     max_players=g.max_players, options=g.options_schema.to_json(),
                     bots=sorted(bot_factories(g)),
                     default_bot=lobby.default_bot(g.id),
                     players_by_mode=players_by_mode(g),
                     unversioned_kinds=sorted(g.unversioned_kinds),
                     minutes={mode: minutes for mode, (_, minutes) in g.table_minutes.items()})
            for g in lobby.registry]


@router.get("/api/games/{game_id}/rules", responses=ERRORS)
async def rules(game_id: str, lobby: LobbyDep, lang: str = "en") -> dict[str, Any]:
    """The game's rules page for players as HTML, in ``lang`` (else English)."""
    registry = lobby.registry
    if game_id not in registry:
        raise LobbyError(404, "game.unknown", "no such game")
    return rules_page(registry.get(game_id), lang).to_json()


@router.get("/api/games/{game_id}/assets", responses=ERRORS)
async def assets(game_id: str, lobby: LobbyDep) -> dict[str, Any]:
    """Whatever a client needs to draw the game (Twin It: the SVG of every picture)."""
    registry = lobby.registry
    if game_id not in registry:
        raise LobbyError(404, "game.unknown", "no such game")
    return registry.get(game_id).assets()
