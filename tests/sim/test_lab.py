"""The designer's lab on the command line (sim/lab.py, ``twintable sim`` and ``sweep``):
deck and scoring files checked by the game, warnings for options a mode ignores,
cooperative results as success rates, noisy bots, metrics and ranked cells, wide tables
when piped, and figures zoomed to their data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from twintable import cli
from twintable.cli import app
from twintable.sim import lab
from twintable.sim.figures import MANY_CELLS, panels, sweep_panels, zoomed

runner = CliRunner()
TIMO = ["--option", "target=1", "--seed", "3", "--workers", "1"]
DECK = {"per_colour": {str(n): 2 for n in range(1, 10)} | {"stop": 2, "twist": 2, "+2": 2},
        "black": {"colour": 4, "+4": 4}}


@pytest.fixture(autouse=True)
def consoles_at_their_own_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each call sets the width its console is made with (a test's COLUMNS, or none)."""
    for console in (cli.console, lab.console):
        monkeypatch.setattr(console, "_width", None)


def _run(*arguments: str, env: dict[str, str] | None = None) -> str:
    result = runner.invoke(app, list(arguments), env=env)
    assert result.exit_code == 0, result.output
    return result.output


def test_a_deck_file_is_played_and_recorded_in_every_game(tmp_path: Path) -> None:
    deck, games = tmp_path / "deck.json", tmp_path / "games.jsonl"
    deck.write_text(json.dumps({"description": "no zeros", **DECK}))
    _run("sim", "timo", "--games", "4", "--deck", str(deck), "--jsonl", str(games), *TIMO)
    rows = [json.loads(line) for line in games.read_text().splitlines()]
    assert all(row["options"]["deck"]["per_colour"]["1"] == 2 for row in rows)
    assert "0" not in rows[0]["options"]["deck"]["per_colour"]
    toml = tmp_path / "deck.toml"
    toml.write_text('[per_colour]\n"1" = 3\n"+2" = 1\n[black]\n"+4" = 2\n')
    assert "4 games" in _run("sweep", "timo", "--games", "4", "--deck", str(toml), *TIMO)


@pytest.mark.parametrize(("game", "content", "said"), [
    ("timo", '{"per_colour": {"11": 1}}', "is not a Timo's Twist deck file"),
    ("timo", "{not json", "not JSON"),
    ("twins", '{"cash": {"4": {"round1": {"lowest": 4, "pay": 1}, "round2": {"highest": 1, '
              '"gain": 3}, "round3": {"lowest": 1, "pay": 1}}}}', "leaves nobody out"),
    ("twinz", '{"words": ["un", "deux"]}', "at least 12"),
    ("twinit", '{"anything": 1}', "Twin It reads no deck file"),
])
def test_a_bad_deck_file_is_refused_before_any_game(tmp_path: Path, game: str, content: str,
                                                     said: str) -> None:
    deck = tmp_path / "deck.json"
    deck.write_text(content)
    result = runner.invoke(app, ["sim", game, "--games", "2", "--deck", str(deck)])
    assert result.exit_code == 2 and said in result.output
    assert "Traceback" not in result.output


