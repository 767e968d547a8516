"""The research docs cannot drift from the code: every Python example in them runs, its
printed output is the text block that follows it, and every observation table is the
one the code prints (``Layout.table()``)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = ["envs.md", "envs_timo.md", "envs_twinz.md", "openspiel.md"]
#: A fenced Python block, and the ```text block right after it if there is one (its output).
EXAMPLE = re.compile(r"```python\n(?P<code>.*?)```\n(?:\n?```text\n(?P<output>.*?)```)?",
                     re.DOTALL)


def examples() -> list[tuple[str, int, str, str | None]]:
    found = []
    for page in PAGES:
        text = (DOCS / page).read_text(encoding="utf-8")
        for match in EXAMPLE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((page, line, match["code"], match["output"]))
    return found


EXAMPLES = examples()


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("page", "line", "code", "output"), EXAMPLES,
                         ids=[f"{page}:{line}" for page, line, _, _ in EXAMPLES])
def test_every_example_runs_and_prints_what_the_page_shows(page: str, line: int, code: str,
                                                            output: str | None) -> None:
    for extra in ("pyspiel", "sb3_contrib"):  # optional libraries: skipped without them
        if extra in code:
            pytest.importorskip(extra)
    printed = io.StringIO()
    namespace: dict[str, Any] = {"__name__": f"docs_{page}_{line}"}
    with contextlib.redirect_stdout(printed):
        exec(compile(code, f"{page}:{line}", "exec"), namespace)
    if output is not None:
        assert printed.getvalue() == output


def test_the_pages_have_examples_with_outputs() -> None:
    assert {page for page, *_ in EXAMPLES} == set(PAGES)
    assert sum(output is not None for *_, output in EXAMPLES) >= len(PAGES)


def layouts() -> list[tuple[str, str]]:
    from twintable.envs import timo_v0, twinit_v0, twins_v0, twinz_v1

    return [("envs.md", twins_v0.OBSERVATION.table()),
            ("envs.md", twinit_v0.OBSERVATION.table()),
            ("envs_twinz.md", twinz_v1.OBSERVATION.table()),
            ("envs_timo.md", timo_v0.raw_env(players=2).layout.table())]


def test_every_observation_table_is_the_codes() -> None:
    for page, table in layouts():
        assert table in (DOCS / page).read_text(encoding="utf-8"), f"{page} is out of date"
