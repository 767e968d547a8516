"""The starter notebook of docs/balance.md runs on a real export, cell by cell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from twintable.sim.export import game_row, write_jsonl
from twintable.sim.runner import run_games

NOTEBOOK = Path(__file__).parents[2] / "docs" / "notebooks" / "balance_starter.ipynb"


@pytest.mark.parametrize("sweep", [False, True], ids=["sim", "sweep"])
def test_the_starter_notebook_reads_an_export(tmp_path: Path, sweep: bool,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pandas")
    pytest.importorskip("matplotlib")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    results = [r for chunk in run_games("timo", {"target": 60}, ["heuristic", "random"], 6, 1,
                                        workers=1) for r in chunk]
    rows = [game_row("timo", {"target": 60}, r,
                     {"stacking": True, "players": 2} if sweep else None) for r in results]
    write_jsonl(tmp_path / "games.jsonl", rows)
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    code = ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]
    assert code and 'PATH = Path("games.jsonl")' in code[0]
    monkeypatch.chdir(tmp_path)
    scope: dict[str, object] = {}
    for source in code:
        exec(compile(source, str(NOTEBOOK), "exec"), scope)
    assert len(scope["games"]) == 6  # type: ignore[arg-type]
    # Two seats a game: the per-seat table counts twelve seat-games.
    assert int(scope["table"]["count"].sum()) == 12  # type: ignore[index]
    assert ("first_won" in scope["games"]) == sweep  # type: ignore[operator]
