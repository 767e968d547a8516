"""The layers import one way only (docs/architecture.md): core ← games ← bots, sim, envs ←
server ← web. Every import in ``src/twintable`` is read with ``ast``, including imports
inside functions and ``TYPE_CHECKING`` blocks, since a lazy import is a dependency too."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import twintable

PACKAGE = Path(twintable.__file__).resolve().parent

#: Per layer, the twintable layers it must never import.
FORBIDDEN: dict[str, set[str]] = {
    "core": {"games", "bots", "sim", "envs", "server", "web", "terminal", "cli"},
    "games": {"server", "sim", "envs", "web", "terminal", "cli"},
    "bots": {"games", "server", "sim", "envs", "web", "terminal", "cli"},
    "sim": {"server", "envs", "web", "terminal", "cli"},
    "server": {"sim", "envs", "web", "terminal", "cli"},
    "envs": {"server", "web", "terminal", "cli"},
    # The load harness is a client: it speaks the protocol, never the server's code.
    "loadtest": {"server", "sim", "envs", "web", "terminal", "cli"},
}


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


def forbidden_for(module: str) -> set[str]:
    """The layers ``module`` must never import. A game's terminal game
    (``twintable.games.<id>.terminal``) is that game's front end in the terminal layer's
    role: it may use the terminal layer's shared helpers (keyboards), nothing else above."""
    layer = layer_of(module)
    forbidden = FORBIDDEN.get(layer or "", set())
    parts = module.split(".")
    if layer == "games" and len(parts) == 4 and parts[3] == "terminal":
        return forbidden - {"terminal"}
    return forbidden


def violations() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        layer = layer_of(module_name(path))
        forbidden = forbidden_for(module_name(path))
        for imported in sorted(imported_modules(path)):
            if layer_of(imported) in forbidden:
                found.append(f"{path.relative_to(PACKAGE.parent)} ({layer}) imports {imported}")
    return found


def test_every_layer_imports_only_the_layers_below_it() -> None:
    assert violations() == []


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
