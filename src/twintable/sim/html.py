"""One self-contained HTML page for a simulation or a sweep: what was run (the exact
command and seed, to reproduce it), tables, and figures as inline SVG, with no file or
address outside the page, so a designer can send it to a co-author as it is."""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path

from markdown_it import MarkdownIt

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto;
       padding: 0 1rem; color: #222; line-height: 1.45; }
code, pre { background: #f3f3f3; border-radius: 4px; }
pre { padding: .6rem .8rem; white-space: pre-wrap; word-break: break-all; }
table { border-collapse: collapse; margin: .6rem 0 1.2rem; }
th, td { border: 1px solid #ccc; padding: .25rem .55rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
figure { display: inline-block; margin: .5rem; vertical-align: top; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: .9rem; color: #555; text-align: center; }
"""


def html_page(title: str, command: str, seed: int, body_markdown: str,
              figures: Mapping[str, str]) -> str:
    """The page: ``body_markdown`` rendered (raw HTML in it shown as text), then the
    figures, each an inline ``<svg>`` with its caption."""
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    shown = "".join(f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>\n"
                    for caption, svg in figures.items())
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            f"<h1>{html.escape(title)}</h1>\n"
            f"<p>Reproduce with seed {seed}:</p>\n<pre><code>{html.escape(command)}</code></pre>\n"
            f"{markdown.render(body_markdown)}\n<h2>Figures</h2>\n{shown}</body>\n</html>\n")


def write_page(path: Path, page: str) -> None:
    path.write_text(page, encoding="utf-8")
