"""A simulation report as Rich tables, for the command line (``twintable sim``): the JSON
report (:mod:`twintable.sim.report`) read by a person."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from twintable.bots.registry import level_of
from twintable.core.registry import default_registry

GAMES = default_registry()


def print_report(report: dict[str, Any], console: Console) -> None:
    """Print a simulation report (:func:`~twintable.sim.report.build_report`) as tables:
    per bot, per seat, claims and errors where the game counts them, and the stats. A
    cooperative game has no winner among its seats: its success rate is in the summary,
    and the win tables are left out."""
    coop = bool(report.get("coop"))
    table = Table(title=f"{report['game']}: {report['games']} games, "
                        f"{report['players']} players, seed {report['seed']}")
    columns = ("bot", "seat-games", "wins", "win rate", "95% CI", "mean score (95% CI)",
               "median", "min-max")
    for column in columns if not coop else (columns[0], columns[1], *columns[5:]):
        table.add_column(column, justify="right")
    entry = GAMES.entry(report["game"]) if report["game"] in GAMES else None
    for name, row in report["bots"].items():
        low, high = row["ci95"]
        level = level_of(entry, name) if entry is not None else None
        scores = row["scores"]
        mean_low, mean_high = scores["mean_ci95"]
        wins = ([] if coop else [f"{row['wins']:.0f}", f"{row['win_rate']:.1%}",
                                 f"{low:.1%}-{high:.1%}"])
        table.add_row(f"{name} ({level})" if level else name, str(row["games"]), *wins,
                      f"{scores['mean']:.1f} ({mean_low:.1f}-{mean_high:.1f})",
                      f"{scores['median']:g}", f"{scores['min']:g}-{scores['max']:g}")
    console.print(table)
    if coop:
        _print_stats(report, console)
        return
    seats = Table(title="by seat")
    for column in ("seat", "win rate", "95% CI"):
        seats.add_column(column, justify="right")
    for row in report["seats"]:
        seats.add_row(str(row["seat"]), f"{row['win_rate']:.1%}",
                      f"{row['ci95'][0]:.1%}-{row['ci95'][1]:.1%}")
    console.print(seats)
    figures = {name: row["totals"] for name, row in report["bots"].items() if "totals" in row}
    if any("claims" in totals for totals in figures.values()):
        speed = Table(title="by bot: claims and errors")
        for column in ("bot", "takes per game", "mean time to claim", "error rate"):
            speed.add_column(column, justify="right")
        for name, totals in figures.items():
            games = report["bots"][name]["games"]
            claims, errors = totals.get("claims", 0.0), totals.get("errors", 0.0)
            takes = totals.get("takes", 0.0)
            mean_ms = totals.get("claim_ms", 0.0) / claims if claims else float("nan")
            rate = errors / (takes + errors) if takes + errors else 0.0
            speed.add_row(name, f"{takes / games:.2f}", f"{mean_ms / 1000:.2f} s", f"{rate:.1%}")
        console.print(speed)
    _print_stats(report, console)


def _print_stats(report: dict[str, Any], console: Console) -> None:
    round_name = report.get("round_name", "round")
    for key, value in report["stats"].items():
        # "+ 0.0" turns a rounding -0.0 into 0.0 for display.
        low, mean, high = (value[k] + 0.0 for k in ("low", "mean", "high"))
        what = (f"turns per {round_name}" if key == "turns_per_round"
                else f"{key} per game")
        console.print(f"mean {what}: {mean:.1f} (95% CI {low:.1f} to {high:.1f})")
