"""The figures of a simulation report: win rates, turn order, teams, lengths, margins and
the leader curve, each a panel that draws on one matplotlib axis, put together as one PNG
(``--plot``) or as separate inline SVGs (``--report``).

Matplotlib is imported when a figure is drawn, not when the module is.
"""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from twintable.sim.report import game_length, margin, reading_unit
from twintable.sim.runner import GameResult

Panel = Callable[[Any, Mapping[str, Any], Sequence[GameResult]], None]
_BLUE, _GREY = "#4c78a8", "grey"


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _rates(axis: Any, labels: Sequence[str], rows: Sequence[Mapping[str, Any]], even: float,
           title: str, ylabel: str = "win rate (95% CI)") -> None:
    rates = [row["win_rate"] for row in rows]
    below = [max(0.0, rate - row["ci95"][0]) for rate, row in zip(rates, rows, strict=True)]
    above = [max(0.0, row["ci95"][1] - rate) for rate, row in zip(rates, rows, strict=True)]
    axis.bar(list(labels), rates, yerr=[below, above], capsize=6, color=_BLUE)
    axis.axhline(even, color=_GREY, linestyle="--", label=f"even chance ({even:.0%})")
    axis.set_ylim(0, 1)
    axis.set_ylabel(ylabel)
    axis.set_title(title)
    axis.legend(loc="upper right")
    axis.tick_params(axis="x", labelrotation=20)


def win_rates(axis: Any, report: Mapping[str, Any], results: Sequence[GameResult]) -> None:
    names = list(report["bots"])
    _rates(axis, names, [report["bots"][name] for name in names], report.get("even", 0.5),
           f"{report['game']}: {report['games']} games, {report['players']} players, by bot")


def turn_order(axis: Any, report: Mapping[str, Any], results: Sequence[GameResult]) -> None:
    rows = report["turn_order"]
    _rates(axis, [row["name"].replace(" (", "\n(") for row in rows], rows, report["even"],
           "by turn order (first player ... dealer)")


def seats(axis: Any, report: Mapping[str, Any], results: Sequence[GameResult]) -> None:
    rows = report["seats"]
    _rates(axis, [f"seat {row['seat']}" for row in rows], rows, report["even"], "by seat")


def teams(axis: Any, report: Mapping[str, Any], results: Sequence[GameResult]) -> None:
    pairs = report["teams"]["partnerships"]
    _rates(axis, list(pairs), list(pairs.values()), report["even"],
           "by partnership (a team's win counts once)", "team win rate (95% CI)")


def lengths(axis: Any, report: Mapping[str, Any], results: Sequence[GameResult]) -> None:
    unit = length_unit(report)
    values = [game_length(result)[unit] for result in results]
    # Whole rounds get a bar each; moves and seconds are binned.
    bins: Any = (range(int(min(values)), int(max(values)) + 2)
                 if unit == "rounds" and values else 30)
    axis.hist(values, bins=bins, color=_BLUE, align="left" if unit == "rounds" else "mid")
    axis.set_xlabel(unit)
    axis.set_ylabel("games")
    axis.set_title(f"game length ({unit})")


def margins(axis: Any, report: Mapping[str, Any], results: Sequence[GameResult]) -> None:
    gaps = [gap for gap in map(margin, results) if gap is not None]
    axis.hist(gaps, bins=30, color=_BLUE)
    axis.set_xlabel("winner's lead over the runner-up at the end")
    axis.set_ylabel("games")
    axis.set_title("winning margin")


def leader(axis: Any, report: Mapping[str, Any], results: Sequence[GameResult]) -> None:
    curve = report["leader"]
    rounds = [row["round"] for row in curve]
    rates = [row["win_rate"] for row in curve]
    axis.plot(rounds, rates, marker="o", color=_BLUE, label="leader wins")
    axis.fill_between(rounds, [row["ci95"][0] for row in curve],
                      [row["ci95"][1] for row in curve], color=_BLUE, alpha=0.2,
                      label="95% CI")
    axis.axhline(report["even"], color=_GREY, linestyle="--", label="even chance")
    axis.set_ylim(0, 1)
    axis.set_xlabel("after round (hand) k")
    axis.set_ylabel("share of games")
    axis.set_title("the leader after round k wins")
    axis.legend(loc="lower right")