def test_a_deck_and_an_option_naming_the_same_thing_are_refused(tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps(DECK))
    result = runner.invoke(app, ["sim", "timo", "--deck", str(deck), "--option",
                                 "deck=classic108"])
    assert result.exit_code == 2 and "leave it out of --option" in result.output
    missing = runner.invoke(app, ["sim", "timo", "--deck", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "No such file" in missing.output


def test_an_option_a_mode_ignores_is_warned_about() -> None:
    output = _run("sim", "twinit", "--mode", "timeattack", "--option", "sets_to_win=3",
                  "--option", "duration_s=10", "--players", "2", "--bots", "casual",
                  "--games", "1", "--workers", "1")
    assert "option 'sets_to_win' has no effect in mode timeattack" in output
    assert "duration_s" not in output.split("warning")[1].split("\n")[0]
    swept = _run("sweep", "twinit", "--grid", "mode=competitive,coop", "--option",
                 "sets_to_win=2", "--option", "duration_s=10", "--players", "2", "--bots",
                 "casual", "--games", "1", "--workers", "1")
    assert "'sets_to_win' has no effect in mode coop" in swept
    assert "'duration_s' has no effect in mode competitive" in swept


def test_a_cooperative_game_reports_a_success_rate_not_win_rates(tmp_path: Path) -> None:
    report = tmp_path / "coop.json"
    output = _run("sim", "twinit", "--mode", "coop", "--option", "duration_s=10",
                  "--players", "2", "--bots", "sharp", "--games", "3", "--workers", "1",
                  "--json", str(report), env={"COLUMNS": "150"})
    assert "success rate" in output and "win rate " not in output and "95% CI" in output
    assert "by seat" not in output and "first player" not in output
    saved = json.loads(report.read_text())
    success = saved["coop"]["success"]
    assert success["games"] == 3 and 0 <= success["win_rate"] <= 1
    assert list(panels(saved)) == ["success rate", "final scores", "game length"]


def test_a_noisy_bot_is_seated_by_level_and_reported_with_its_noise(tmp_path: Path) -> None:
    report = tmp_path / "noise.json"
    _run("sim", "timo", "--bots", "medium@0.25,random", "--games", "4", "--json",
         str(report), *TIMO)
    assert set(json.loads(report.read_text())["bots"]) == {"heuristic@0.25", "random"}
    bad = runner.invoke(app, ["sim", "timo", "--bots", "medium@much"])
    assert bad.exit_code == 2 and "number from 0 to 1" in bad.output


def test_a_sweep_ranks_its_cells_by_the_metric_with_holm_corrected_comparisons(
        tmp_path: Path) -> None:
    saved = tmp_path / "sweep.json"
    output = _run("sweep", "timo", "--grid", "hand_size=3,7", "--bots", "medium,random",
                  "--games", "20", "--metric", "weakest", "--json", str(saved), *TIMO,
                  env={"COLUMNS": "200"})
    report = json.loads(saved.read_text())
    ranked = report["ranking"]
    assert ranked["measure"] == "metric: weakest" and len(ranked["cells"]) == 2
    means = [row["mean"] for row in ranked["cells"]]
    assert means == sorted(means, reverse=True)
    assert "p_holm" in ranked["cells"][1] and "Cells ranked by metric: weakest" in output
    rows = report["differences"]
    assert rows and all(row["p_holm"] >= row["p"] for row in rows)
    assert all(row["ci95"][0] < row["ci95"][1] for row in rows)  # no constant rows
    assert "turns per round" in output and "p (Holm)" in output
    bad = runner.invoke(app, ["sweep", "timo", "--metric", "turnz", "--games", "2", *TIMO])
    assert bad.exit_code == 2 and "unknown name turnz" in bad.output


def test_twins_hands_are_called_hands(tmp_path: Path) -> None:
    output = _run("sim", "twins", "--players", "3", "--bots", "medium", "--games", "3",
                  "--option", "max_hands=2", "--workers", "1", env={"COLUMNS": "150"})
    assert "length (hands)" in output and "length (rounds)" not in output
    assert "after hand" in output or "leader" not in output


def test_tables_written_to_a_pipe_are_not_cut_at_80_columns() -> None:
    output = _run("sim", "timo", "--games", "2", "--bots", "medium,random", *TIMO)
    assert max(len(line) for line in output.splitlines()) > 100
    assert "seat-games" in output and "seat-ga…" not in output


def test_an_axis_is_zoomed_to_its_data_and_a_many_cell_figure_sorts_its_rows() -> None:
    low, high = zoomed([0.25], [0.27], [0.25])
    assert 0.2 < low < 0.25 and 0.27 < high < 0.3
    assert zoomed([0.0], [0.01]) == (0.0, pytest.approx(0.02 * 1.2))
    assert zoomed([0.97], [1.0])[1] == 1.0
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cells = [{"label": f"cell {index}", "report": {
        "even": 0.5, "players": 2, "turn_order": [], "coop": None,
        "bots": {"a": {"win_rate": rate, "ci95": [rate - 0.01, rate + 0.01]}},
        "lengths": {"length": {"moves": {"mean": 10.0, "mean_ci95": [9.0, 11.0],
                                         "min": 5, "max": 20}}}}}
        for index, rate in enumerate([0.50, 0.53, 0.49, 0.51, 0.52, 0.48, 0.50, 0.47])]
    assert len(cells) > MANY_CELLS
    figure, axis = plt.subplots()
    sweep_panels({"cells": cells})["win rate by bot, per cell"](axis)
    labels = [tick.get_text() for tick in axis.get_yticklabels()]
    assert labels[-1] == "cell 1" and labels[0] == "cell 7"  # best on top, worst below
    low, high = axis.get_xlim()
    assert low > 0.4 and high < 0.6  # a few points of effect fill the axis
    plt.close(figure)
