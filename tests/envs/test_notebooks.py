"""The research notebooks (docs/notebooks/train_*.ipynb: one per game family) run cell by
cell on their small budget: each trains an agent, evaluates it against the bots by level
and puts it on the ladder."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

NOTEBOOKS = sorted((Path(__file__).parents[2] / "docs" / "notebooks").glob("train_*.ipynb"))


def test_there_is_a_notebook_for_each_game_family() -> None:
    assert [path.stem for path in NOTEBOOKS] == ["train_cards", "train_realtime",
                                                 "train_words"]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_each_notebook_trains_evaluates_and_ladders_an_agent(
        notebook: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TWINTABLE_NOTEBOOK_BUDGET", "small")
    monkeypatch.setenv("TWINTABLE_NOTEBOOK_OUT", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    scope: dict[str, object] = {"__name__": notebook.stem}
    for cell in cells:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), str(notebook), "exec"), scope)
    agent = tmp_path / f"{scope['GAME']}_agent.npz"
    assert agent.is_file()
    assert scope["results"], "nothing was evaluated"
    rated = {row["bot"] for row in scope["rated"]["ratings"]}  # type: ignore[index]
    assert str(agent) in rated
    if importlib.util.find_spec("sb3_contrib") is not None:
        # Where sb3-contrib is installed, the MaskablePPO cell trained, saved and laddered
        # a model too (CI installs it: .ci/run).
        model = tmp_path / f"{scope['GAME']}_ppo.zip"
        assert model.is_file() and str(model) in rated
        assert any(agent == str(model) for agent, _ in scope["results"])  # type: ignore[attr-defined]
    assert "ordinal" in capsys.readouterr().out
