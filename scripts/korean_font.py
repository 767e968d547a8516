"""Build the Korean webfont the client ships: Noto Sans CJK KR (SIL OFL 1.1), every Hangul
syllable, in pieces a browser fetches only when a page draws their characters (CSS
``unicode-range``), so any name reads on a machine without a Korean font (issue #39:
a font cut to the pages' own characters drew 지민 as "지□") and a page in another
language fetches next to nothing.

Pieces (WOFF2): ``picker`` (the language menu's 한국어, on every page), ``ui`` (every
other character of the Korean catalogues, rules pages and the browser's own Korean: a
Korean page needs only these two), then the remaining syllables in ``CHUNKS`` pieces by
code point, and ``jamo`` (jamo, compatibility jamo, CJK symbols not in ``ui``).

Source: Debian's ``fonts-noto-cjk`` (``apt-get download fonts-noto-cjk`` then
``dpkg-deb -x`` the package anywhere; installing it is not needed). WOFF2 needs the
``brotli`` module at build time only (``pip install brotli``). Run from the repository
root whenever a Korean catalogue or rules page changes:

    python scripts/korean_font.py /path/to/NotoSansCJK-Regular.ttc /path/to/copyright

It writes ``src/twintable/web/fonts/noto-sans-kr-*.woff2`` and ``OFL.txt`` (the licence,
from the package's copyright file), and the ``@font-face`` rules into ``style.css``
between its ``korean-font`` marks. ``tests/web/test_korean_font.py`` fails when a Korean
string or a syllable is in no piece, or a piece and its rule disagree.
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


#: Every Hangul syllable, and the other Korean blocks a name may hold.
SYLLABLES = range(0xAC00, 0xD7A4)
OTHER_KOREAN = (*range(0x1100, 0x1200), *range(0x3000, 0x3040), *range(0x3131, 0x318F))
#: The language menu's own Korean, drawn on every page whatever its language.
PICKER = "한국어"
#: Pieces for the syllables no page of ours uses (about 1,000 each).
CHUNKS = 10
FACE = "Twin Table Korean"
STYLE = WEB / "style.css"
MARKS = ("/* korean-font: start (scripts/korean_font.py writes this) */",
         "/* korean-font: end */")


def pieces() -> dict[str, set[str]]:
    """Each piece's name and characters: together every syllable and every Korean
    character of the pages, each in exactly one piece."""
    picker = set(PICKER)
    ui = korean_characters() - picker
    made = {"picker": picker, "ui": ui}
    rest = [chr(point) for point in SYLLABLES if chr(point) not in ui | picker]
    size = -(-len(rest) // CHUNKS)
    for n in range(CHUNKS):
        made[f"{n + 1:02d}"] = set(rest[n * size:(n + 1) * size])
    made["jamo"] = {chr(point) for point in OTHER_KOREAN} - ui - picker
    return made


def font_file(name: str) -> str:
    return f"noto-sans-kr-{name}.woff2"


def css_rules(made: dict[str, set[str]]) -> str:
    return "\n".join(
        f'@font-face {{ font-family: "{FACE}"; src: url("fonts/{font_file(name)}") '
        f'format("woff2"); font-display: swap;\n  unicode-range: {unicode_range(chars)}; }}'
        for name, chars in made.items())


def main(collection_path: str, copyright_path: str) -> None:
    collection = TTCollection(collection_path)
    index = next(n for n, f in enumerate(collection.fonts)
                 if f["name"].getDebugName(1) == KOREAN_FACE)
    made = pieces()
    OUT.mkdir(exist_ok=True)
    for old in OUT.glob("noto-sans-kr*"):
        old.unlink()
    total = 0
    for name, chars in made.items():
        font = TTCollection(collection_path).fonts[index]  # subsetting changes it
        options = subset.Options()
        options.flavor = "woff2"
        options.layout_features = ["*"]
        options.name_IDs = ["*"]
        options.notdef_outline = True
        subsetter = subset.Subsetter(options)
        subsetter.populate(text="".join(sorted(chars)))
        subsetter.subset(font)
        font.flavor = "woff2"
        font.save(OUT / font_file(name))
        size = (OUT / font_file(name)).stat().st_size
        total += size
        print(f"{font_file(name)}: {len(chars)} characters, {size} bytes")
    notice = (f"noto-sans-kr-*.woff2: {KOREAN_FACE}, every Hangul syllable, in pieces.\n"
              f"{collection.fonts[index]['name'].getDebugName(0)}")
    (OUT / "OFL.txt").write_text(licence(Path(copyright_path), notice), encoding="utf-8")
    style = STYLE.read_text(encoding="utf-8")
    before, _, rest = style.partition(MARKS[0])
    _, _, after = rest.partition(MARKS[1])
    STYLE.write_text(f"{before}{MARKS[0]}\n{css_rules(made)}\n{MARKS[1]}{after}",
                     encoding="utf-8")
    print(f"{sum(map(len, made.values()))} characters in {len(made)} pieces, {total} bytes")


if __name__ == "__main__":
    main(*sys.argv[1:3])
