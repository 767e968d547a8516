"""One row per simulated game, written as JSON Lines or CSV for pandas or a spreadsheet.

A row holds what a designer needs to study a game without replaying it: its seed and
options, who sat where, the turn order, the winners, the scores after each round and at
the end, its length and its margin (docs/balance.md reads them).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from twintable.sim.report import game_length, margin
from twintable.sim.runner import GameResult


def game_row(game_id: str, options: Mapping[str, Any], result: GameResult,
             cell: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Everything about one game as plain JSON values; ``cell`` names a sweep's cell
    (its options, line-up and player count) when the game belongs to one."""
    players = len(result.bots)
    row: dict[str, Any] = {"game": game_id, "seed": result.seed, "players": players}
    if cell:
        row["cell"] = dict(cell)
    row["options"] = {key: list(value) if isinstance(value, tuple) else value
                      for key, value in options.items()}
    row["bots"] = list(result.bots)
    row["first"] = result.first
    row["dealer"] = result.dealer
    # Turn position of each seat: 0 for the first player, the dealer last.
    row["positions"] = ([(seat - result.first) % players for seat in range(players)]
                        if result.first is not None else None)
    row["sides"] = list(result.sides) if result.sides is not None else None
    row["team_scores"] = list(result.team_scores) if result.team_scores is not None else None
    row["winners"] = sorted(result.winners)
    row["winner_bots"] = [result.bots[seat] for seat in sorted(result.winners)]
    row["scores"] = list(result.scores)
    row["margin"] = margin(result)
    row["rounds"] = len(result.standings) or None
    row["standings"] = [list(scores) for scores in result.standings]
    row["length"] = game_length(result)
    row["stats"] = dict(result.stats)
    return row


def result_from_row(row: Mapping[str, Any]) -> GameResult:
    """The game a row describes, as the simulation gave it (a resumed run reads back the
    games it kept): every field a report reads is in the row."""
    standings = tuple(tuple(scores) for scores in row["standings"])
    return GameResult(row["seed"], tuple(row["bots"]), tuple(row["scores"]),
                      frozenset(row["winners"]), dict(row["stats"]), first=row["first"],
                      dealer=row["dealer"], standings=standings,
                      sides=tuple(row["sides"]) if row["sides"] is not None else None,
                      steps=int(row["length"]["moves"]),
                      # Rows written before teams scored together have none.
                      team_scores=(tuple(row["team_scores"]) if row.get("team_scores") is not None
                                   else None))


def write_jsonl(path: Path, rows: Iterable[Mapping[str, Any]]) -> int:
    """One JSON object per line; returns the number of rows."""
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, separators=(",", ":")) + "\n")
            count += 1
    return count


def flat_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row with one column per value, for CSV: ``option.stacking``, ``seat0.bot``,
    ``seat0.score``, ``length.moves``, ``stat.turns``; lists of winners joined by spaces."""
    players = row["players"]
    flat: dict[str, Any] = {"game": row["game"], "seed": row["seed"], "players": players}
    for key, value in (row.get("cell") or {}).items():
        flat[f"cell.{key}"] = json.dumps(value) if isinstance(value, list | dict) else value
    for key, value in row["options"].items():
        flat[f"option.{key}"] = json.dumps(value) if isinstance(value, list) else value
    flat["first"], flat["dealer"] = row["first"], row["dealer"]
    flat["winners"] = " ".join(map(str, row["winners"]))
    flat["winner_bots"] = " ".join(row["winner_bots"])
    flat["rounds"], flat["margin"] = row["rounds"], row["margin"]
    for seat in range(players):
        flat[f"seat{seat}.bot"] = row["bots"][seat]
        flat[f"seat{seat}.score"] = row["scores"][seat]
        if row["positions"] is not None:
            flat[f"seat{seat}.position"] = row["positions"][seat]
        if row["sides"] is not None:
            flat[f"seat{seat}.team"] = row["sides"][seat] + 1
    for key, value in row["length"].items():
        flat[f"length.{key}"] = value
    for key, value in row["stats"].items():
        flat[f"stat.{key}"] = value
    return flat


def write_csv(path: Path, rows: Sequence[Mapping[str, Any]]) -> int:
    """A header with every column any row has (games differ: a Twins payout that never
    happened has no column in that game), then one line per game."""
    flats = [flat_row(row) for row in rows]
    columns = list(dict.fromkeys(key for flat in flats for key in flat))
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=columns, restval="")
        writer.writeheader()
        writer.writerows(flats)
    return len(flats)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The rows of a JSON Lines export."""
    with path.open(encoding="utf-8") as source:
        return [json.loads(line) for line in source if line.strip()]
