"""Twin Tricks touches nothing outside its package: Twin Table finds it only through the
``twintable.games`` entry point of this distribution, no file of Twin Table names it, and
the package keeps Twin Table's layers (the rules know no shell)."""

from __future__ import annotations

import ast
import re
from importlib import metadata
from pathlib import Path

import twintable

import twintable_tricks

TWINTABLE = Path(twintable.__file__).resolve().parent
PACKAGE = Path(twintable_tricks.__file__).resolve().parent
#: Text files of Twin Table that a game could be named in (code, client, catalogues, data).
TEXT_SUFFIXES = {".py", ".pyi", ".js", ".mjs", ".json", ".css", ".html", ".md", ".toml",
                 ".txt", ".c"}


def test_no_file_of_twin_table_names_the_game() -> None:
    named = re.compile(r"\btricks\b|twintable_tricks|twin tricks", re.IGNORECASE)
    files = [path for path in TWINTABLE.rglob("*") if path.suffix in TEXT_SUFFIXES]
    assert len(files) > 100  # the whole package was read
    mentions = [str(path.relative_to(TWINTABLE)) for path in files
                if named.search(path.read_text(encoding="utf-8", errors="replace"))]
    assert mentions == []


def test_the_game_is_found_only_through_this_packages_entry_point() -> None:
    points = [point for point in metadata.entry_points(group="twintable.games")
              if point.name == "tricks"]
    assert len(points) == 1
    (point,) = points
    assert point.value == "twintable_tricks.plugin:entry"
    assert point.dist is not None and point.dist.name == "twintable-tricks"
    own = metadata.distribution("twintable").entry_points
    assert "tricks" not in {point.name for point in own if point.group == "twintable.games"}


def test_the_registry_holds_the_game_beside_the_built_in_ones() -> None:
    from twintable.core.registry import default_registry

    registry = default_registry()
    assert "tricks" in registry
    entry = registry.entry("tricks")
    assert entry.package == "twintable_tricks" and entry.rules.name == "Twin Tricks"
    assert {"timo", "twins", "twinit", "twinz"} <= set(registry.ids())


#: Per module of this package, the Twin Table layers it may import: the game's rules,
#: views and bots sit on ``core`` (and ``bots``, the bot contract); its environment is a
#: research shell's part and its terminal game the terminal's (it reads the shared
#: catalogue); its entry names the rest lazily, by dotted name.
ALLOWED = {"env": {"core", "envs"}, "terminal": {"core", "bots", "terminal"},
           "plugin": {"core"}}
DEFAULT_ALLOWED = {"core", "bots"}


def test_the_package_imports_only_the_layers_below_it() -> None:
    found = []
    for path in sorted(PACKAGE.glob("*.py")):
        allowed = ALLOWED.get(path.stem, DEFAULT_ALLOWED)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                parts = name.split(".")
                if parts[0] == "twintable" and (len(parts) < 2 or parts[1] not in allowed):
                    found.append(f"{path.name} imports {name}")
    assert found == []
