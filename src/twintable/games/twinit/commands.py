"""Twin It's own tools on the command line, mounted as ``twintable twinit ...`` through
its entry (``plugin.py``: ``commands``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

app = typer.Typer(help="Twin It tools.", no_args_is_help=True)
console = Console()


@app.command("sheet")
def twinit_sheet(
    out: Annotated[Path, typer.Argument(help="HTML file to write.")],
) -> None:
    """Render every Twin It picture and card on one HTML page, for review."""
    from twintable.games.twinit.art import deck_sheet_html

    out.write_text(deck_sheet_html(), encoding="utf-8")
    console.print(f"deck sheet written to {out}")
