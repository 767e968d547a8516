"""``twintable train timo`` (its ``"envs"`` extension's ``trainer``): an A2C run
(research/training.py) or the search distilled (``--teacher search``, research/distill.py),
the weights written as a small ``.npz`` and measured against ``heuristic``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from twintable.games.timo.research.training import LearnedPolicy, train


def train_timo(
        out: Annotated[Path, typer.Option(help="where to write the weights (.npz)")],
        teacher: Annotated[str | None, typer.Option(
            help="distil this bot ('search') instead of training with A2C")] = None,
        steps: Annotated[int, typer.Option(help="A2C: learner decisions to train for")
                         ] = 4_000_000,
        seed: Annotated[int, typer.Option()] = 1,
        envs: Annotated[int, typer.Option(help="A2C: games stepped together")] = 256,
        hidden: Annotated[int | None, typer.Option(
            help="hidden units (default: 64 for A2C, 128 distilled)")] = None,
        games: Annotated[int, typer.Option(help="distilling: games per round")] = 500,
        rounds: Annotated[int, typer.Option(
            help="distilling: rounds (the first records the teacher, the others the "
                 "network so far, labelled by the teacher)")] = 3,
        teacher_samples: Annotated[int, typer.Option(
            help="distilling: the search's deals per decision")] = 200,
        workers: Annotated[int, typer.Option(help="distilling: processes")] = 2,
        eval_games: Annotated[int, typer.Option(
            help="games against heuristic afterwards (0: none)")] = 400) -> None:
    """Train a 2-player Timo's Twist policy: A2C on the C vector engine, or (``--teacher
    search``) the search bot distilled into the network (research/distill.py)."""
    from twintable.envs.evaluation import evaluate

    if teacher is None:
        network, summary = train(steps, seed, envs, hidden=hidden or 64, log=typer.echo)
        network.save(out, **summary)
        typer.echo(f"wrote {out} ({out.stat().st_size:,} bytes) after "
                   f"{summary['steps']:,} steps in {summary['seconds']:.0f} s")
    elif teacher == "search":
        from twintable.games.timo.research.distill import distill

        _, summary = distill(games, rounds, seed, hidden or 128, teacher_samples,
                             workers=workers, out=out, log=typer.echo)
        typer.echo(f"wrote {out} ({out.stat().st_size:,} bytes) after {rounds} rounds, "
                   f"{summary['decisions']:,} decisions, in {summary['seconds']:.0f} s")
    else:
        raise typer.BadParameter(f"only 'search' can be distilled, not {teacher!r}",
                                 param_hint="--teacher")
    if eval_games:
        result = evaluate(LearnedPolicy.load(out), "heuristic", eval_games, seed=seed + 10_000,
                          game="timo", options={"target": summary["target"]})
        typer.echo(f"against heuristic: {result}")
