"""A simulation report told in Markdown: turn order, teams, lengths, margins, the leader
curve and how precise the run is, for the terminal (rich renders it) and for reports.

The per-bot and per-seat tables stay with the CLI's own tables; this is what comes after.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

#: Half-width (in points of win rate) past which a run is flagged as too short to read.
LOOSE_INTERVAL = 0.05
_Z = 1.959964


def percent(value: float) -> str:
    return f"{value:.1%}"


def metric_text(metric: Mapping[str, Any], value: float) -> str:
    """A metric's value as people read it: a share in percent (signed where it can be
    negative, an edge), anything else in three figures."""
    if metric.get("share"):
        return f"{value:+.1%}" if metric["ci95"][0] < 0 else f"{value:.1%}"
    return f"{value:.3g}"


def interval(row: Mapping[str, Any]) -> str:
    low, high = row["ci95"]
    return f"{percent(low)}–{percent(high)}"


def versus_even(row: Mapping[str, Any], even: float) -> str:
    """Above, below, or not told apart from the even line, by the 95% interval."""
    low, high = row["ci95"]
    if low > even:
        return "above even"
    if high < even:
        return "below even"
    return "not told apart from even"


def half_width(rate: float, games: int) -> float:
    """Half the width of a 95% interval on a win rate near ``rate`` from ``games``."""
    return _Z * math.sqrt(rate * (1 - rate) / games) if games else 1.0


def games_for(half: float, rate: float) -> int:
    """Games needed for a win rate near ``rate`` to be known within ``half`` either side."""
    return math.ceil(_Z * _Z * rate * (1 - rate) / (half * half))


def precision_note(report: Mapping[str, Any]) -> str | None:
    """A warning when the run is too short for its intervals to separate a seat from the
    even line by a few points, with the games that would."""
    even, games = report.get("even", 1 / report["players"]), report["games"]
    half = half_width(even, games)
    if half <= LOOSE_INTERVAL:
        return None
    return (f"**Warning:** with {games} games a win rate near {percent(even)} is known only "
            f"to ±{half:.1%}; about {games_for(0.02, even)} games tell it within ±2 points.")


def markdown_summary(report: Mapping[str, Any]) -> str:
    """Everything past the bot and seat tables, as Markdown."""
    even = report.get("even", 1 / report["players"])
    lines: list[str] = []
    if report.get("fixed_seats"):
        lines += ["Seats are fixed: each bot kept the seat it was named for.", ""]
    coop = report.get("coop")
    if coop:
        success = coop["success"]
        lines += ["### Cooperative: the table plays together", "",
                  "| games | successes | success rate | 95% CI |", "|---:|---:|---:|---:|",
                  f"| {success['games']} | {success['wins']:g} | "
                  f"{percent(success['win_rate'])} | {interval(success)} |", "",
                  "Success as the game counts it (Twin It: a score past the rulebook's "
                  "Beginner band); nobody wins against anybody, so there are no win rates.",
                  ""]
    metric = report.get("metric")
    if metric:
        low, high = metric["ci95"]
        lines += [f"### Metric: {metric['name']}", "",
                  "| expression | games | mean | 95% CI |", "|---|---:|---:|---:|",
                  f"| `{metric['expression']}` | {metric['games']} | "
                  f"{metric_text(metric, metric['mean'])} | {metric_text(metric, low)} to "
                  f"{metric_text(metric, high)} |", ""]
    team_report = report.get("teams")
    if team_report:
        lines += [f"### Teams (even line {percent(even)}: one team in "
                  f"{len(team_report['sides'])})", "",
                  "| team | seats | games | team win rate | 95% CI | |",
                  "|---|---|---:|---:|---:|---|"]
        for row in team_report["sides"]:
            lines.append(f"| {row['team']} | {', '.join(map(str, row['seats']))} | "
                         f"{row['games']} | {percent(row['win_rate'])} | {interval(row)} | "
                         f"{versus_even(row, even)} |")
        lines += ["", "| partnership | team-games | team win rate | 95% CI |",
                  "|---|---:|---:|---:|"]
        for name, row in team_report["partnerships"].items():
            lines.append(f"| {name} | {row['games']} | {percent(row['win_rate'])} | "
                         f"{interval(row)} |")
        lines.append("")
    if report.get("turn_order") and not coop:
        bots = list(report["bots"])
        lines += [f"### By turn order (even line {percent(even)})", "",
                  "| position | win rate | 95% CI | | " + " | ".join(bots) + " |",
                  "|---|---:|---:|---|" + "---:|" * len(bots)]
        for row in report["turn_order"]:
            by_bot = [f"{percent(row['bots'][name]['win_rate'])} ({row['bots'][name]['games']})"
                      if name in row["bots"] else "–" for name in bots]
            lines.append(f"| {row['name']} | {percent(row['win_rate'])} | {interval(row)} | "
                         f"{versus_even(row, even)} | " + " | ".join(by_bot) + " |")
        lines += ["", "Per bot: its win rate in that position (games).", ""]
    spread = report["lengths"]
    lines += ["### Length and margin", "", "| measure | mean (95% CI) | median | quartiles | "
              "range |", "|---|---:|---:|---:|---:|"]
    round_name = report.get("round_name", "round")
    rows = [(f"length ({round_name + 's' if unit == 'rounds' else unit})", values)
            for unit, values in spread["length"].items()]
    per_round = report["stats"].get("turns_per_round")
    if spread["margin"] and not coop:
        rows.append(("winning margin", spread["margin"]))
    for name, values in rows:
        low, high = values["mean_ci95"]
        lines.append(f"| {name} | {values['mean']:.1f} ({low:.1f}–{high:.1f}) | "
                     f"{values['median']:g} | {values['p25']:g}–{values['p75']:g} | "
                     f"{values['min']:g}–{values['max']:g} |")
    if per_round:
        lines.append(f"| turns per {round_name} | {per_round['mean']:.1f} "
                     f"({per_round['low']:.1f}–{per_round['high']:.1f}) | | | |")
    lines.append("")
    if report.get("leader") and not coop:
        lines += [f"### The leader after {round_name} k wins", "",
                  f"| after {round_name} | games | leader wins | 95% CI |",
                  "|---:|---:|---:|---:|"]
        for row in report["leader"]:
            lines.append(f"| {row['round']} | {row['games']} | {percent(row['win_rate'])} | "
                         f"{interval(row)} |")
        lines += ["", f"Games that went on past {round_name} k with one seat alone in the "
                  "lead.", ""]
    note = None if coop else precision_note(report)
    if note:
        lines.append(note)
    return "\n".join(lines).rstrip() + "\n"


def tables_markdown(report: Mapping[str, Any]) -> str:
    """The bot and seat tables the terminal shows, as Markdown (for the HTML report)."""
    even = report.get("even", 1 / report["players"])
    lines = [f"### By bot (even line {percent(even)})", "",
             "| bot | seat-games | wins | win rate | 95% CI | mean score (95% CI) | median |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name, row in report["bots"].items():
        scores = row["scores"]
        low, high = scores["mean_ci95"]
        lines.append(f"| {name} | {row['games']} | {row['wins']:g} | "
                     f"{percent(row['win_rate'])} | {interval(row)} | "
                     f"{scores['mean']:.1f} ({low:.1f}–{high:.1f}) | {scores['median']:g} |")
    lines += ["", "### By seat", "", "| seat | win rate | 95% CI | |", "|---:|---:|---:|---|"]
    for row in report["seats"]:
        lines.append(f"| {row['seat']} | {percent(row['win_rate'])} | {interval(row)} | "
                     f"{versus_even(row, even)} |")
    return "\n".join(lines) + "\n"
