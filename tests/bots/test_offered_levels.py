"""What every installed game offers people (issue 39): levels from the one scale
(Beginner, Easy, Medium, Hard, Expert) in its order, one bot a level; each described in
plain words in every language; and a shipped bot ladder that rates exactly those bots.

How strong each level is against the one below is measured by ``bench/levels.py``, not
here."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from twintable.bots.registry import level_bots, offered_bots
from twintable.core.plugin import LEVELS, GameEntry
from twintable.core.registry import default_registry
from twintable.server.catalog import game_info, web_folder

ENTRIES = default_registry().entries()
LANGUAGES = ("en", "fr", "ko", "nl")
SHELL_I18N = Path(__file__).resolve().parents[2] / "src" / "twintable" / "web" / "i18n"
#: Words of the trade a player should not meet in a bot's description (any language).
JARGON = re.compile(r"monte[- ]?carlo|mcts|openspiel|neural|neuronal|neuraal|신경망|"
                    r"heuristi|policy|politique|algorithm|rollout|information[- ]set|"
                    r"tree search|sampl|network|réseau|netwerk|openskill|μ", re.IGNORECASE)


def ids(entry: GameEntry) -> str:
    return entry.id


@pytest.mark.parametrize("entry", ENTRIES, ids=ids)
def test_levels_follow_the_scale_one_bot_each(entry: GameEntry) -> None:
    offered = [bot.level for bot in offered_bots(entry)]
    assert offered == [level for level in LEVELS if level in offered], offered
    assert list(level_bots(entry)) == offered
    if offered:  # a game whose bots cannot run here (Twinz without its words) offers none
        assert entry.default_bot in level_bots(entry).values()


def strings(entry: GameEntry, language: str) -> dict[str, str]:
    shell = json.loads((SHELL_I18N / f"{language}.json").read_text(encoding="utf-8"))
    folder = web_folder(entry)
    own = folder / "i18n" / f"{language}.json" if folder is not None else None
    game = json.loads(own.read_text(encoding="utf-8")) if own and own.is_file() else {}
    return {**shell, **game}


@pytest.mark.parametrize("entry", [e for e in ENTRIES if web_folder(e) is not None], ids=ids)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_level_is_described_in_plain_words(entry: GameEntry, language: str) -> None:
    catalogue = strings(entry, language)
    for bot in level_bots(entry).values():
        key = "bots.about.random" if bot == "random" else f"bots.about.{entry.id}.{bot}"
        assert catalogue.get(key), f"{key} is missing in {language}"
        assert not JARGON.search(catalogue[key]), (key, catalogue[key])
    assert not JARGON.search(catalogue["leaderboard.bots_explain"])


def test_the_jargon_check_can_fail() -> None:
    assert JARGON.search("OpenSpiel's information-set Monte Carlo tree search")
    assert not JARGON.search("plays the first card it may")


@pytest.mark.parametrize("entry", [e for e in ENTRIES
                                   if (f := web_folder(e)) and (f / "ladder.json").is_file()],
                         ids=ids)
def test_a_shipped_ladder_rates_the_bots_the_game_offers(entry: GameEntry) -> None:
    folder = web_folder(entry)
    assert folder is not None
    report = json.loads((folder / "ladder.json").read_text(encoding="utf-8"))
    assert report.pop("note")
    offered = {bot: level for level, bot in level_bots(entry).items()}
    if not offered:
        pytest.skip(f"{entry.id}'s bots cannot run here")
    assert report
    for name, ladder in report.items():
        assert name == f"{entry.id}-{ladder['players']}p" and ladder["game"] == entry.id
        rated = {row["bot"]: row["level"] for row in ladder["ratings"]}
        assert rated == offered, name


def test_every_built_in_game_ships_a_ladder_that_api_games_names() -> None:
    for game in ("timo", "twins", "twinit", "twinz"):
        web = game_info(default_registry().entry(game)).web
        assert web is not None and web.ladder == f"/static/games/{game}/ladder.json", game