def scores(axis: Any, report: Mapping[str, Any], results: Sequence[GameResult]) -> None:
    by_bot: dict[str, list[int]] = defaultdict(list)
    for result in results:
        for seat, name in enumerate(result.bots):
            by_bot[name].append(result.scores[seat])
    names = list(report["bots"])
    axis.hist([by_bot[name] for name in names], bins=30, label=names, alpha=0.8)
    axis.set_xlabel("final score")
    axis.set_ylabel("games")
    axis.set_title("final scores")
    axis.legend()


def length_unit(report: Mapping[str, Any]) -> str:
    return reading_unit([report["lengths"]["length"]])


def panels(report: Mapping[str, Any]) -> dict[str, Panel]:
    """The panels this report has data for, in reading order."""
    chosen: dict[str, Panel] = {"win rates by bot": win_rates}
    if report.get("teams"):
        chosen["teams"] = teams
    if report.get("turn_order"):
        chosen["turn order"] = turn_order
    chosen["seats"] = seats
    chosen["final scores"] = scores
    chosen["game length"] = lengths
    if report["lengths"]["margin"]:
        chosen["winning margin"] = margins
    if report.get("leader"):
        chosen["leader after round k"] = leader
    return chosen


def plot_report(report: Mapping[str, Any], results: Sequence[GameResult], path: Path) -> None:
    """Every panel in one PNG, three a row."""
    plt = _pyplot()
    chosen = list(panels(report).values())
    rows = (len(chosen) + 2) // 3
    figure, axes = plt.subplots(rows, 3, figsize=(15, 4.2 * rows), squeeze=False)
    for axis, panel in zip(axes.flat, chosen, strict=False):
        panel(axis, report, results)
    for axis in list(axes.flat)[len(chosen):]:
        axis.set_visible(False)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def svg(draw: Callable[[Any], None], size: tuple[float, float] = (6.4, 4.0)) -> str:
    """One figure drawn by ``draw`` on its single axis, as an inline SVG element."""
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=size)
    draw(axis)
    figure.tight_layout()
    out = io.StringIO()
    figure.savefig(out, format="svg")
    plt.close(figure)
    text = out.getvalue()
    return text[text.index("<svg"):]


def panel_svgs(report: Mapping[str, Any],
               results: Sequence[GameResult]) -> dict[str, str]:
    """Each panel of the report as an inline SVG, by title."""
    return {title: svg(lambda axis, panel=panel: panel(axis, report, results))  # type: ignore[misc]
            for title, panel in panels(report).items()}


# -- sweeps -------------------------------------------------------------------------
def _cell_bars(axis: Any, labels: Sequence[str], series: Mapping[str, Sequence[Any]],
               even: Sequence[float] | None, title: str, ylabel: str) -> None:
    """Grouped bars, one group per cell and one bar per series; a value is
    (rate, low, high) or None where the cell lacks it."""
    count = max(1, len(series))
    width = 0.8 / count
    for index, (name, values) in enumerate(series.items()):
        xs, heights, below, above = [], [], [], []
        for position, value in enumerate(values):
            if value is None:
                continue
            rate, low, high = value
            xs.append(position - 0.4 + width * (index + 0.5))
            heights.append(rate)
            # An interval at 0% or 100% can miss the rate by a rounding error.
            below.append(max(0.0, rate - low))
            above.append(max(0.0, high - rate))
        axis.bar(xs, heights, width=width, yerr=[below, above], capsize=3, label=name)
    if even is not None:
        # Each cell's own even line: one team in two is not one player in four.
        axis.hlines(even, [x - 0.45 for x in range(len(labels))],
                    [x + 0.45 for x in range(len(labels))], color=_GREY, linestyle="--",
                    label="even chance")
    axis.set_xticks(range(len(labels)))
    axis.set_xticklabels([label.replace(" ", "\n") for label in labels], fontsize=7)
    axis.set_ylabel(ylabel)
    axis.set_title(title)
    axis.legend(fontsize=7)


