"""Korean reads on a machine without a Korean font: the client ships Noto Sans CJK KR cut
to the characters of its Korean pages (scripts/korean_font.py), under the SIL OFL."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tests.web.conftest import Tab

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "src" / "twintable" / "web" / "fonts"


def test_the_font_holds_every_character_of_the_korean_pages() -> None:
    ttlib = pytest.importorskip("fontTools.ttLib")
    spec = importlib.util.spec_from_file_location("korean_font",
                                                  ROOT / "scripts" / "korean_font.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    sys.modules["korean_font"] = script
    spec.loader.exec_module(script)
    cmap = ttlib.TTFont(FONTS / "noto-sans-kr.woff").getBestCmap()
    missing = sorted(char for char in script.korean_characters() if ord(char) not in cmap)
    assert not missing, f"run scripts/korean_font.py: {''.join(missing)}"
    assert "SIL OPEN FONT LICENSE Version 1.1" in (FONTS / "OFL.txt").read_text()


@pytest.mark.browser
def test_korean_glyphs_come_from_the_shipped_font(tab: Tab) -> None:
    tab.go("/")
    tab.page.wait_for_selector("#create")
    tab.page.select_option("#language", "ko")
    tab.page.wait_for_function("() => document.documentElement.lang === 'ko'")
    found = tab.page.evaluate("""async () => {
      const faces = await document.fonts.load('40px "Twin Table Korean"', '게임 로비');
      const canvas = document.createElement('canvas').getContext('2d');
      canvas.font = '40px "Twin Table Korean"';
      await document.fonts.ready;
      return { faces: faces.length, display: [...document.fonts].find((f) =>
        f.family.includes('Twin Table Korean'))?.display,
        width: canvas.measureText('게임').width }; }""")
    # Loaded, shown at once (swap), and the glyphs drawn are the shipped font's: their
    # widths are its advances (a tofu box or another font's Hangul would differ).
    assert found["faces"] == 1 and found["display"] == "swap", found
    ttlib = pytest.importorskip("fontTools.ttLib")
    font = ttlib.TTFont(FONTS / "noto-sans-kr.woff")
    cmap, advances = font.getBestCmap(), font["hmtx"].metrics
    expected = sum(advances[cmap[ord(char)]][0] for char in "게임") / font["head"].unitsPerEm * 40
    assert abs(found["width"] - expected) <= 0.5, (found, expected)
