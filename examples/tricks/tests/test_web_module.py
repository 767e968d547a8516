"""The web module: its pure parts under Node's built-in runner (tests/web/*.test.mjs, run
against the installed Twin Table's client), and catalogues that say the same things in
every language."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import pytest
import twintable

HERE = Path(__file__).parent / "web"
LANGUAGES = ("en", "fr", "ko", "nl")


def catalogue(lang: str) -> dict[str, str]:
    text = resources.files("twintable_tricks").joinpath("web", "i18n", f"{lang}.json")
    data: dict[str, str] = json.loads(text.read_text(encoding="utf-8"))
    return data


def test_the_modules_pure_parts_pass_under_node() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("TWINTABLE_REQUIRE_SERVICES") == "1":
            pytest.fail("node is required (TWINTABLE_REQUIRE_SERVICES=1)")
        pytest.skip("node is not installed")
    web = Path(twintable.__file__).parent / "web"
    run = subprocess.run([node, "--test", *sorted(map(str, HERE.glob("*.test.mjs")))],
                         capture_output=True, text=True, timeout=120, check=False,
                         env={**os.environ, "TWINTABLE_WEB": str(web)})
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_has_every_line(lang: str) -> None:
    """The same keys as English, plural forms included: Korean's one form is written
    under ``#one`` and ``#other`` alike, as in every other catalogue."""
    assert set(catalogue(lang)) == set(catalogue("en"))


#: Keys the shell looks up for every game (src/twintable/web/README.md), shared by games:
#: a game's bot names and the replay's caption for each action kind.
SHARED = {"bot.heuristic", "replay.action.play"}


def test_the_catalogues_hold_only_this_games_keys() -> None:
    """Every game's catalogue is merged with the shell's: a key outside the game's own
    names could overwrite another game's line (the shared ones say what the others do)."""
    for lang in LANGUAGES:
        for key in catalogue(lang):
            assert key.startswith(("tricks.", "event.tricks.", "option.tricks.",
                                   "bots.about.tricks.")) or key in {
                "game.tricks", "game.tricks.about", *SHARED}, key


def test_shared_keys_say_what_the_other_games_say() -> None:
    """Catalogues are merged in no fixed order: a shared key must read the same in every
    game that has it."""
    for lang in LANGUAGES:
        mine = catalogue(lang)
        for path in (Path(twintable.__file__).parent / "games").glob(f"*/web/i18n/{lang}.json"):
            theirs = json.loads(path.read_text(encoding="utf-8"))
            for key in SHARED & set(theirs):
                assert mine[key] == theirs[key], (lang, key, path)
