"""Twinz's own tools on the command line, mounted as ``twintable twinz ...`` through its
entry (``plugin.py``: ``commands``): rebuilding the decks, evaluating the word bots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

app = typer.Typer(help="Twinz tools: decks and word bots.", no_args_is_help=True)
console = Console()


def _fail(message: str) -> typer.Exit:
    console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(2)


@app.command("build-decks")
def twinz_build_decks(
    out: Annotated[Path | None, typer.Option(help="Where to write the decks JSON "
                                                  "(default: the package's data file).")]
    = None,
) -> None:
    """Rebuild the Twinz decks, lexicon and word families from Lexique 3.83, wordfreq and the
    reviews in the package data (the \\[twinz-build] extra; families also need \\[words])."""
    try:
        from twintable.games.twinz import roots
        from twintable.games.twinz.decks import build_decks, default_lexique, write_decks

        lexique = default_lexique()
        decks = build_decks(lexique)
    except ImportError as error:
        raise _fail(f"{error}: pip install 'twintable[twinz-build]'") from None
    target = write_decks(decks, out)
    console.print(f"decks written to {target}")
    if out is not None:
        return  # a trial build: the package's lexicon and families stay as they are
    lexicon = roots.write_data(roots.build_lexicon(lexique), "lexicon.json")
    console.print(f"lexicon written to {lexicon}")
    accents = roots.write_data(roots.build_accents(lexique), "accents.json")
    console.print(f"accents written to {accents}")
    try:
        from twintable.games.twinz.words import load_space

        space = load_space()
    except ImportError:
        space = None
    if space is None:
        raise _fail("word families need the word vectors: pip install 'twintable[words]'")
    families = roots.write_data(roots.build_families(lexique, space), "families.json")
    console.print(f"families written to {families}")


@app.command("eval")
def twinz_eval(
    words: Annotated[int, typer.Option(help="Mystery words per deck and level in duo "
                                            "self-play (0: clue pairs only).")] = 300,
    seed: Annotated[int, typer.Option(help="Which words, and the bots' choices.")] = 0,
    levels: Annotated[str | None, typer.Option(help="Bot levels, comma-separated "
                                                    "(default: every level).")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Save the figures here.")]
    = None,
) -> None:
    """The word bots against the shipped human-style clue pairs (guesser top-1/top-5, both
    halves: dev is tuned on, test only reported) and in duo self-play per deck and level
    (round won on the first attempt, identical clues, same-root penalties)."""
    from twintable.games.twinz.evaluate import SPLITS, run

    names = [name.strip() for name in levels.split(",") if name.strip()] if levels else None
    try:
        with Progress(*Progress.get_default_columns()[:1], BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=console, transient=True) as progress:
            def tick(label: str, total: int) -> Any:
                task = progress.add_task(label, total=total)
                return lambda: progress.advance(task)

            results = run(words, seed, names, tick)
    except ImportError as error:
        raise _fail(f"{error}: pip install 'twintable[words]'") from None
    except (RuntimeError, ValueError) as error:
        raise _fail(str(error)) from None
    sizes = results["settings"]["pairs"]
    table = Table(title="Twinz guesser on human-style clue pairs (" + ", ".join(
        f"{half} {sizes[half]}" for half in SPLITS) + "; test: reported only)")
    # "known": targets in the guesser's word space at all (it can never name the others).
    for column in ("half", "level", "top-1", "top-5", "two-sense top-1", "two-sense top-5",
                   "off-deck top-5", "rulebook top-5", "known"):
        table.add_column(column, justify="right")
    for half in SPLITS:
        for level, row in results["pairs"][half].items():
            table.add_row(half, level, f"{row['all']['top1']:.1%}", f"{row['all']['top5']:.1%}",
                          f"{row['two_sense']['top1']:.1%}", f"{row['two_sense']['top5']:.1%}",
                          f"{row['outside_deck']['top5']:.1%}", f"{row['rulebook']['top5']:.1%}",
                          f"{row['all']['known']:.1%}")
    console.print(table)
    if words > 0:
        table = Table(title=f"Twinz duo self-play: {words} mystery words per deck and level, "
                            f"seed {seed}")
        for column in ("deck", "level", "won on 1st attempt", "top-1", "top-5",
                       "identical clues", "same-root penalties"):
            table.add_column(column, justify="right")
        for deck, by_level in results["self_play"].items():
            for level, row in by_level.items():
                table.add_row(deck, level, f"{row['won_first']:.1%}", f"{row['top1']:.1%}",
                              f"{row['top5']:.1%}", f"{row['identical']:.1%}",
                              f"{row['same_root']:.1%}")
        console.print(table)
    if json_out:
        json_out.write_text(json.dumps(results, indent=2), encoding="utf-8")
