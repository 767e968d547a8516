"""Sweeps: the same games played under every combination of option values, bot line-ups
and player counts, so that a designer sees what one rule change does.

Every cell plays games ``seed`` to ``seed + games - 1`` (common random numbers): cells that
differ by one option see the same shuffles and the same bots' coin flips as far as the
rule lets them, so their difference is measured per game, paired, and its interval is far
narrower than two independent runs would give.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from twintable.core.options import option_value
from twintable.core.stats import holm, mean_interval, two_sided_p
from twintable.sim.metrics import Metric, metric_summary, metric_values
from twintable.sim.report import (
    build_report,
    even_chance,
    game_length,
    reading_unit,
    win_shares,
)
from twintable.sim.runner import GameResult
from twintable.sim.summary import interval, metric_text, percent

SWEEP_FORMAT = 1


def parse_grid(pairs: Iterable[str]) -> dict[str, list[Any]]:
    """``stacking=true,false`` and ``hand_size=5,7,9`` into {name: [values]}; each value
    read as JSON when it can be (numbers, true), else as text. A list value is written
    ``teams=[1,1,2,2];[1,2,1,2]``: semicolons then separate the values."""
    grid: dict[str, list[Any]] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name or not raw:
            raise ValueError(f"--grid takes name=value,value,..., not {pair!r}")
        if name in grid:
            raise ValueError(f"--grid names {name!r} twice")
        items = raw.split(";") if raw.lstrip().startswith("[") else raw.split(",")
        grid[name] = [option_value(item.strip()) for item in items if item.strip()]
    return grid


def value_text(value: Any) -> str:
    """A value as ``--grid`` reads it back: plain text for a word, JSON otherwise."""
    if isinstance(value, str) and option_value(value) == value and not value.startswith("["):
        return value
    return json.dumps(value, separators=(",", ":"))


def grid_text(name: str, values: Sequence[Any]) -> str:
    """One ``--grid`` argument that :func:`parse_grid` reads back as ``values``."""
    separator = ";" if any(isinstance(value, list | tuple) for value in values) else ","
    return f"{name}=" + separator.join(value_text(value) for value in values)


@dataclass(frozen=True)
class Cell:
    """One combination: the grid's values (``varied``), the full options played, the
    player count and the line-up."""

    varied: dict[str, Any]
    options: dict[str, Any]
    players: int
    lineup: tuple[str, ...]
    named: tuple[str, ...] = ()
    """The line-up as given, before it was repeated to fill the seats."""

    def label(self, shown: Sequence[str] = ()) -> str:
        """The cell in a few words: the grid's values, and the player count and line-up
        when ``shown`` names them (only what differs between cells is worth reading)."""
        parts = [f"{name}={value_text(value)}" for name, value in self.varied.items()]
        if "players" in shown:
            parts.append(f"{self.players}p")
        if "lineup" in shown:
            parts.append(",".join(self.named or self.lineup))
        return " ".join(parts) or ",".join(self.named or self.lineup)

    def key(self) -> dict[str, Any]:
        return {**self.varied, "players": self.players, "lineup": list(self.lineup)}


def cells(grid: Mapping[str, Sequence[Any]], base: Mapping[str, Any],
          lineups: Sequence[Sequence[str]], player_counts: Sequence[int],
          resolve: Callable[[dict[str, Any]], dict[str, Any]],
          check: Callable[[int, dict[str, Any]], None]) -> list[Cell]:
    """Every combination, in grid order then line-up then player count; ``resolve``
    checks and completes the options, ``check`` the player count against them, so a
    combination the game refuses fails before any game is played. A line-up shorter than
    the table repeats to fill it."""
    names = list(grid)
    found = []
    for values in itertools.product(*(grid[name] for name in names)):
        varied = dict(zip(names, values, strict=True))
        options = resolve({**base, **varied})
        for lineup in lineups:
            for players in player_counts:
                check(players, options)
                seats = tuple(lineup[i % len(lineup)] for i in range(players))
                found.append(Cell(varied, options, players, seats, tuple(lineup)))
    return found


@dataclass
class CellResult:
    cell: Cell
    results: list[GameResult] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)


def cell_report(game_id: str, seed: int, cell: Cell, results: Sequence[GameResult],
                fixed_seats: bool, metric: Metric | None = None,
                round_name: str = "round", cooperative: bool = False) -> dict[str, Any]:
    report = build_report(game_id, cell.players, cell.lineup, seed, cell.options, results,
                          fixed_seats, round_name=round_name, cooperative=cooperative)
    if metric is not None:
        report["metric"] = metric_summary(metric, cell.players, results)
    return report


# -- per-game measures, paired between cells ------------------------------------------
def first_player_share(result: GameResult) -> float | None:
    if result.first is None:
        return None
    return win_shares(result).get(result.first, 0.0)


def bot_share(result: GameResult, name: str) -> float | None:
    """The share of the game's win that went to ``name``'s seats, per seat it held (a bot
    in two of four seats that wins once scores 0.5)."""
    seats = [seat for seat, bot in enumerate(result.bots) if bot == name]
    if not seats:
        return None
    shares = win_shares(result)
    return sum(shares.get(seat, 0.0) for seat in seats) / len(seats)


def measures(cell: Cell, result: GameResult, unit: str) -> dict[str, float]:
    """What each game says about its cell: each bot's and the first player's edge (win
    share minus the even line, so that cells with more players, or teams, compare), and
    the length in ``unit``."""
    even = even_chance(cell.players, [result])
    found: dict[str, float] = {}
    for name in dict.fromkeys(cell.lineup):
        share = bot_share(result, name)
        if share is not None:
            found[f"{name} edge"] = share - even
    first = first_player_share(result)
    if first is not None:
        found["first player edge"] = first - even
    length = game_length(result).get(unit)
    if length is not None:
        found[f"length ({unit})"] = length
    return found


def neighbours(found: Sequence[Cell]) -> list[tuple[int, int, str]]:
    """Pairs of cells that differ in exactly one thing (an option, the line-up or the
    player count), with what it is: the comparisons a designer reads."""
    pairs = []
    for (i, a), (j, b) in itertools.combinations(enumerate(found), 2):
        changed = [name for name in a.varied if a.varied[name] != b.varied[name]]
        if a.named != b.named:
            changed.append("lineup")
        if a.players != b.players:
            changed.append("players")
        if len(changed) == 1:
            pairs.append((i, j, changed[0]))
    return pairs


#: The family-wise error rate of a sweep's comparisons (Holm-corrected).
ALPHA = 0.05


def metric_measure(metric: Metric) -> str:
    return f"metric: {metric.name}"


def _measures_by_seed(found: Sequence[CellResult], unit: str,
                      metric: Metric | None) -> list[dict[int, dict[str, float]]]:
    by_seed = [{result.seed: measures(done.cell, result, unit) for result in done.results}
               for done in found]
    for done, table in zip(found, by_seed, strict=True):
        if done.report.get("coop"):
            # Seats play together: no one's edge means anything, the table's success does.
            for result in done.results:
                table[result.seed] = {name: value for name, value in
                                      table[result.seed].items() if "edge" not in name}
                table[result.seed]["success"] = result.stats.get("success", 0.0)
    if metric is not None:
        for done, table in zip(found, by_seed, strict=True):
            for seed, value in metric_values(metric, done.cell.players, done.results).items():
                table[seed][metric_measure(metric)] = value
    return by_seed


def _paired(first: Mapping[int, Mapping[str, float]], second: Mapping[int, Mapping[str, float]],
            name: str) -> list[float]:
    return [second[seed][name] - first[seed][name] for seed in sorted(set(first) & set(second))
            if name in first[seed] and name in second[seed]]


def differences(found: Sequence[CellResult],
                metric: Metric | None = None) -> list[dict[str, Any]]:
    """For each pair of neighbouring cells, each measure both have: the mean paired
    difference (second minus first) over the seeds both played, its 95% interval, its
    p-value and Holm-adjusted p-value over every row (a sweep makes many comparisons),
    whether it is told apart from zero after that correction, and, when it is not, about
    how many games per cell would tell a difference that size apart.

    A comparison that says nothing is left out: one whose paired differences are all
    alike (a length in rounds when every game lasts one round, a bot's edge the change
    cannot move), since its interval is a point."""
    unit = reading_unit([done.report["lengths"]["length"] for done in found])
    by_seed = _measures_by_seed(found, unit, metric)
    rows: list[dict[str, Any]] = []
    for i, j, changed in neighbours([done.cell for done in found]):
        names = list(dict.fromkeys(name for table in (by_seed[i], by_seed[j])
                                   for values in table.values() for name in values))
        seen: set[tuple[float, ...]] = set()
        for name in names:
            gaps = _paired(by_seed[i], by_seed[j], name)
            # A metric that is another measure under a new name (first - even is the
            # first player's edge) would count the same comparison twice.
            if len(gaps) < 2 or max(gaps) == min(gaps) or tuple(gaps) in seen:
                continue
            seen.add(tuple(gaps))
            mean, low, high = mean_interval(gaps)
            rows.append({"from": i, "to": j, "changed": changed, "measure": name,
                         "games": len(gaps), "difference": mean, "ci95": [low, high],
                         "p": two_sided_p(mean, low, high)})
    for row, adjusted in zip(rows, holm([row["p"] for row in rows]), strict=True):
        row["p_holm"] = adjusted
        row["told_apart"] = adjusted < ALPHA
        if not row["told_apart"] and row["difference"] != 0:
            low, high = row["ci95"]
            spread = (high - low) / (2 * 1.959964) * math.sqrt(row["games"])
            row["games_needed"] = math.ceil((1.959964 * spread / abs(row["difference"])) ** 2)
    return rows


def ranking(found: Sequence[CellResult], metric: Metric | None) -> dict[str, Any]:
    """The cells sorted by a measure, highest first (the metric, else the first bot's
    edge), each with its paired difference from the top cell and whether that difference
    is told apart from zero (Holm-corrected over the cells)."""
    unit = reading_unit([done.report["lengths"]["length"] for done in found])
    by_seed = _measures_by_seed(found, unit, metric)
    name = (metric_measure(metric) if metric is not None
            else f"{found[0].cell.lineup[0]} edge" if found else "")
    means = []
    for index, table in enumerate(by_seed):
        values = [values[name] for values in table.values() if name in values]
        if values:
            means.append((mean_interval(values), index))
    means.sort(key=lambda item: -item[0][0])
    rows: list[dict[str, Any]] = []
    if not means:
        return {"measure": name, "cells": rows}
    top = means[0][1]
    for (mean, low, high), index in means:
        row: dict[str, Any] = {"cell": index, "mean": mean, "ci95": [low, high]}
        gaps = _paired(by_seed[top], by_seed[index], name)
        if index != top and len(gaps) > 1:
            gap, gap_low, gap_high = mean_interval(gaps)
            row |= {"behind_top": gap, "behind_ci95": [gap_low, gap_high],
                    "p": two_sided_p(gap, gap_low, gap_high)}
        rows.append(row)
    tested = [row for row in rows if "p" in row]
    for row, adjusted in zip(tested, holm([row["p"] for row in tested]), strict=True):
        row["p_holm"] = adjusted
        row["below_top"] = adjusted < ALPHA
    return {"measure": name, "cells": rows}


def sweep_report(game_id: str, seed: int, games: int, found: Sequence[CellResult],
                 fixed_seats: bool, metric: Metric | None = None) -> dict[str, Any]:
    shown = [name for name, values in (("players", {done.cell.players for done in found}),
                                       ("lineup", {done.cell.named for done in found}))
             if len(values) > 1]
    return {"format": SWEEP_FORMAT, "kind": "sweep", "game": game_id, "seed": seed,
            "games": games, "fixed_seats": fixed_seats,
            "cells": [{"cell": done.cell.key(), "label": done.cell.label(shown),
                       "options": done.report["options"], "report": done.report}
                      for done in found],
            "differences": differences(found, metric),
            "ranking": ranking(found, metric)}


def few_games_warnings(report: Mapping[str, Any]) -> list[str]:
    """One line per neighbouring pair whose win-rate difference the run cannot tell from
    zero, with the games per cell that would (from the spread it measured)."""
    labels = [cell["label"] for cell in report["cells"]]
    lines = []
    for row in report["differences"]:
        if row["told_apart"] or "edge" not in row["measure"] or "games_needed" not in row:
            continue
        lines.append(f"{row['measure']}: {labels[row['from']]} vs {labels[row['to']]}: "
                     f"{row['games']} games cannot tell {row['difference']:+.1%} from zero; "
                     f"about {row['games_needed']} games per cell would")
    return lines


def _cell_metric(rep: Mapping[str, Any]) -> str:
    metric = rep.get("metric")
    if not metric or not metric["games"]:
        return "–"
    low, high = metric["ci95"]
    return f"{metric_text(metric, metric['mean'])} ({metric_text(metric, low)} to " \
        f"{metric_text(metric, high)})"



def sweep_markdown(report: Mapping[str, Any]) -> str:
    """The sweep's table (one row per cell), the cells ranked, and the differences between
    neighbouring cells, as Markdown."""
    cells_ = report["cells"]
    reports = [cell["report"] for cell in cells_]
    # Cooperative cells have a success rate, the others win rates: a sweep over modes
    # has both columns, each filled where it means something.
    some_coop = any(rep.get("coop") for rep in reports)
    coop = all(rep.get("coop") for rep in reports)
    bots = list(dict.fromkeys(name for cell in cells_ for name in cell["cell"]["lineup"]))
    has_first = any(rep["turn_order"] and not rep.get("coop") for rep in reports)
    has_metric = any("metric" in rep for rep in reports)
    per_round = all("turns_per_round" in rep["stats"] for rep in reports)
    round_name = reports[0].get("round_name", "round") if reports else "round"
    header = ["cell", "games"]
    header += ["success rate (95% CI)"] if some_coop else []
    header += [] if coop else [f"{name} wins (95% CI)" for name in bots]
    if has_first:
        header += ["first player wins", "dealer wins"]
    if has_metric:
        header.append(f"{reports[0]['metric']['name']} (95% CI)")
    header += ([] if coop else ["even"]) + ["mean length (95% CI)"]
    if per_round:
        header.append(f"turns per {round_name}")
    header.append("margin (median)")
    lines = [f"### {report['game']}: {len(cells_)} cells × {report['games']} games, seeds "
             f"{report['seed']}–{report['seed'] + report['games'] - 1} in every cell", "",
             "| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    unit = reading_unit([rep["lengths"]["length"] for rep in reports])
    for cell in cells_:
        rep = cell["report"]
        row = [cell["label"], str(rep["games"])]
        if some_coop:
            success = (rep.get("coop") or {}).get("success")
            row.append(f"{percent(success['win_rate'])} ({interval(success)})" if success
                       else "–")
        if not coop:
            for name in bots:
                bot = None if rep.get("coop") else rep["bots"].get(name)
                row.append(f"{percent(bot['win_rate'])} ({interval(bot)})" if bot else "–")
        if has_first:
            order = rep["turn_order"] if not rep.get("coop") else []
            row += [f"{percent(order[0]['win_rate'])} ({interval(order[0])})",
                    f"{percent(order[-1]['win_rate'])} ({interval(order[-1])})"] \
                if order else ["–", "–"]
        if has_metric:
            row.append(_cell_metric(rep))
        length = rep["lengths"]["length"][unit]
        low, high = length["mean_ci95"]
        margin = rep["lengths"]["margin"]
        shown_unit = unit_name(unit, round_name)
        row += ([] if coop else ["–" if rep.get("coop") else percent(rep["even"])]) + [
            f"{length['mean']:.1f} {shown_unit} ({low:.1f}–{high:.1f})"]
        if per_round:
            row.append(f"{rep['stats']['turns_per_round']['mean']:.1f}")
        row.append(f"{margin['median']:g}" if margin and not coop else "–")
        lines.append("| " + " | ".join(row) + " |")
    ranked = report.get("ranking")
    if ranked and len(ranked["cells"]) > 1:
        edge = "edge" in ranked["measure"]
        form = "{:+.1%}" if edge else "{:+.3g}"
        mean_form = "{:+.1%}" if edge else "{:.3g}"
        lines += ["", f"### Cells ranked by {ranked['measure']}", "",
                  "Each cell against the top one, paired by seed; Holm-corrected over the "
                  "cells.", "", "| rank | cell | mean (95% CI) | behind the top (95% CI) | |",
                  "|---:|---|---:|---:|---|"]
        for rank, row in enumerate(ranked["cells"], start=1):
            low, high = row["ci95"]
            mean = (f"{mean_form.format(row['mean'])} ({mean_form.format(low)} to "
                    f"{mean_form.format(high)})")
            if "behind_top" in row:
                gap_low, gap_high = row["behind_ci95"]
                behind = (f"{form.format(row['behind_top'])} ({form.format(gap_low)} to "
                          f"{form.format(gap_high)})")
                verdict = "below the top" if row["below_top"] else "not told from the top"
            else:
                behind, verdict = "–", "top"
            lines.append(f"| {rank} | {cells_[row['cell']]['label']} | {mean} | {behind} | "
                         f"{verdict} |")
    lines += ["", "### Differences between neighbouring cells (paired by seed)", "",
              "An edge is a win rate minus the even line (one player, or one team, in so "
              "many); the difference is the second cell's minus the first's. Told apart: "
              "Holm-adjusted p below 0.05 over every row; comparisons whose games all "
              "differ alike (constant) are left out.", "",
              "| from | to | measure | difference | 95% CI | p (Holm) | |",
              "|---|---|---|---:|---:|---:|---|"]
    for row in report["differences"]:
        form = "{:+.1%}" if "edge" in row["measure"] else "{:+.2f}"
        shown = form.format
        low, high = row["ci95"]
        verdict = "told apart" if row["told_apart"] else (
            f"not told apart (~{row['games_needed']} games would)" if "games_needed" in row
            else "not told apart")
        lines.append(f"| {cells_[row['from']]['label']} | {cells_[row['to']]['label']} | "
                     f"{row['measure']} | {shown(row['difference'])} | "
                     f"{shown(low)} to {shown(high)} | {row['p_holm']:.3g} | {verdict} |")
    warnings = few_games_warnings(report)
    if warnings:
        lines += ["", "**Warning: too few games** for these comparisons:", ""]
        lines += [f"- {line}" for line in warnings]
    return "\n".join(lines) + "\n"


def unit_name(unit: str, round_name: str = "round") -> str:
    """A length unit as people read it: rounds are the game's own (Twins plays hands)."""
    return f"{round_name}s" if unit == "rounds" else unit
