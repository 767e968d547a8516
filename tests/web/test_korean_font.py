"""Korean reads on a machine without a Korean font: the client ships Noto Sans CJK KR,
every Hangul syllable, in pieces a browser fetches only for the characters a page draws
(scripts/korean_font.py, ``unicode-range``), under the SIL OFL."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.web.conftest import Tab

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "src" / "twintable" / "web" / "fonts"


def build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("korean_font",
                                                  ROOT / "scripts" / "korean_font.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    sys.modules["korean_font"] = script
    spec.loader.exec_module(script)
    return script


def test_every_syllable_and_every_korean_string_is_in_exactly_one_piece() -> None:
    ttlib = pytest.importorskip("fontTools.ttLib")
    script = build_script()
    pieces = script.pieces()
    run = "run scripts/korean_font.py"
    shipped = {path.name for path in FONTS.glob("noto-sans-kr*")}
    assert shipped == {script.font_file(name) for name in pieces}, run
    seen: set[str] = set()
    for name, chars in pieces.items():
        cmap = ttlib.TTFont(FONTS / script.font_file(name)).getBestCmap()
        missing = sorted(char for char in chars if ord(char) not in cmap)
        assert not missing, f"{run}: {name} lacks {''.join(missing[:20])}"
        assert not seen & chars
        seen |= chars
    assert {chr(point) for point in script.SYLLABLES} <= seen  # any name: 지민, 뷁, 똠
    assert script.korean_characters() <= seen
    # The rules in style.css are the pieces' (a range and its file agree).
    style = (ROOT / "src" / "twintable" / "web" / "style.css").read_text(encoding="utf-8")
    assert script.css_rules(pieces) in style, run
    assert "SIL OPEN FONT LICENSE Version 1.1" in (FONTS / "OFL.txt").read_text()


def fetched_fonts(tab: Tab) -> list[str]:
    return tab.page.evaluate("""() => performance.getEntriesByType('resource')
      .map((entry) => entry.name).filter((name) => name.includes('/fonts/'))
      .map((name) => name.split('/').pop())""")


def drawn_width(tab: Tab, text: str) -> Any:
    return tab.page.evaluate("""async (text) => {
      await document.fonts.load('40px "Twin Table Korean"', text);
      const canvas = document.createElement('canvas').getContext('2d');
      canvas.font = '40px "Twin Table Korean"';
      return canvas.measureText(text).width; }""", text)


def advance(piece: str, text: str) -> float:
    """The width ``text`` has at 40 px in a shipped piece's own glyphs."""
    ttlib = pytest.importorskip("fontTools.ttLib")
    font = ttlib.TTFont(FONTS / f"noto-sans-kr-{piece}.woff2")
    cmap, advances = font.getBestCmap(), font["hmtx"].metrics
    return sum(advances[cmap[ord(char)]][0] for char in text) / font["head"].unitsPerEm * 40


@pytest.mark.browser
def test_a_korean_page_fetches_its_own_piece_and_a_rare_name_one_more(tab: Tab) -> None:
    tab.go("/")
    tab.page.wait_for_selector("#create")
    # In English only the language menu's 한국어 may need the font.
    assert set(fetched_fonts(tab)) <= {"noto-sans-kr-picker.woff2"}
    tab.page.select_option("#language", "ko")
    tab.page.wait_for_function("() => document.documentElement.lang === 'ko'")
    # The glyphs drawn are the shipped font's: their widths are its advances (a tofu
    # box or another font's Hangul would differ).
    assert abs(drawn_width(tab, "게임") - advance("ui", "게임")) <= 0.5
    script = build_script()
    rare = next(name for name, chars in script.pieces().items() if "뷁" in chars)
    assert rare not in ("ui", "picker")
    assert abs(drawn_width(tab, "뷁") - advance(rare, "뷁")) <= 0.5
    fetched = set(fetched_fonts(tab))
    assert {"noto-sans-kr-ui.woff2", f"noto-sans-kr-{rare}.woff2"} <= fetched
    assert len(fetched) <= 3, fetched  # not the other pieces
    display = tab.page.evaluate("""() => [...document.fonts].filter((face) =>
      face.family.includes('Twin Table Korean')).map((face) => face.display)""")
    assert set(display) == {"swap"}


#: How wide a header element's text is drawn now, and once written again (new glyphs).
REDRAWN = """(selector) => {
  const element = document.querySelector(selector);
  const width = () => { const range = document.createRange(); range.selectNodeContents(element);
    return range.getBoundingClientRect().width; };
  const before = width();
  element.textContent = element.textContent;
  return [before, width()]; }"""


@pytest.mark.browser
def test_korean_drawn_before_its_font_piece_arrived_is_drawn_again(browser: Any,
                                                                    server_url: str) -> None:
    """The header of a Korean page ("트윈 테이블", "로비") stayed empty boxes in Chromium:
    it was drawn before its font piece arrived and never shaped again (app.js)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ko-KR",
                                  service_workers="block")
    try:
        page = context.new_page()
        page.goto(server_url + "/")
        page.wait_for_selector(".lb-game")
        page.evaluate("() => document.fonts.ready")
        page.wait_for_timeout(300)
        for selector in (".brand", 'nav a[href="#/"]'):
            before, after = page.evaluate(REDRAWN, selector)
            assert abs(before - after) <= 0.5, (selector, before, after)
    finally:
        context.close()
