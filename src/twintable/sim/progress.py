"""The progress bar of long runs: games done, time spent, and once the first games are in,
an estimate of the whole run's time (rich's own speed estimate, over its recent chunks)."""

from __future__ import annotations

from datetime import timedelta

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text


def _clock(seconds: float) -> str:
    return str(timedelta(seconds=round(seconds)))


class EstimateColumn(ProgressColumn):
    """"about 0:02:10 in all, 0:01:40 left" once a speed is known; "estimating..." before."""

    def render(self, task: Task) -> Text:
        if task.finished:
            return Text(f"done in {_clock(task.finished_time or task.elapsed or 0)}",
                        style="progress.elapsed")
        remaining = task.time_remaining
        if remaining is None or not task.completed:
            return Text("estimating…", style="progress.remaining")
        return Text(f"about {_clock((task.elapsed or 0) + remaining)} in all, "
                    f"{_clock(remaining)} left", style="progress.remaining")


def progress_bar(console: Console) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), EstimateColumn(), console=console, transient=False)
