"""The progress bar's estimate of a run's whole time."""

from __future__ import annotations

from rich.console import Console
from rich.progress import Progress

from twintable.sim.progress import EstimateColumn


def test_the_estimate_appears_once_games_are_in_and_gives_the_whole_run() -> None:
    clock = [0.0]
    column = EstimateColumn()
    with Progress(column, console=Console(file=None, quiet=True),
                  get_time=lambda: clock[0]) as progress:
        task_id = progress.add_task("games", total=100)
        task = progress.tasks[0]
        assert column.render(task).plain == "estimating…"
        for _ in range(5):  # 10 games every 2 s: 100 games take 20 s in all
            clock[0] += 2.0
            progress.advance(task_id, 10)
        assert column.render(task).plain == "about 0:00:20 in all, 0:00:10 left"
        clock[0] += 10.0
        progress.advance(task_id, 50)
        assert column.render(task).plain == "done in 0:00:20"
