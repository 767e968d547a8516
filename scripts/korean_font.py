"""Build the Korean webfont the client ships: Noto Sans CJK KR (SIL OFL 1.1), cut down to
the characters the Korean interface and rules use, so every page reads on a machine
without a Korean font (issue 24).

Source: Debian's ``fonts-noto-cjk`` (``apt-get download fonts-noto-cjk`` then
``dpkg-deb -x`` the package anywhere; installing it is not needed). Run from the
repository root whenever a Korean catalogue or rules page gains characters:

    python scripts/korean_font.py /path/to/NotoSansCJK-Regular.ttc /path/to/copyright

It writes ``src/twintable/web/fonts/noto-sans-kr.woff`` (WOFF: zlib, no extra module)
and ``OFL.txt`` (the licence, from the package's copyright file), and prints the
``unicode-range`` for ``style.css``. ``tests/web/test_korean_font.py`` fails when a
Korean string uses a character the font lacks.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "src" / "twintable" / "web"
OUT = WEB / "fonts"
KOREAN_FACE = "Noto Sans CJK KR"


def korean_sources() -> list[Path]:
    """Every file whose Korean text the pages show: catalogues, rules pages, the shell."""
    games = ROOT / "src" / "twintable" / "games"
    return sorted([WEB / "i18n" / "ko.json", WEB / "index.html",
                   *games.glob("*/web/i18n/ko.json"), *games.glob("*/rules/ko.md")])


#: Korean the browser writes itself into the pages: Intl.ListFormat's joiners ("A, B 및
#: C"; "또는" for an "or" list). Without them a list of names in a Korean log line showed
#: a missing-glyph box on a machine with no Korean font.
BROWSER_KOREAN = "및 또는"


def korean_characters() -> set[str]:
    """Hangul, CJK symbols and full-width forms in those files and in what the browser's
    Intl writes (Latin stays the system's)."""
    text = "".join(path.read_text(encoding="utf-8") for path in korean_sources())
    return {char for char in text + BROWSER_KOREAN if ord(char) >= 0x1100}


def unicode_range(chars: set[str]) -> str:
    points = sorted(ord(char) for char in chars)
    spans: list[list[int]] = []
    for point in points:
        if spans and point == spans[-1][1] + 1:
            spans[-1][1] = point
        else:
            spans.append([point, point])
    return ", ".join(f"U+{a:X}" if a == b else f"U+{a:X}-{b:X}" for a, b in spans)


def licence(copyright_file: Path, notice: str) -> str:
    """The SIL OFL 1.1 text from a Debian copyright file, its paragraph marks undone."""
    lines = copyright_file.read_text(encoding="utf-8").splitlines()
    start = lines.index("License: SIL-1.1", lines.index("License: SIL-1.1") + 1) + 1
    body = []
    for line in lines[start:]:
        if line.startswith("License:"):
            break
        body.append("" if line.strip() == "." else line[1:])
    return f"{notice}\n\n" + "\n".join(body).strip() + "\n"


def main(collection_path: str, copyright_path: str) -> None:
    collection = TTCollection(collection_path)
    font = next(f for f in collection.fonts if f["name"].getDebugName(1) == KOREAN_FACE)
    chars = korean_characters()
    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(chars)))
    subsetter.subset(font)
    OUT.mkdir(exist_ok=True)
    font.flavor = "woff"
    font.save(OUT / "noto-sans-kr.woff")
    notice = (f"noto-sans-kr.woff: {KOREAN_FACE}, subset to the characters of Twin Table's "
              f"Korean pages.\n{font['name'].getDebugName(0)}")
    (OUT / "OFL.txt").write_text(licence(Path(copyright_path), notice), encoding="utf-8")
    print(f"{len(chars)} characters, {(OUT / 'noto-sans-kr.woff').stat().st_size} bytes")
    print(f"unicode-range: {unicode_range(chars)};")


if __name__ == "__main__":
    main(*sys.argv[1:3])
