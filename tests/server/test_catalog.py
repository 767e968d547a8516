"""What /api/games says about each game comes from its entry (server/catalog.py): bot
levels, option units and seat options, moves without a version, the rematch rule, the
rules languages and the game's browser module, served from its own package."""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.server.client import app_client
from twintable.core.game import Game
from twintable.core.plugin import GameEntry
from twintable.core.registry import GameRegistry, default_registry
from twintable.games.timo import TimoGame
from twintable.server.catalog import game_info, mount_game_clients, web_module
from twintable.server.rules_pages import LANGUAGES


def test_games_carry_levels_units_seat_options_races_and_rematches(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
    timo, twinit, twinz = games["timo"], games["twinit"], games["twinz"]
    assert {"bot": "random", "level": "beginner"} in timo["levels"]
    assert {"bot": "search", "level": "expert"} in timo["levels"]
    # Research bots are seated by name, at no level people are offered.
    assert "learned" in timo["bots"] and all(
        level["bot"] not in ("learned", "ismcts") for level in timo["levels"])
    for game in games.values():
        kept_off = {"random"} if game["id"] in ("twinz", "twinit") else set()
        kept_off |= {"learned", "ismcts"} if game["id"] == "timo" else set()
        assert [level["bot"] for level in game["levels"]] == [
            bot for bot in game["bots"] if bot not in kept_off]
        assert game["rules_languages"] == list(LANGUAGES)
        for option in game["options"]:
            assert {"unit", "names_seats"} <= set(option)
    options = {option["name"]: option for option in twinit["options"]}
    assert options["taboo"]["names_seats"] and not options["teams"]["names_seats"]
    assert options["hold_ms"]["unit"] == "ms" and options["duration_s"]["unit"] == "s"
    assert options["taboo"]["modes"] == ["competitive", "team"]
    assert {o["name"]: o["unit"] for o in timo["options"]}["target"] == "points"
    assert twinit["unversioned_kinds"] == ["touch", "turn_over"]
    assert timo["unversioned_kinds"] == [] and twinz["unversioned_kinds"] == []
    assert [game["id"] for game in games.values() if game["rematch"]] == ["twinit"]
    # Twinz's random bot (random letters as clues) is seated by name only, at no level.
    assert "random" in twinz["bots"] and all(
        level["bot"] != "random" for level in twinz["levels"])
    # Play now seats Twin It's Beginner; its former name still reads as that level.
    assert twinit["default_bot"] == "beginner"
    assert {"bot": "relaxed", "level": "beginner"} in twinit["levels"]


def test_a_games_length_is_its_measured_one_and_a_game_measuring_none_still_lists() -> None:
    measured = GameEntry(TimoGame(), "twintable.games.timo")
    assert game_info(measured).minutes == {"": TimoGame.table_minutes[""][1]}

    class Unmeasured(TimoGame):
        table_minutes = Game.table_minutes

    info = game_info(GameEntry(Unmeasured(), "twintable.games.timo"))
    assert info.minutes == {} and info.id == "timo"


@pytest.fixture
def game_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """An installed game package with a browser module, strings and a rules page."""
    package = tmp_path / "demo_game"
    (package / "web" / "i18n").mkdir(parents=True)
    (package / "rules").mkdir()
    (package / "__init__.py").write_text("")
    (package / "web" / "index.js").write_text("export const id = 'demo';\n")
    (package / "web" / "table.css").write_text(".demo {}\n")
    (package / "web" / "cards.css").write_text(".card {}\n")
    (package / "web" / "i18n" / "en.json").write_text('{"demo.title": "Demo"}\n')
    (package / "rules" / "en.md").write_text("## Overview\n")
    (package / "rules" / "nl.md").write_text("## Overzicht\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    # Each test's package is its own, not the one an earlier test imported.
    monkeypatch.delitem(sys.modules, "demo_game", raising=False)
    return "demo_game"


def test_a_games_browser_module_is_served_from_its_package(game_package: str) -> None:
    entry = GameEntry(TimoGame(), game_package)
    base = "/static/games/timo"
    info = game_info(entry)
    assert info.web is not None and info.web.model_dump() == {
        "module": f"{base}/index.js", "styles": [f"{base}/cards.css", f"{base}/table.css"],
        "i18n": f"{base}/i18n/", "pictures": None, "ladder": None}
    # A small pictures module, where the game has one, draws its lobby tile and rules cards.
    (Path(sys.modules[game_package].__file__).parent / "web" / "pictures.js").write_text(
        "export default {};\n")
    assert game_info(entry).web.pictures == f"{base}/pictures.js"  # type: ignore[union-attr]
    assert info.rules_languages == ["en", "nl"]
    registry = GameRegistry()
    registry.register(entry)
    app = FastAPI()
    mount_game_clients(app, registry)
    with TestClient(app) as client:
        assert client.get(f"{base}/index.js").text == "export const id = 'demo';\n"
        assert client.get(f"{base}/i18n/en.json").json() == {"demo.title": "Demo"}
        assert client.get(f"{base}/nothing.js").status_code == 404


def test_a_game_without_a_browser_module_says_so(game_package: str, tmp_path: Path) -> None:
    (tmp_path / game_package / "web" / "index.js").unlink()
    assert web_module(GameEntry(TimoGame(), game_package)) is None


def test_the_shell_still_serves_its_own_files_beside_the_games(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        assert client.get("/static/app.js").status_code == 200


def test_every_game_that_ships_a_bot_ladder_names_it_for_the_bots_tab() -> None:
    """The leaderboard's bots tab reads each game's ladder where ``/api/games`` names it
    (``web.ladder``), for any installed game, never a file of the shell's: a game that
    ships ``web/ladder.json`` (the four built-in ones) is named, with only its own
    ladders in it."""
    shipped = []
    for entry in default_registry().entries():
        folder = resources.files(entry.package).joinpath("web")
        web = web_module(entry)
        assert web is not None
        if not folder.joinpath("ladder.json").is_file():
            assert web.ladder is None
            continue
        shipped.append(entry.id)
        assert web.ladder == f"/static/games/{entry.id}/ladder.json"
        ladders = json.loads(folder.joinpath("ladder.json").read_text(encoding="utf-8"))
        assert {ladder["game"] for ladder in ladders.values() if isinstance(ladder, dict)} \
            == {entry.id}
    assert {"timo", "twins", "twinit", "twinz"} <= set(shipped)
