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


def zoomed(lows: Sequence[float], highs: Sequence[float], marks: Sequence[float] = (),
           floor: float | None = 0.0, ceiling: float | None = 1.0,
           least: float = 0.02) -> tuple[float, float]:
    """Axis limits around the data (intervals and the lines drawn with them), a margin
    either side, at least ``least`` wide and never past ``floor`` and ``ceiling`` (None:
    no bound): a one-point effect on a 0-1 axis is invisible."""
    low, high = min([*lows, *marks]), max([*highs, *marks])
    span = max(high - low, least)
    centre = (low + high) / 2
    low, high = centre - 0.6 * span, centre + 0.6 * span
    if ceiling is not None and high > ceiling:
        low, high = low - (high - ceiling), ceiling
    if floor is not None and low < floor:
        low, high = floor, high + (floor - low)
    if ceiling is not None:
        high = min(high, ceiling)
    return low, high


def _rates(axis: Any, labels: Sequence[str], rows: Sequence[Mapping[str, Any]],
           even: float | None, title: str, ylabel: str = "win rate (95% CI)") -> None:
    """Rates as dots with their intervals on an axis zoomed to them (bars would have to
    start at 0, and then hide a one-point effect)."""
    rates = [row["win_rate"] for row in rows]
    below = [max(0.0, rate - row["ci95"][0]) for rate, row in zip(rates, rows, strict=True)]
    above = [max(0.0, row["ci95"][1] - rate) for rate, row in zip(rates, rows, strict=True)]
    axis.errorbar(list(labels), rates, yerr=[below, above], fmt="o", capsize=6, color=_BLUE)
    if even is not None:
        axis.axhline(even, color=_GREY, linestyle="--", label=f"even chance ({even:.0%})")
        axis.legend(loc="best")
    axis.set_ylim(*zoomed([row["ci95"][0] for row in rows], [row["ci95"][1] for row in rows],
                          [even] if even is not None else []))
    axis.yaxis.set_major_formatter(_percent())
    axis.set_ylabel(ylabel)
    axis.set_title(title)
    axis.tick_params(axis="x", labelrotation=20)


def _percent() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0, decimals=None)


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
    shown = f"{report.get('round_name', 'round')}s" if unit == "rounds" else unit
    axis.set_xlabel(shown)
    axis.set_ylabel("games")
    axis.set_title(f"game length ({shown})")


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
    round_name = report.get("round_name", "round")
    axis.set_xlabel(f"after {round_name} k")
    axis.set_ylabel("share of games")
    axis.set_title(f"the leader after {round_name} k wins")
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


def success(axis: Any, report: Mapping[str, Any], results: Sequence[GameResult]) -> None:
    row = report["coop"]["success"]
    _rates(axis, ["the table"], [row], None, "cooperative: success rate",
           "success rate (95% CI)")


def panels(report: Mapping[str, Any]) -> dict[str, Panel]:
    """The panels this report has data for, in reading order (a cooperative game: its
    success rate, scores and lengths; nobody wins against anybody)."""
    if report.get("coop"):
        return {"success rate": success, "final scores": scores, "game length": lengths}
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
#: Past this many cells, a sweep's figures sort the cells by value and leave out the
#: per-cell turn-order curves (one line a cell no longer reads).
MANY_CELLS = 6


def _cell_dots(axis: Any, labels: Sequence[str], series: Mapping[str, Sequence[Any]],
               even: Sequence[float] | None, title: str, xlabel: str,
               rates: bool = True) -> None:
    """One row per cell (its whole label, read across), a dot and its interval per series
    (a value is (mean, low, high), or None where the cell lacks it), on an axis zoomed to
    the data; many cells are sorted by the first series, highest on top."""
    order = list(range(len(labels)))
    first = next(iter(series.values()), [])
    if len(labels) > MANY_CELLS and first:
        order.sort(key=lambda cell: first[cell][0] if first[cell] is not None else -1e9)
    else:
        order.reverse()  # grid order read from the top
    place = {cell: row for row, cell in enumerate(order)}
    count = max(1, len(series))
    lows: list[float] = []
    highs: list[float] = []
    for index, (name, values) in enumerate(series.items()):
        offset = (index - (count - 1) / 2) * 0.8 / count
        ys, xs, below, above = [], [], [], []
        for cell, value in enumerate(values):
            if value is None:
                continue
            mean, low, high = value
            ys.append(place[cell] + offset)
            xs.append(mean)
            # An interval at 0% or 100% can miss the rate by a rounding error.
            below.append(max(0.0, mean - low))
            above.append(max(0.0, high - mean))
            lows.append(low)
            highs.append(high)
        axis.errorbar(xs, ys, xerr=[below, above], fmt="o", capsize=3, label=name)
    marks: list[float] = []
    if even is not None:
        for cell, line in enumerate(even):
            axis.vlines(line, place[cell] - 0.45, place[cell] + 0.45, color=_GREY,
                        linestyle="--", label="even chance" if cell == 0 else None)
            marks.append(line)
    if lows:
        axis.set_xlim(*zoomed(lows, highs, marks,
                              floor=0.0 if rates or min(lows) >= 0 else None,
                              ceiling=1.0 if rates else None,
                              least=0.02 if rates else 1e-9))
    if rates:
        axis.xaxis.set_major_formatter(_percent())
    axis.set_yticks(range(len(labels)))
    axis.set_yticklabels([labels[cell] for cell in order], fontsize=8)
    axis.set_xlabel(xlabel)
    axis.set_title(title)
    axis.grid(axis="x", alpha=0.3)
    if len(series) > 1 or even is not None:
        axis.legend(fontsize=7, loc="best")


