"""What the server tells clients about each game, read from the game's entry
(``core/plugin.py``): the ``/api/games`` items, and the game's browser module served from
its own package.

Nothing here knows any game: every fact comes from an entry, its rules' declarations, or
the files in the game's package (``rules/<lang>.md``, ``web/``).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from twintable.bots.registry import bot_factories, default_bot, offered_bots
from twintable.core.game import Game
from twintable.core.plugin import GameEntry
from twintable.core.registry import GameRegistry
from twintable.server.assets import assets_version
from twintable.server.extension import ServerGame
from twintable.server.protocol import BotLevelInfo, GameInfo, TutorialInfo, WebModule

#: Where a game's browser module is served: ``<package>/web/`` at ``/static/games/<id>/``.
STATIC_GAMES = "/static/games"
#: The shell's own browser client.
SHELL_WEB = Path(__file__).resolve().parent.parent / "web"


def players_by_mode(game: Game[Any]) -> dict[str, list[int]] | None:
    """For a game with a ``mode`` option: the fewest and most players of each mode."""
    mode = game.options_schema.options.get("mode")
    if mode is None or mode.kind != "choice":
        return None
    return {str(choice): list(game.player_range({"mode": choice})) for choice in mode.choices}


def web_folder(entry: GameEntry) -> Path | None:
    """The game's ``web/`` folder in its package, if it has one."""
    folder = resources.files(entry.package).joinpath("web")
    return Path(str(folder)) if folder.is_dir() else None


def client_folders(registry: GameRegistry) -> dict[str, Path]:
    """Every folder of the browser client, by where it is served below ``/static/``."""
    return {"": SHELL_WEB, **{f"games/{entry.id}/": folder for entry in registry.entries()
                              if (folder := web_folder(entry)) is not None}}


def client_version(registry: GameRegistry) -> str:
    """The version of every file the browser loads: the shell's and each game's
    (``server/assets.py``), the same on every worker of one install."""
    return assets_version(client_folders(registry).values())


def web_module(entry: GameEntry, version: str | None = None) -> WebModule | None:
    """The addresses of the game's browser module, its styles and its strings, as served
    by :func:`mount_game_clients`, under the install's ``version`` (None: the game's
    package has no ``web/index.js``)."""
    folder = web_folder(entry)
    if folder is None or not (folder / "index.js").is_file():
        return None
    base = (f"/static/{version}/games/{entry.id}" if version
            else f"{STATIC_GAMES}/{entry.id}")
    return WebModule(module=f"{base}/index.js",
                     styles=[f"{base}/{css.name}" for css in sorted(folder.glob("*.css"))],
                     i18n=f"{base}/i18n/" if (folder / "i18n").is_dir() else None,
                     pictures=f"{base}/pictures.js" if (folder / "pictures.js").is_file() else None,
                     ladder=f"{base}/ladder.json" if (folder / "ladder.json").is_file()
                     else None)


def rules_languages(entry: GameEntry) -> list[str]:
    """The languages the game's rules pages are written in (``rules/<lang>.md``)."""
    folder = resources.files(entry.package).joinpath("rules")
    if not folder.is_dir():
        return []
    return sorted(item.name.removesuffix(".md") for item in folder.iterdir()
                  if item.name.endswith(".md"))


def game_info(entry: GameEntry, version: str | None = None) -> GameInfo:
    """One ``/api/games`` item: everything a client needs from the game's declaration
    (its client's files under the install's ``version``)."""
    game = entry.rules
    levels = {name: bot.level for bot in offered_bots(entry)
              for name in (bot.name, *bot.aliases)}
    # The guided game's bot is seated only there: never among the bots people choose.
    guide = entry.tutorial().bot.name if entry.tutorial is not None else None
    bots = sorted(name for name in bot_factories(entry) if name != guide)
    return GameInfo(
        id=game.id, name=game.name, min_players=game.min_players,
        max_players=game.max_players, options=game.options_schema.to_json(), bots=bots,
        default_bot=default_bot(entry), players_by_mode=players_by_mode(game),
        levels=[BotLevelInfo(bot=name, level=levels[name]) for name in bots if name in levels],
        unversioned_kinds=sorted(game.unversioned_kinds),
        rematch=entry.extension(ServerGame).rematch_options is not None,
        web=web_module(entry, version),
        rules_languages=rules_languages(entry),
        minutes={mode: minutes for mode, (_, minutes) in game.table_minutes.items()},
        tutorial=tutorial_info(entry))


def tutorial_info(entry: GameEntry) -> TutorialInfo | None:
    """The hints of the game's guided game, where it has one whose bot can run here."""
    guided = entry.tutorial() if entry.tutorial is not None else None
    if guided is None or not guided.bot.available():
        return None
    return TutorialInfo.model_validate(guided.to_json())


def mount_game_clients(app: FastAPI, registry: GameRegistry) -> None:
    """Serve each game's ``<package>/web/`` at ``/static/games/<id>/``; call before the
    client's own ``/static`` is mounted, which it shadows there."""
    for entry in registry.entries():
        folder = web_folder(entry)
        if folder is not None:
            app.mount(f"{STATIC_GAMES}/{entry.id}", StaticFiles(directory=folder),
                      name=f"game-{entry.id}")
