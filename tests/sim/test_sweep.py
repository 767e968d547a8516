"""Sweeps: the grid of cells, the same seeds in every cell, paired differences."""

from __future__ import annotations

from dataclasses import replace

import pytest

from twintable.core.errors import OptionError
from twintable.core.registry import default_registry
from twintable.sim.report import build_report
from twintable.sim.runner import run_games
from twintable.sim.sweep import (
    CellResult,
    cells,
    differences,
    few_games_warnings,
    grid_text,
    neighbours,
    parse_grid,
    sweep_markdown,
    sweep_report,
)

TIMO = default_registry().get("timo")


def test_a_grid_reads_json_values_and_refuses_a_malformed_one() -> None:
    assert parse_grid(["stacking=true,false", "hand_size=5,7,9", "deck=timo54"]) == {
        "stacking": [True, False], "hand_size": [5, 7, 9], "deck": ["timo54"]}
    assert parse_grid(["teams=[1,1,2,2];[1,2,1,2]"]) == {"teams": [[1, 1, 2, 2], [1, 2, 1, 2]]}
    for name, values in [("stacking", [True, False]), ("mode", ["competitive", "team"]),
                         ("taboo", [[], [0]]), ("deck", ["timo54", "7"])]:
        assert parse_grid([grid_text(name, values)]) == {name: values}
    for bad in (["stacking"], ["stacking="], ["a=1", "a=2"]):
        with pytest.raises(ValueError, match="--grid"):
            parse_grid(bad)


def test_every_combination_is_a_cell_and_a_refused_one_fails_before_any_game() -> None:
    found = cells({"stacking": [True, False], "hand_size": [5, 7]}, {"target": 50},
                  [["heuristic", "random"], ["random"]], [2, 3], TIMO.resolve_options,
                  TIMO.check_players)
    assert len(found) == 2 * 2 * 2 * 2
    assert found[0].varied == {"stacking": True, "hand_size": 5}
    assert found[0].options["target"] == 50 and found[0].lineup == ("heuristic", "random")
    assert found[1].players == 3 and found[1].lineup == ("heuristic", "random", "heuristic")
    # Cells one change apart: 4 option pairs x 4 (line-up, count) + line-up and count pairs.
    assert {changed for _, _, changed in neighbours(found)} == {
        "stacking", "hand_size", "lineup", "players"}
    with pytest.raises(OptionError, match="hand_size"):
        cells({"hand_size": [7, 30]}, {}, [["random"]], [2], TIMO.resolve_options,
              TIMO.check_players)
    with pytest.raises(OptionError, match="with these options"):
        cells({"hand_size": [12]}, {}, [["random"]], [5], TIMO.resolve_options,
              TIMO.check_players)


def _run(grid: dict[str, list[object]], games: int) -> list[CellResult]:
    done = []
    for cell in cells(grid, {"target": 60}, [["heuristic", "random"]], [3],
                      TIMO.resolve_options, TIMO.check_players):
        results = [r for chunk in run_games("timo", cell.options, cell.lineup, games, 11,
                                            workers=1) for r in chunk]
        done.append(CellResult(cell, results, build_report("timo", 3, cell.lineup, 11,
                                                           cell.options, results)))
    return done


def test_cells_play_the_same_seeds_so_identical_rules_differ_by_exactly_nothing() -> None:
    # Two cells that differ only in a label play the same rules on the same seeds, so every
    # paired difference is exactly 0: constant comparisons, which the sweep leaves out.
    same = _run({"target": [60]}, 12)[0]
    done = [CellResult(replace(same.cell, varied={"label": label}), same.results, same.report)
            for label in ("a", "b")]
    done[1] = CellResult(done[1].cell, [r for chunk in run_games(
        "timo", same.cell.options, same.cell.lineup, 12, 11, workers=2) for r in chunk],
        same.report)
    assert [r.seed for r in done[0].results] == [r.seed for r in done[1].results]
    assert done[0].results == done[1].results
    assert differences(done) == []


def test_a_rule_change_is_measured_per_seed_with_an_interval() -> None:
    report = sweep_report("timo", 11, 30, _run({"hand_size": [3, 9]}, 30), False)
    lengths = [row for row in report["differences"] if row["measure"] == "length (rounds)"]
    assert len(lengths) == 1 and lengths[0]["games"] == 30
    low, high = lengths[0]["ci95"]
    assert low <= lengths[0]["difference"] <= high
    assert [cell["label"] for cell in report["cells"]] == ["hand_size=3", "hand_size=9"]
    text = sweep_markdown(report)
    assert "hand_size=3" in text and "first player wins" in text and "edge" in text
    for line in few_games_warnings(report):
        assert "games per cell would" in line


def test_cells_with_more_players_compare_by_edge_over_their_own_even_line() -> None:
    twins = default_registry().get("twins")
    done = []
    for cell in cells({}, {"max_hands": 1}, [["heuristic"]], [3, 5], twins.resolve_options,
                      twins.check_players):
        results = [r for chunk in run_games("twins", cell.options, cell.lineup, 8, 2,
                                            workers=1) for r in chunk]
        done.append(CellResult(cell, results, build_report("twins", cell.players,
                                                           cell.lineup, 2, cell.options,
                                                           results)))
    rows = {row["measure"]: row for row in differences(done)}
    # The same bot in every seat wins one game in n, whatever n: no edge in either cell,
    # although its raw win rate drops from 1/3 to 1/5. Every game says so alike: a
    # constant comparison, left out; the first player's edge varies and is compared.
    assert "heuristic edge" not in rows
    assert rows["first player edge"]["changed"] == "players"
