"""The rules pages players read, one per game and language, rendered to HTML.

A page lives at ``<package>/rules/<lang>.md`` (the game entry's package) for ``lang`` in
:data:`LANGUAGES`. Pages are for players: written in the project's own words (the
rulebooks' facts may carry over, never their sentences), each language written natively,
never a word-for-word translation, and nothing developer-facing (no file names, no
engine notes, no change history).

Page layout, the same in every game and every language (a test compares by position):
no ``#`` title (the client shows the game's name), then exactly these eight ``##``
sections in this order, each heading written in the page's language:

1. ``overview``  -- the goal, the number of players, how long a game takes.
2. ``setup``     -- what is in the game and how a game is set up.
3. ``turn``      -- what happens in a turn (or a round).
4. ``cards``     -- every card or move and what it does.
5. ``scoring``   -- how points, chips or sets are counted.
6. ``end``       -- when and how the game ends, who wins.
7. ``options``   -- variants and table options: every option of the game's
   ``options_schema``, its name in backticks as in `` `target` ``, with what it does and
   its default.
8. ``rulings``   -- our rulings: the project's rulings from ``shared/RULES.md`` where the
   rulebook is silent or ambiguous, short. Rendered as a marked box.

How long a game takes is never written as a number of its own: ``{minutes}`` and
``{players}`` (``{minutes:MODE}``, ``{players:MODE}`` for a game with modes) stand for the
figure the lobby shows, measured by ``sim/durations.py`` (``Game.table_minutes``), so the
page and the lobby cannot disagree (issue #39: pages said 30 minutes where 9 were measured).

Markdown: CommonMark plus tables; raw HTML in a page is shown as text, never as HTML.
A picture of a real card is a Markdown image with a ``card:`` address,
``![blue 7](card:timo/blue/7)``: the server turns it into
``<span class="rules-card" data-game="timo" data-card="blue/7">`` and the browser
draws the card there with the game's own ``drawCard`` (``games/<id>/web/index.js``), so the
card specs are whatever that function accepts.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

#: The languages every game's rules are written in; English is the fallback.
LANGUAGES = ("en", "fr", "ko", "nl")
DEFAULT_LANGUAGE = "en"

#: The ``##`` sections of every page, in order (see the module docstring).
SECTIONS = ("overview", "setup", "turn", "cards", "scoring", "end", "options", "rulings")

#: The address scheme of a card picture in a page.
CARD_SCHEME = "card:"


@dataclass(frozen=True)
class RulesPage:
    """A rendered page: the language actually served, its HTML and its section titles."""

    lang: str
    html: str
    sections: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        return {"lang": self.lang, "html": self.html,
                "sections": [{"id": key, "title": title} for key, title in self.sections]}


def _image(renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict,
           env: EnvType) -> str:
    """A ``card:`` image becomes a placeholder the client draws into; others stay images."""
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    if not src.startswith(CARD_SCHEME):
        return renderer.image(tokens, idx, options, env)
    game, _, card = src[len(CARD_SCHEME):].partition("/")
    label = renderer.renderInlineAsText(token.children or [], options, env)
    return (f'<span class="rules-card" role="img" aria-label="{html.escape(label)}" '
            f'data-game="{html.escape(game)}" data-card="{html.escape(card)}"></span>')


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.add_render_rule("image", _image)
    return md


_MD = _markdown()


def source(package: str, lang: str) -> str | None:
    """The Markdown of a game's page in ``lang``, or None when it is not written."""
    path = resources.files(package).joinpath("rules", f"{lang}.md")
    return path.read_text(encoding="utf-8") if path.is_file() else None


_FIGURE = re.compile(r"\{(minutes|players)(?::(\w+))?\}")


def shown_minutes(minutes: float) -> int:
    """A measured length as people read it: as the lobby's ``typicalMinutes`` rounds it
    (halves up, a minute at least)."""
    return 1 if minutes < 1 else math.floor(minutes + 0.5)


def with_figures(text: str, figures: Mapping[str, tuple[int, float]]) -> str:
    """``text`` with its ``{minutes}`` and ``{players}`` written out from ``figures``
    (``Game.table_minutes``); KeyError names a figure the game does not declare."""
    def figure(match: re.Match[str]) -> str:
        players, minutes = figures[match[2] or ""]
        return str(players if match[1] == "players" else shown_minutes(minutes))

    return _FIGURE.sub(figure, text)


def render(text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """Render a page: the HTML, one ``<section>`` per ``##`` heading, and the titles.

    Sections are keyed by position (:data:`SECTIONS`); the last one, our rulings, gets
    the ``rules-rulings`` class so that it shows as a marked box.
    """
    env: EnvType = {}
    tokens = _MD.parse(text, env)
    starts = [i for i, tok in enumerate(tokens) if tok.type == "heading_open" and tok.tag == "h2"]
    render_ = _MD.renderer.render
    parts = [render_(tokens[:starts[0]] if starts else tokens, _MD.options, env)]
    titles: list[tuple[str, str]] = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(tokens)
        key = SECTIONS[n] if n < len(SECTIONS) else f"section-{n + 1}"
        titles.append((key, tokens[start + 1].content))
        tokens[start].attrSet("id", f"rules-{key}")
        css = "rules-section rules-rulings" if key == "rulings" else "rules-section"
        parts.append(f'<section class="{css}" aria-labelledby="rules-{key}">\n'
                     f"{render_(tokens[start:end], _MD.options, env)}</section>\n")
    return "".join(parts), tuple(titles)


def rules_page(package: str, lang: str,
               figures: Mapping[str, tuple[int, float]] | None = None) -> RulesPage:
    """The rules page of the game whose package (its entry's ``package``) is ``package``
    in ``lang``, its lengths written from ``figures`` (``Game.table_minutes``); an
    unknown or unwritten language falls back to English.

    A game whose pages are not written yet shows its package README, in English, so
    the page is never empty while its pages are being written (CI requires the pages:
    tests/server/test_rules_pages.py).
    """
    wanted = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    for candidate in dict.fromkeys((wanted, DEFAULT_LANGUAGE)):
        text = source(package, candidate)
        if text is not None:
            return RulesPage(candidate, *render(with_figures(text, figures or {})))
    readme = resources.files(package).joinpath("README.md").read_text(encoding="utf-8")
    return RulesPage(DEFAULT_LANGUAGE, *render(readme))
