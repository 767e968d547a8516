"""The browser client's pure parts (narration, plurals, layout, clocks, option forms),
tested under Node's built-in runner (``node --test tests/web/js``): no browser, no npm.

Without Node the test skips, except when TWINTABLE_REQUIRE_SERVICES=1, where it fails
(as the browser tests do: CI must run it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from twintable.bots.registry import bot_factories
from twintable.core.registry import default_registry

HERE = Path(__file__).parent / "js"


def game_clients() -> dict[str, dict[str, Any]]:
    """Every registered game's client folder and what the shell will ask its catalogues
    for (clients.test.mjs): its options, their choices, its action kinds and its bots."""
    clients: dict[str, dict[str, Any]] = {}
    for entry in default_registry().entries():
        game = entry.rules
        web = Path(str(resources.files(entry.package).joinpath("web")))
        options = game.options_schema.options.values()
        clients[game.id] = {
            "web": f"{web}/",
            "options": [option.name for option in options],
            "choices": sorted({str(choice) for option in options for choice in option.choices}),
            "kinds": sorted(game.payloads),
            "bots": sorted(bot_factories(entry))}
    return clients


def test_the_clients_pure_parts_pass_under_node() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("TWINTABLE_REQUIRE_SERVICES") == "1":
            pytest.fail("node is required (TWINTABLE_REQUIRE_SERVICES=1)")
        pytest.skip("node is not installed")
    tests = sorted(str(path) for path in HERE.glob("*.test.mjs"))
    assert len(tests) >= 5
    env = {**os.environ, "TWINTABLE_GAME_CLIENTS": json.dumps(game_clients())}
    run = subprocess.run([node, "--test", *tests], capture_output=True, text=True, timeout=120,
                         check=False, env=env)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout


def test_the_shell_names_no_game() -> None:
    """Everything about one game lives in its own client (games/<id>/web): the shell's
    modules, page and styles never name a game."""
    web = Path(__file__).parents[2] / "src" / "twintable" / "web"
    ids = default_registry().ids()
    assert ids
    named = re.compile(r"\b(" + "|".join(map(re.escape, ids)) + r")\b")
    files = [path for pattern in ("*.js", "*/*.js", "*.html", "*.css")
             for path in web.glob(pattern)]
    assert len(files) > 10
    found = [f"{path.relative_to(web)}:{number}: {line.strip()}"
             for path in files for number, line in enumerate(path.read_text().splitlines(), 1)
             if named.search(line)]
    assert found == []
