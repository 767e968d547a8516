"""The layers import one way only (docs/architecture.md): core ← bots ← games; the shells
(server, sim, envs, terminal, loadtest) on core and bots, never on a game's package (they
find games through ``core/registry.py``); the kit and the command line above them all.
No modules import each other in a circle, no folders do either, and no shell names a game.

Every import in ``src/twintable`` is read with ``ast``, including imports inside functions
and ``TYPE_CHECKING`` blocks, since a lazy import is a dependency too."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

import twintable
from twintable.core.registry import default_registry

PACKAGE = Path(twintable.__file__).resolve().parent

#: Per layer, the twintable layers it must never import.
FORBIDDEN: dict[str, set[str]] = {
    "core": {"games", "bots", "sim", "envs", "server", "web", "terminal", "cli", "loadtest",
             "kit"},
    "games": {"server", "sim", "envs", "web", "terminal", "cli", "loadtest", "kit"},
    "bots": {"games", "server", "sim", "envs", "web", "terminal", "cli", "loadtest", "kit"},
    # Shells find games through the core's discovery, never by importing a game's package.
    "sim": {"games", "server", "envs", "web", "terminal", "cli", "loadtest", "kit"},
    "server": {"games", "sim", "envs", "web", "terminal", "cli", "loadtest", "kit"},
    # The environments are a toolkit the games' own environments build on: they may not
    # import a game (games import them), nor the simulator (statistics live in core).
    "envs": {"games", "sim", "server", "web", "terminal", "cli", "loadtest", "kit"},
    "terminal": {"games", "sim", "server", "envs", "web", "cli", "loadtest", "kit"},
    # The load harness is a client: it speaks the protocol, never the server's code.
    "loadtest": {"games", "server", "sim", "envs", "web", "terminal", "cli", "kit"},
    # The game kit plays games and reads what a game ships (its rules pages through the
    # server's page reader, every shell's extension record: EXTENSION_MODULE); the command
    # line runs it, never the other way round.
    "kit": {"games", "envs", "web", "terminal", "cli", "loadtest"},
    "cli": {"games"},
}

#: The one module of a shell the kit may import whatever its layer: the shell's record
#: of a game (``twintable.<shell>.extension``, core/plugin.py "Shell extensions"), which
#: imports nothing but the core.
EXTENSION_MODULE = "extension"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, as an absolute name (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            names.add(module)
            # ``from twintable import sim`` imports the layer by its attribute name.
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "twintable" or len(parts) < 2:
        return None
    return parts[1]


#: A game's modules in a shell's role, and the one shell layer each may import (its
#: shared, game-agnostic helpers): the terminal game (``games.<id>.terminal``: keyboards),
#: the research environment (``games.<id>.env``) and its research package
#: (``games.<id>.research.*``: layouts, the AEC base, the OpenSpiel face, evaluation).
GAME_FRONT_ENDS = {"terminal": "terminal", "env": "envs", "research": "envs"}


def forbidden_for(module: str) -> set[str]:
    """The layers ``module`` must never import (a game's front ends: ``GAME_FRONT_ENDS``;
    nothing else above the game)."""
    layer = layer_of(module)
    forbidden = FORBIDDEN.get(layer or "", set())
    parts = module.split(".")
    if layer == "games" and len(parts) >= 4 and parts[3] in GAME_FRONT_ENDS:
        if parts[3] != "research" and len(parts) > 4:
            return forbidden
        return forbidden - {GAME_FRONT_ENDS[parts[3]]}
    return forbidden


def is_extension_record(module: str) -> bool:
    """``twintable.<shell>.extension`` or a name in it."""
    parts = module.split(".")
    return len(parts) >= 3 and parts[2] == EXTENSION_MODULE


def violations() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        layer = layer_of(module_name(path))
        forbidden = forbidden_for(module_name(path))
        for imported in sorted(imported_modules(path)):
            if layer == "kit" and is_extension_record(imported):
                continue
            if layer_of(imported) in forbidden:
                found.append(f"{path.relative_to(PACKAGE.parent)} ({layer}) imports {imported}")
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the twintable modules it imports (``from a.b import c`` of a name ``c``
    counts as importing ``a.b``). A package's ``__init__`` that runs first is not an
    edge: only what a module names."""
    modules = {module_name(path): path for path in PACKAGE.rglob("*.py")}

    def module_of(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = {module_of(name) for name in imported_modules(path)}
        graph[module] = {target for target in targets if target and target != module}
    return graph


def import_cycles() -> list[list[str]]:
    """Every set of modules that import each other in a circle (strongly connected
    components of more than one module, Tarjan's algorithm), each sorted."""
    graph = import_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(cycles)


def test_every_layer_imports_only_the_layers_below_it() -> None:
    assert violations() == []


def test_only_a_games_front_ends_may_use_their_shells_helpers() -> None:
    """The exemption is narrow: a game's environment and research package may import
    ``envs``, its terminal game ``terminal``; nothing else of the game may, and neither
    may import any other shell."""
    assert "envs" not in forbidden_for("twintable.games.demo.env")
    assert "envs" not in forbidden_for("twintable.games.demo.research")
    assert "envs" not in forbidden_for("twintable.games.demo.research.vector")
    assert "terminal" not in forbidden_for("twintable.games.demo.terminal")
    for module in ("twintable.games.demo.rules", "twintable.games.demo.bots",
                   "twintable.games.demo.plugin", "twintable.games.demo.env.extra",
                   "twintable.games.demo.terminal"):
        assert "envs" in forbidden_for(module), module
    for module in ("twintable.games.demo.env", "twintable.games.demo.research.vector"):
        assert {"server", "sim", "terminal", "loadtest"} <= forbidden_for(module), module


def test_the_check_sees_lazy_and_relative_imports(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The walker is not blind: a function-level import and a relative one are found."""
    root = tmp_path / "twintable"
    (root / "server").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "server" / "__init__.py").write_text("")
    (root / "server" / "tables.py").write_text(
        "def plan():\n    from twintable.sim.runner import timed_plan\n"
        "    from ..sim import runner\n    return timed_plan, runner\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", root)
    assert [line.split(" imports ")[1] for line in violations()] == [
        "twintable.sim", "twintable.sim.runner", "twintable.sim.runner.timed_plan"]


def test_no_modules_import_each_other_in_a_circle() -> None:
    """A game's rules never import its bots (they hang off its entry, ``plugin.py``), so
    rules, bots and fast engines import one way; lazy imports count."""
    assert import_cycles() == []


def test_the_cycle_check_sees_a_lazy_circle(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "twintable"
    (root / "games" / "demo").mkdir(parents=True)
    for package in (root, root / "games", root / "games" / "demo"):
        (package / "__init__.py").write_text("")
    (root / "games" / "demo" / "rules.py").write_text(
        "def bots():\n    from twintable.games.demo.bots import Bot\n    return Bot\n")
    (root / "games" / "demo" / "bots.py").write_text(
        "from twintable.games.demo import rules\nclass Bot: ...\n")
    (root / "games" / "demo" / "views.py").write_text("from . import rules\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", root)
    assert import_cycles() == [["twintable.games.demo.bots", "twintable.games.demo.rules"]]


def folder_graph(graph: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """Folder (``twintable.<folder>``) -> the folders its modules import."""
    folders: dict[str, set[str]] = {}
    for module, targets in (import_graph() if graph is None else graph).items():
        layer = layer_of(module)
        if layer is None:
            continue
        folders.setdefault(layer, set()).update(
            target for target in map(layer_of, targets) if target not in (None, layer))
    return folders


def folder_cycles(folders: dict[str, set[str]]) -> list[list[str]]:
    """Every set of folders that import each other in a circle, each sorted."""
    def reaches(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for target in folders.get(todo.pop(), ()):
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        return seen

    reach = {folder: reaches(folder) for folder in folders}
    circles = {tuple(sorted({folder} | {other for other in reach[folder]
                                        if folder in reach.get(other, set())}))
               for folder in folders if folder in reach[folder]}
    return sorted(list(circle) for circle in circles)


def test_no_folders_import_each_other_in_a_circle() -> None:
    """Folders import one way (a module cycle check alone lets ``envs`` import ``games``
    while a game's environment imports ``envs``): the environments import neither the
    games (discovery is the core's) nor the simulator (its statistics are the core's)."""
    folders = folder_graph()
    assert folder_cycles(folders) == []
    assert "games" not in folders["envs"] and "sim" not in folders["envs"]
    # No shell imports a game's package: they all read games through their entries.
    assert [folder for folder, targets in sorted(folders.items()) if "games" in targets] == []


def documented_folders() -> dict[str, set[str]]:
    """The folder map docs/architecture.md draws, between its ``folder-imports`` marks."""
    text = (PACKAGE.parent.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("<!-- folder-imports -->")[1].split("<!-- /folder-imports -->")[0]
    folders = {}
    for line in block.strip().splitlines():
        match = re.fullmatch(r"- `(\w+)`: (.+)", line)
        assert match, f"not a folder line: {line!r}"
        targets = match.group(2)
        folders[match.group(1)] = set() if targets == "nothing" else set(targets.split(", "))
    return folders


def test_the_architecture_page_draws_the_folders_as_they_import() -> None:
    """The layers page says which folder imports which; a change to the code's imports
    that the page does not tell fails here (docs/architecture.md, ``folder-imports``)."""
    if not (PACKAGE.parent.parent / "docs").is_dir():
        pytest.skip("an installed package without the repository's docs")
    assert documented_folders() == folder_graph()


def test_the_folder_check_sees_a_circle_through_three_folders() -> None:
    graph = {"twintable.envs.gym": {"twintable.games.demo.env"},
             "twintable.games.demo.env": {"twintable.sim.runner"},
             "twintable.sim.runner": {"twintable.envs.layout"},
             "twintable.core.game": set()}
    folders = folder_graph(graph)
    assert folders == {"envs": {"games"}, "games": {"sim"}, "sim": {"envs"}, "core": set()}
    assert folder_cycles(folders) == [["envs", "games", "sim"]]


#: Layers that run any game and name none: they find games through their entries.
SHELLS = ("server", "sim", "envs", "terminal", "cli", "bots", "core", "loadtest", "kit")


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions (prose that
    may name a game as an example; code may not)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                found.add(id(first.value))
    return found


def games_named(ids: list[str]) -> list[str]:
    """Every place a shell module names a game: a string (outside docstrings) with a game
    id as a word in it, or an import from a game's package."""
    word = re.compile(r"\b(" + "|".join(map(re.escape, ids)) + r")\b")
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        if layer_of(module) not in SHELLS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        prose = docstrings(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in prose and word.search(node.value)):
                found.append(f"{module}:{node.lineno} says {node.value[:40]!r}")
        for imported in sorted(imported_modules(path)):
            parts = imported.split(".")
            if parts[:2] == ["twintable", "games"] and len(parts) > 2 and parts[2] in ids:
                found.append(f"{module} imports {imported}")
    return found


def test_no_shell_names_a_game() -> None:
    """Server, simulator, environments, terminal, command line and load harness know games
    only through their entries (``core/plugin.py``); every module of theirs is checked."""
    assert games_named(default_registry().ids()) == []


def test_the_game_name_check_sees_strings_and_imports(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "twintable"
    (root / "server").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "server" / "__init__.py").write_text('"""Serves chess, among others."""\n')
    (root / "server" / "rules.py").write_text(
        '"""No chess here."""\n\n'
        'def rematch(game_id: str) -> bool:\n'
        '    from twintable.games.chess import rules\n'
        '    return game_id == "chess" and "checkers-chess" != "chessboard"\n')
    (root / "cli.py").write_text('HELP = "Game id: chess or go."\n')
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", root)
    assert games_named(["chess", "go"]) == [
        "twintable.cli:1 says 'Game id: chess or go.'",
        "twintable.server.rules:5 says 'chess'",
        "twintable.server.rules:5 says 'checkers-chess'",
        "twintable.server.rules imports twintable.games.chess",
        "twintable.server.rules imports twintable.games.chess.rules",
    ]


#: What only the table engine decides (core/table_engine.py, over core/schedule.py):
#: which plan comes first, a timer's action, whether a plan is due, who is asked first.
ENGINE_DECISIONS = {"earliest", "next_event", "due", "timeout_action", "tick_when_due",
                    "shuffle"}


def engine_decisions_taken(path: Path) -> set[str]:
    """The table engine's decisions that the module at ``path`` takes itself: the
    scheduler's functions it imports, and the decisions it calls by name."""
    taken = {name.rpartition(".")[2] for name in imported_modules(path)
             if name.startswith("twintable.core.schedule.")} & ENGINE_DECISIONS
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ENGINE_DECISIONS:
                taken.add(name)
    return taken


def test_the_server_steps_the_table_engine_and_runs_no_loop_of_its_own() -> None:
    """Issue 42: what happens next at a server's table (which bot acts, the race between
    bots, a timer firing) is the table engine's ``next_step`` over ``table_players``;
    the server's automation only sleeps, thinks in threads and submits."""
    automation = PACKAGE / "server" / "automation.py"
    imported = imported_modules(automation)
    assert {"twintable.core.table_engine.next_step",
            "twintable.core.table_engine.table_players"} <= imported
    assert not any(name.startswith("twintable.core.schedule") for name in imported)
    assert engine_decisions_taken(automation) == set()


def test_the_decision_check_sees_a_loop_of_its_own(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's loop before issue 42, in short: the check finds what it decided."""
    root = tmp_path / "twintable"
    (root / "server").mkdir(parents=True)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", root)
    loop = root / "server" / "automation.py"
    loop.write_text(
        "from twintable.core.schedule import EventKind, earliest, next_event\n\n"
        "def move(game, state, plans, rng, seats, deadline):\n"
        "    rng.shuffle(seats)\n"
        "    event = next_event(plans, deadline)\n"
        "    return game.timeout_action(state, deadline), earliest(plans), event\n")
    assert engine_decisions_taken(loop) == {"earliest", "next_event", "shuffle",
                                            "timeout_action"}
