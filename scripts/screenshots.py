"""Regenerate docs/screenshots/: each game's table at desktop and phone sizes.

Starts `twintable serve` on a free port with a throwaway database, creates a table of
each game with bots through the lobby, plays a few moves, and photographs it with
Debian's Chromium (Playwright, executable_path=/usr/bin/chromium).
Usage: python scripts/screenshots.py [--out docs/screenshots] [--lang fr]
(with --lang, the browser speaks that language and the files end in -<lang>.png).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
TABLES = {"timo": (3, {"target": "200"}), "twins": (4, {}), "twinit": (4, {}),
          "twinz": (5, {"countdown_s": "20"})}


def serve(port: int, folder: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db",
         f"sqlite:///{folder / 'shots.sqlite3'}", "--bot-delay-ms", "300",
         "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return process
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def open_table(page: Page, base: str, game: str) -> None:
    players, options = TABLES[game]
    page.goto(base + "/")
    page.fill("#name", "Ann")
    page.select_option("#game", game)
    page.fill("#players", str(players))
    for name, value in options.items():
        page.fill(f"#opt-{name}", value)
    page.click("#create")
    page.click("#start")
    page.wait_for_selector("#board > *")
    if game == "twins" and page.locator("[data-buy]").count():
        page.locator("[data-buy]").first.click()
        page.wait_for_selector("#commit")
        page.locator(".hand button.card").nth(0).click()
        page.locator(".hand button.card").nth(2).click()
    if game == "twinz" and page.locator("#draw-card").count():
        page.click("#draw-card")
        page.wait_for_selector("#clue-word")
        page.fill("#clue-word", "histoire")
    if game == "twinit":
        for _ in range(6):
            if page.locator("#flip").count():
                page.click("#flip")
            time.sleep(0.9)
    time.sleep(1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--lang", default="en", choices=["en", "fr", "ko", "nl"],
                        help="The browser's language (the interface follows it).")
    args = parser.parse_args()
    suffix = "" if args.lang == "en" else f"-{args.lang}"
    args.out.mkdir(parents=True, exist_ok=True)
    port = 8790
    with tempfile.TemporaryDirectory() as folder:
        process = serve(port, Path(folder))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                                     args=["--no-sandbox"])
                for size, viewport in SIZES.items():
                    for game in TABLES:
                        page = browser.new_page(viewport=viewport, locale=args.lang)
                        open_table(page, f"http://127.0.0.1:{port}", game)
                        page.screenshot(path=str(args.out / f"{game}-{size}{suffix}.png"))
                        page.close()
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=15)
    print(f"screenshots written to {args.out}")


if __name__ == "__main__":
    main()