def _triple(row: Mapping[str, Any] | None, key: str = "win_rate") -> Any:
    if row is None:
        return None
    return (row[key], row["ci95"][0], row["ci95"][1])


def sweep_panels(report: Mapping[str, Any]) -> dict[str, Callable[[Any], None]]:
    """The sweep's figures: win rates per cell, the first player's and the dealer's, the
    mean length, and the turn-order curve of each cell."""
    cells = report["cells"]
    labels = [cell["label"] for cell in cells]
    reports = [cell["report"] for cell in cells]
    evens = [rep["even"] for rep in reports]
    even = evens[0] if len(set(evens)) == 1 else None
    bots = list(dict.fromkeys(name for rep in reports for name in rep["bots"]))
    chosen: dict[str, Callable[[Any], None]] = {
        "win rate by bot, per cell": lambda axis: _cell_bars(
            axis, labels, {name: [_triple(rep["bots"].get(name)) for rep in reports]
                           for name in bots}, evens, "win rate by bot (95% CI)", "win rate")}
    if any(rep["turn_order"] for rep in reports):
        chosen["first player and dealer, per cell"] = lambda axis: _cell_bars(
            axis, labels, {
                "first player": [_triple(rep["turn_order"][0]) if rep["turn_order"] else None
                                 for rep in reports],
                "dealer": [_triple(rep["turn_order"][-1]) if rep["turn_order"] else None
                           for rep in reports]},
            evens, "first player and dealer (95% CI)", "win rate")

        def positions(axis: Any) -> None:
            for label, rep in zip(labels, reports, strict=True):
                order = rep["turn_order"]
                if order:
                    axis.errorbar([row["position"] + 1 for row in order],
                                  [row["win_rate"] for row in order],
                                  yerr=[[row["win_rate"] - row["ci95"][0] for row in order],
                                        [row["ci95"][1] - row["win_rate"] for row in order]],
                                  marker="o", capsize=3, label=label)
            if even is not None:
                axis.axhline(even, color=_GREY, linestyle="--")
            axis.set_xticks(range(1, max(rep["players"] for rep in reports) + 1))
            axis.set_xlabel("turn position (1: first player; last: dealer)")
            axis.set_ylabel("win rate (95% CI)")
            axis.set_title("seat effects per cell")
            axis.legend(fontsize=6)

        chosen["turn order, per cell"] = positions

    def lengths(axis: Any) -> None:
        unit = reading_unit([rep["lengths"]["length"] for rep in reports])
        units = [unit] * len(reports)
        values = [rep["lengths"]["length"][unit] for rep in reports]
        means = [value["mean"] for value in values]
        axis.bar(range(len(labels)), means, color=_BLUE,
                 yerr=[[m - v["mean_ci95"][0] for m, v in zip(means, values, strict=True)],
                       [v["mean_ci95"][1] - m for m, v in zip(means, values, strict=True)]],
                 capsize=4)
        axis.set_xticks(range(len(labels)))
        axis.set_xticklabels([label.replace(" ", "\n") for label in labels], fontsize=7)
        axis.set_ylabel(f"mean length ({units[0]}, 95% CI)")
        axis.set_title("game length per cell")

    chosen["game length, per cell"] = lengths
    return chosen


def plot_sweep(report: Mapping[str, Any], path: Path) -> None:
    plt = _pyplot()
    chosen = list(sweep_panels(report).values())
    width = max(8.0, 1.2 * len(report["cells"]))
    figure, axes = plt.subplots(len(chosen), 1, figsize=(width, 4.2 * len(chosen)),
                                squeeze=False)
    for axis, draw in zip(axes.flat, chosen, strict=True):
        draw(axis)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def sweep_svgs(report: Mapping[str, Any]) -> dict[str, str]:
    width = max(6.4, 1.1 * len(report["cells"]))
    return {title: svg(draw, (width, 4.2)) for title, draw in sweep_panels(report).items()}
