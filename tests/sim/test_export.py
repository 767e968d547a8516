"""Per-game exports: JSON Lines and CSV that pandas or a spreadsheet reads."""

from __future__ import annotations

import csv
from pathlib import Path

from twintable.sim.export import game_row, read_jsonl, write_csv, write_jsonl
from twintable.sim.runner import run_games

OPTIONS = {"target": 100, "hand_size": 5}


def test_a_row_holds_the_game_as_played_and_both_files_agree(tmp_path: Path) -> None:
    lineup = ["heuristic", "random", "random"]
    results = [r for chunk in run_games("timo", OPTIONS, lineup, 5, 7, workers=1)
               for r in chunk]
    rows = [game_row("timo", OPTIONS, r) for r in results]
    assert write_jsonl(tmp_path / "games.jsonl", rows) == 5
    assert write_csv(tmp_path / "games.csv", rows) == 5
    loaded = read_jsonl(tmp_path / "games.jsonl")
    assert loaded == rows
    first = loaded[0]
    assert first["seed"] == 7 and first["options"] == OPTIONS
    assert first["bots"] == lineup and first["winner_bots"] == [
        lineup[seat] for seat in first["winners"]]
    assert first["positions"][first["first"]] == 0 and first["positions"][first["dealer"]] == 2
    assert first["standings"][-1] == first["scores"] and first["rounds"] == len(
        first["standings"])
    assert first["length"]["moves"] == results[0].steps
    with (tmp_path / "games.csv").open(newline="") as source:
        table = list(csv.DictReader(source))
    assert len(table) == 5
    assert table[0]["seed"] == "7" and table[0]["option.hand_size"] == "5"
    assert table[0]["seat0.bot"] == "heuristic"
    assert int(table[0]["seat1.score"]) == first["scores"][1]
    assert table[0]["winners"] == " ".join(map(str, first["winners"]))
    assert float(table[0]["length.rounds"]) == first["rounds"]