def _triple(row: Mapping[str, Any] | None, key: str = "win_rate") -> Any:
    if row is None:
        return None
    return (row[key], row["ci95"][0], row["ci95"][1])


def sweep_panels(report: Mapping[str, Any]) -> dict[str, Callable[[Any], None]]:
    """The sweep's figures, one row per cell: win rates per bot (a cooperative game: the
    success rate), the first player's and the dealer's, the metric, the mean length, and
    with few cells the turn-order curve of each."""
    cells = report["cells"]
    labels = [cell["label"] for cell in cells]
    reports = [cell["report"] for cell in cells]
    evens = [rep["even"] for rep in reports]
    even = evens[0] if len(set(evens)) == 1 else None
    coop = all(rep.get("coop") for rep in reports)
    bots = list(dict.fromkeys(name for rep in reports for name in rep["bots"]))
    chosen: dict[str, Callable[[Any], None]] = {}
    if any(rep.get("coop") for rep in reports):
        chosen["success rate, per cell"] = lambda axis: _cell_dots(
            axis, labels, {"success": [_triple((rep.get("coop") or {}).get("success"))
                                       for rep in reports]}, None,
            "success rate (95% CI)", "success rate")
    if not coop:
        chosen["win rate by bot, per cell"] = lambda axis: _cell_dots(
            axis, labels, {name: [None if rep.get("coop") else _triple(rep["bots"].get(name))
                                  for rep in reports] for name in bots},
            evens, "win rate by bot (95% CI)", "win rate")
    if any(rep["turn_order"] for rep in reports) and not coop:
        chosen["first player and dealer, per cell"] = lambda axis: _cell_dots(
            axis, labels, {
                "first player": [_triple(rep["turn_order"][0]) if rep["turn_order"] else None
                                 for rep in reports],
                "dealer": [_triple(rep["turn_order"][-1]) if rep["turn_order"] else None
                           for rep in reports]},
            evens, "first player and dealer (95% CI)", "win rate")

        def positions(axis: Any) -> None:
            lows, highs = [], []
            for label, rep in zip(labels, reports, strict=True):
                order = rep["turn_order"]
                if order:
                    axis.errorbar([row["position"] + 1 for row in order],
                                  [row["win_rate"] for row in order],
                                  yerr=[[row["win_rate"] - row["ci95"][0] for row in order],
                                        [row["ci95"][1] - row["win_rate"] for row in order]],
                                  marker="o", capsize=3, label=label)
                    lows += [row["ci95"][0] for row in order]
                    highs += [row["ci95"][1] for row in order]
            if even is not None:
                axis.axhline(even, color=_GREY, linestyle="--")
            if lows:
                axis.set_ylim(*zoomed(lows, highs, [even] if even is not None else []))
            axis.yaxis.set_major_formatter(_percent())
            axis.set_xticks(range(1, max(rep["players"] for rep in reports) + 1))
            axis.set_xlabel("turn position (1: first player; last: dealer)")
            axis.set_ylabel("win rate (95% CI)")
            axis.set_title("seat effects per cell")
            axis.legend(fontsize=6)

        if len(cells) <= MANY_CELLS:
            chosen["turn order, per cell"] = positions
    if any("metric" in rep for rep in reports):
        name = next(rep["metric"]["name"] for rep in reports if "metric" in rep)
        chosen[f"{name}, per cell"] = lambda axis: _cell_dots(
            axis, labels, {name: [(rep["metric"]["mean"], *rep["metric"]["ci95"])
                                  if rep.get("metric", {}).get("games") else None
                                  for rep in reports]}, None, f"{name} (95% CI)", name,
            rates=False)
    unit = reading_unit([rep["lengths"]["length"] for rep in reports])
    round_name = reports[0].get("round_name", "round") if reports else "round"
    shown = f"{round_name}s" if unit == "rounds" else unit
    chosen["game length, per cell"] = lambda axis: _cell_dots(
        axis, labels, {"mean length": [
            (rep["lengths"]["length"][unit]["mean"], *rep["lengths"]["length"][unit]
             ["mean_ci95"]) for rep in reports]}, None, "game length per cell (95% CI)",
        f"mean length ({shown})", rates=False)
    return chosen


def _panel_height(cells: int) -> float:
    return max(3.2, 0.45 * cells + 1.6)


def plot_sweep(report: Mapping[str, Any], path: Path) -> None:
    plt = _pyplot()
    chosen = list(sweep_panels(report).values())
    height = _panel_height(len(report["cells"]))
    figure, axes = plt.subplots(len(chosen), 1, figsize=(9.0, height * len(chosen)),
                                squeeze=False)
    for axis, draw in zip(axes.flat, chosen, strict=True):
        draw(axis)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def sweep_svgs(report: Mapping[str, Any]) -> dict[str, str]:
    height = _panel_height(len(report["cells"]))
    return {title: svg(draw, (7.5, height)) for title, draw in sweep_panels(report).items()}
