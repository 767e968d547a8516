"""Generated art: one function turns a Twin It picture id into an SVG drawing.

Each family is a simple, deliberately lopsided motif on a 100 x 100 canvas (so that a
mirrored variant really looks different). The variant details are drawn on top of it:
spots (three or two), mirroring, a crown, or stripes in a second colour. Outlines are
dark and thick so the pictures stay readable at card size and in greyscale.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from twintable.games.twinit.deck import (
    CARDS,
    DECK,
    FAMILIES,
    PICTURES,
    family_of,
    picture_name,
    variant_of,
)

INK = "#1f2430"
# (first colour, second colour) per family: the second differs in lightness as well.
COLOURS = (
    ("#f28c28", "#5b8def"), ("#9aa0a6", "#e3b341"), ("#4caf50", "#c2185b"),
    ("#e53935", "#80cbc4"), ("#2e7d32", "#f9a825"), ("#ec407a", "#3949ab"),
    ("#fbc02d", "#6d4c41"), ("#b0bec5", "#5e35b1"), ("#8d6e63", "#26c6da"),
    ("#1e88e5", "#ffb74d"), ("#00897b", "#f48fb1"), ("#ffca28", "#455a64"),
    ("#ffa000", "#7cb342"), ("#d32f2f", "#90a4ae"), ("#7e57c2", "#ffee58"),
    ("#26a69a", "#ef5350"), ("#a1887f", "#64b5f6"), ("#43a047", "#ff7043"),
)

Shape = Callable[[str], str]


def _fish(fill: str) -> str:
    return (f'<ellipse cx="45" cy="52" rx="30" ry="18" fill="{fill}"/>'
            f'<polygon points="72,52 92,36 92,68" fill="{fill}"/>'
            f'<circle cx="28" cy="47" r="4" fill="{INK}"/>')


def _cat(fill: str) -> str:
    return (f'<polygon points="22,38 30,14 44,32" fill="{fill}"/>'
            f'<polygon points="56,32 70,14 78,38" fill="{fill}"/>'
            f'<circle cx="50" cy="52" r="28" fill="{fill}"/>'
            f'<path d="M78 70 Q96 66 90 88" fill="none" stroke="{INK}" stroke-width="4"/>'
            f'<circle cx="40" cy="46" r="3.5" fill="{INK}"/>'
            f'<circle cx="60" cy="46" r="3.5" fill="{INK}"/>')


def _bird(fill: str) -> str:
    return (f'<ellipse cx="48" cy="58" rx="28" ry="20" fill="{fill}"/>'
            f'<circle cx="28" cy="38" r="14" fill="{fill}"/>'
            f'<polygon points="14,36 2,42 14,44" fill="#f9a825"/>'
            f'<polygon points="74,52 94,44 88,64" fill="{fill}"/>'
            f'<circle cx="25" cy="35" r="3" fill="{INK}"/>')


def _house(fill: str) -> str:
    return (f'<rect x="20" y="46" width="60" height="42" fill="{fill}"/>'
            f'<polygon points="12,48 50,14 88,48" fill="{fill}"/>'
            f'<rect x="64" y="18" width="10" height="20" fill="{fill}"/>'
            f'<rect x="28" y="62" width="16" height="26" fill="#fff"/>')


def _tree(fill: str) -> str:
    return (f'<rect x="44" y="60" width="12" height="30" fill="#795548"/>'
            f'<line x1="56" y1="70" x2="76" y2="58" stroke="#795548" stroke-width="5"/>'
            f'<circle cx="50" cy="38" r="26" fill="{fill}"/>'
            f'<circle cx="80" cy="54" r="9" fill="{fill}"/>')


def _flower(fill: str) -> str:
    petals = "".join(f'<circle cx="{50 + dx}" cy="{36 + dy}" r="12" fill="{fill}"/>'
                     for dx, dy in ((0, -16), (15, -5), (10, 13), (-10, 13), (-15, -5)))
    return (f'<line x1="50" y1="50" x2="50" y2="94" stroke="#2e7d32" stroke-width="5"/>'
            f'<ellipse cx="64" cy="76" rx="12" ry="6" fill="#43a047"/>'
            f'{petals}<circle cx="50" cy="36" r="9" fill="#fff59d"/>')


def _sun(fill: str) -> str:
    rays = "".join(f'<rect x="47" y="4" width="6" height="16" fill="{fill}" '
                   f'transform="rotate({angle} 50 50)"/>' for angle in range(0, 360, 45))
    return (f'{rays}<circle cx="50" cy="50" r="24" fill="{fill}"/>'
            f'<path d="M40 58 Q52 66 62 54" fill="none" stroke="{INK}" stroke-width="3"/>'
            f'<circle cx="42" cy="44" r="3" fill="{INK}"/>')


def _moon(fill: str) -> str:
    return (f'<path d="M60 10 A40 40 0 0 0 60 90 A52 52 0 0 1 60 10 Z" fill="{fill}"/>'
            f'<circle cx="80" cy="24" r="4" fill="{fill}"/>')


def _boat(fill: str) -> str:
    return (f'<polygon points="10,62 90,62 76,84 22,84" fill="{fill}"/>'
            f'<line x1="46" y1="14" x2="46" y2="62" stroke="{INK}" stroke-width="4"/>'
            f'<polygon points="48,16 82,56 48,56" fill="#fff"/>')


def _car(fill: str) -> str:
    return (f'<rect x="8" y="50" width="84" height="24" rx="6" fill="{fill}"/>'
            f'<polygon points="24,50 36,30 66,30 78,50" fill="{fill}"/>'
            f'<rect x="56" y="35" width="14" height="12" fill="#e3f2fd"/>'
            f'<circle cx="28" cy="76" r="9" fill="{INK}"/>'
            f'<circle cx="72" cy="76" r="9" fill="{INK}"/>')


def _cup(fill: str) -> str:
    return (f'<path d="M18 30 H70 L64 84 H24 Z" fill="{fill}"/>'
            f'<path d="M70 42 Q92 46 68 68" fill="none" stroke="{fill}" stroke-width="8"/>'
            f'<path d="M34 22 Q30 12 38 6" fill="none" stroke="{INK}" stroke-width="3"/>')


def _key(fill: str) -> str:
    return (f'<circle cx="26" cy="50" r="16" fill="{fill}"/>'
            f'<circle cx="26" cy="50" r="6" fill="#fff"/>'
            f'<rect x="40" y="45" width="50" height="10" fill="{fill}"/>'
            f'<rect x="72" y="55" width="8" height="14" fill="{fill}"/>'
            f'<rect x="84" y="55" width="6" height="10" fill="{fill}"/>')


def _bell(fill: str) -> str:
    return (f'<path d="M22 74 Q24 24 50 20 Q76 24 78 74 Z" fill="{fill}"/>'
            f'<rect x="16" y="72" width="68" height="8" rx="4" fill="{fill}"/>'
            f'<circle cx="58" cy="86" r="7" fill="{INK}"/>'
            f'<path d="M50 20 Q56 8 66 12" fill="none" stroke="{INK}" stroke-width="4"/>')


def _mushroom(fill: str) -> str:
    return (f'<rect x="40" y="50" width="20" height="38" rx="6" fill="#fff3e0"/>'
            f'<path d="M10 54 Q14 12 54 14 Q90 18 90 54 Z" fill="{fill}"/>'
            f'<ellipse cx="76" cy="86" rx="10" ry="4" fill="#8bc34a"/>')


def _rocket(fill: str) -> str:
    return (f'<path d="M50 6 Q70 26 66 70 H34 Q30 26 50 6 Z" fill="{fill}"/>'
            f'<polygon points="34,56 20,80 34,72" fill="{fill}"/>'
            f'<polygon points="66,56 80,80 66,72" fill="{fill}"/>'
            f'<circle cx="50" cy="34" r="8" fill="#e3f2fd"/>'
            f'<polygon points="40,70 50,94 54,70" fill="#ff7043"/>')


def _balloon(fill: str) -> str:
    return (f'<ellipse cx="46" cy="38" rx="26" ry="30" fill="{fill}"/>'
            f'<polygon points="42,68 50,68 46,74" fill="{fill}"/>'
            f'<path d="M46 74 Q60 84 52 96" fill="none" stroke="{INK}" stroke-width="2"/>')


def _snail(fill: str) -> str:
    return (f'<path d="M8 82 H86 Q92 70 80 66 H60" fill="#ffe0b2"/>'
            f'<circle cx="44" cy="52" r="28" fill="{fill}"/>'
            f'<path d="M44 52 m-14 0 a14 14 0 1 1 14 14" fill="none" stroke="{INK}" '
            f'stroke-width="3"/>'
            f'<line x1="82" y1="66" x2="90" y2="48" stroke="{INK}" stroke-width="3"/>')


def _kite(fill: str) -> str:
    return (f'<polygon points="40,6 70,36 40,76 14,36" fill="{fill}"/>'
            f'<path d="M40 76 Q56 84 50 92 Q44 98 62 98" fill="none" stroke="{INK}" '
            f'stroke-width="2"/>'
            f'<polygon points="54,84 62,80 60,90" fill="#e53935"/>')


SHAPES: tuple[Shape, ...] = (
    _fish, _cat, _bird, _house, _tree, _flower, _sun, _moon, _boat,
    _car, _cup, _key, _bell, _mushroom, _rocket, _balloon, _snail, _kite,
)
# Where each family's spots and crown sit (before mirroring).
SPOTS = (
    ((40, 56), (52, 50), (60, 58)), ((42, 62), (50, 68), (58, 62)), ((40, 60), (52, 56), (62, 62)),
    ((56, 58), (66, 58), (61, 70)), ((40, 32), (56, 30), (48, 46)), ((50, 20), (62, 34), (40, 44)),
    ((50, 50), (60, 44), (56, 58)), ((30, 36), (26, 54), (36, 70)), ((30, 70), (46, 72), (62, 70)),
    ((46, 60), (58, 60), (70, 60)), ((34, 48), (46, 60), (56, 48)), ((50, 50), (58, 50), (66, 50)),
    ((40, 50), (50, 40), (60, 52)), ((30, 34), (52, 26), (72, 36)), ((44, 52), (56, 52), (50, 60)),
    ((36, 30), (52, 26), (46, 46)), ((32, 42), (56, 40), (44, 66)), ((40, 24), (30, 40), (52, 44)),
)
CROWNS = (
    (40, 34), (50, 22), (28, 24), (50, 14), (50, 12), (50, 12), (50, 18), (38, 12), (46, 14),
    (50, 30), (44, 28), (26, 34), (50, 20), (54, 14), (50, 8), (46, 8), (44, 24), (40, 8),
)


def _crown(x: int, y: int) -> str:
    return (f'<polygon points="{x - 11},{y} {x - 11},{y - 12} {x - 5},{y - 5} {x},{y - 14} '
            f'{x + 5},{y - 5} {x + 11},{y - 12} {x + 11},{y}" fill="#ffd600" '
            f'stroke="{INK}" stroke-width="2"/>')


def picture_svg(picture: int, size: int = 96) -> str:
    """A standalone ``<svg>`` element drawing one picture, titled with its name."""
    if not 0 <= picture < PICTURES:
        raise ValueError(f"no picture {picture}")
    family, variant = family_of(picture), variant_of(picture)
    first, second = COLOURS[family]
    defs = ""
    fill = first
    if variant == 4:
        # Stripes as a pattern: the id includes the picture so pages can hold many.
        defs = (f'<defs><pattern id="twinit-stripes-{picture}" width="10" height="10" '
                f'patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
                f'<rect width="10" height="10" fill="{second}"/>'
                f'<rect width="4" height="10" fill="{INK}" opacity="0.45"/></pattern></defs>')
        fill = f"url(#twinit-stripes-{picture})"
    body = SHAPES[family](fill)
    spots = SPOTS[family][: 2 if variant == 1 else 3]
    body += "".join(f'<circle cx="{x}" cy="{y}" r="4.5" fill="#fff" stroke="{INK}" '
                    f'stroke-width="2"/>' for x, y in spots)
    if variant == 3:
        body += _crown(*CROWNS[family])
    if variant == 2:
        body = f'<g transform="translate(100 0) scale(-1 1)">{body}</g>'
    title = escape(picture_name(picture))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="{size}" '
            f'height="{size}" role="img" aria-label="{title}"><title>{title}</title>{defs}'
            f'<g stroke="{INK}" stroke-width="2.5" stroke-linejoin="round">{body}</g></svg>')


def deck_sheet_html() -> str:
    """One HTML page showing every picture by family, then every card's two faces."""
    rows = []
    for family, name in enumerate(FAMILIES):
        cells = "".join(f'<figure>{picture_svg(family * 5 + v)}<figcaption>#{family * 5 + v}'
                        f'</figcaption></figure>' for v in range(5))
        rows.append(f"<section><h2>{escape(name)}</h2><div class=row>{cells}</div></section>")
    cards = "".join(f'<figure class=card>{picture_svg(a, 64)}{picture_svg(b, 64)}'
                    f'<figcaption>card {index}</figcaption></figure>'
                    for index, (a, b) in enumerate(DECK))
    return ("<!doctype html><html lang=en><meta charset=utf-8>"
            "<title>Twin It deck sheet</title><style>"
            "body{font-family:system-ui,sans-serif;margin:2rem;background:#fafafa}"
            ".row,.cards{display:flex;flex-wrap:wrap;gap:.75rem}"
            "figure{margin:0;padding:.4rem;background:#fff;border:1px solid #ccc;"
            "border-radius:8px;text-align:center}figcaption{font-size:.8rem;color:#555}"
            "h2{font-size:1rem;margin:.8rem 0 .3rem}</style>"
            f"<h1>Twin It: {PICTURES} pictures on {CARDS} cards</h1>"
            "<p>Each row is a family of look-alikes: plain, two spots, mirrored, crowned, "
            "striped.</p>"
            f"{''.join(rows)}<h1>The cards, both faces</h1><div class=cards>{cards}</div>"
            "</html>")
