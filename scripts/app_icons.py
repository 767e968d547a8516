"""Draw the web app's icons (``src/twintable/web/icons/icon-<size>.png``): two cards of
the table's colours, one over the other, on the header's ink. Run from the repository
root when the design changes:

    python scripts/app_icons.py
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import FancyBboxPatch

OUT = Path(__file__).resolve().parents[1] / "src" / "twintable" / "web" / "icons"
INK, FELT, CARD, ACCENT = "#1f2430", "#2e7d4f", "#fbfaf7", "#2f6fde"


def draw(size: int) -> None:
    figure = plt.figure(figsize=(1, 1), dpi=size)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.axis("off")
    # A full square (the launcher masks it): maskable and plain alike.
    axes.add_patch(FancyBboxPatch((0, 0), 1, 1, boxstyle="square,pad=0", color=INK))
    axes.add_patch(FancyBboxPatch((.22, .2), .36, .5, boxstyle="round,pad=0,rounding_size=.05",
                                  color=FELT, ec=CARD, lw=size / 64, transform=axes.transData))
    back = FancyBboxPatch((.42, .3), .36, .5, boxstyle="round,pad=0,rounding_size=.05",
                          color=CARD, ec=ACCENT, lw=size / 64)
    axes.add_patch(back)
    axes.text(.6, .55, "2", ha="center", va="center", color=ACCENT, fontsize=size * .3 / 2.2,
              fontweight="bold")
    figure.savefig(OUT / f"icon-{size}.png", dpi=size, facecolor=INK)
    plt.close(figure)


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    for size in (192, 512):
        draw(size)
        print(OUT / f"icon-{size}.png")
