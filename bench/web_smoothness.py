"""How smooth the browser table is: long tasks and frame handling time in Chromium.

Runs `twintable serve` on loopback and Debian's Chromium (Playwright), then watches two
games: a 4-bot Twin It game (the page spectates) and a 6-player Timo game (the page plays
seat 0 against 5 bots). In the page it records every PerformanceObserver "longtask" and
the time spent handling each WebSocket frame (onmessage is wrapped before the client
loads), and it reports the page weight and the time to a first interactive table.

    .venv/bin/python bench/web_smoothness.py [--seconds 60]

Targets (issue #13): no task over 50 ms, a median frame handled in under 4 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.client import free_port  # noqa: E402
from tests.web.conftest import CHROMIUM, Tab  # noqa: E402
from tests.web.play import timo_move  # noqa: E402

# Installed before any page script: long tasks, and the time each frame's handler takes.
PROBE = """
window.__perf = { long: [], frames: [] };
try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.__perf.long.push([entry.startTime, entry.duration]);
    }
  }).observe({ type: "longtask", buffered: true });
} catch (error) { window.__perf.noLongtask = String(error); }
const slot = Object.getOwnPropertyDescriptor(WebSocket.prototype, "onmessage");
Object.defineProperty(WebSocket.prototype, "onmessage", {
  configurable: true,
  get() { return slot.get.call(this); },
  set(handler) {
    slot.set.call(this, function (event) {
      const start = performance.now();
      try { return handler.call(this, event); }
      finally { window.__perf.frames.push(performance.now() - start); }
    });
  },
});
"""


def post(base: str, path: str, body: dict[str, Any] | None = None,
         token: str | None = None) -> dict[str, Any]:
    request = urllib.request.Request(base + path, data=json.dumps(body or {}).encode(),
                                     method="POST", headers={"content-type": "application/json"})
    if token:
        request.add_header("authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def status(base: str, table_id: str) -> str:
    with urllib.request.urlopen(f"{base}/api/tables/{table_id}") as response:
        return str(json.loads(response.read())["status"])


def page_weight_kb(tab: Tab) -> float:
    sizes = tab.page.evaluate("""() => [...performance.getEntriesByType('navigation'),
        ...performance.getEntriesByType('resource')]
        .map((e) => e.transferSize || e.encodedBodySize || 0)""")
    return float(sum(sizes)) / 1024


def report(name: str, tab: Tab, weight: float, interactive_ms: float, ready: float) -> None:
    """``ready``: the page's clock when the table first became interactive; long tasks
    before it belong to loading the page, the ones after it to playing."""
    perf = tab.page.evaluate("window.__perf")
    frames = sorted(perf["frames"])
    loading = [duration for start, duration in perf["long"] if start < ready]
    playing = [duration for start, duration in perf["long"] if start >= ready]
    print(f"\n{name}")
    print(f"  frames handled        {len(frames)}")
    if frames:
        print(f"  frame handling median {statistics.median(frames):.2f} ms   "
              f"p95 {frames[int(len(frames) * 0.95) - 1]:.2f} ms   max {frames[-1]:.2f} ms")
    print(f"  long tasks in play    {len(playing)}   longest {max(playing, default=0):.0f} ms"
          + (f"   ({perf['noLongtask']})" if perf.get("noLongtask") else ""))
    print(f"  long tasks at load    {len(loading)}   longest {max(loading, default=0):.0f} ms")
    parts = tab.page.evaluate("""() => Object.fromEntries(['tt:render', 'tt:seats', 'tt:log']
        .map((name) => [name, performance.getEntriesByName(name).map((e) => e.duration)]))""")
    for part, times in parts.items():
        if times:
            print(f"  {part:<21} median {statistics.median(times):.2f} ms   "
                  f"max {max(times):.2f} ms")
    print(f"  page weight           {weight:.0f} KB (HTML, CSS, JS, catalogues, game assets)")
    print(f"  first interactive     {interactive_ms:.0f} ms (navigation to a drawn table)")


def twinit(browser: Any, base: str, seconds: float) -> None:
    joined = post(base, "/api/tables", {
        "game": "twinit", "players": 4, "display_name": "Watcher", "grace_s": 0,
        "options": {"sets_to_win": 3},
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "sharp"}] * 3})
    table_id = joined["table"]["id"]
    post(base, f"/api/tables/{table_id}/start", token=joined["token"])
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_init_script(PROBE)
    tab = Tab(context.new_page(), base)
    started = time.perf_counter()
    tab.go(f"/#/table/{table_id}")  # a spectator: seat 0's stand-in plays
    tab.page.wait_for_selector("#board .tw-card, #board button")
    interactive = (time.perf_counter() - started) * 1000
    ready = tab.page.evaluate("performance.now()")
    weight = page_weight_kb(tab)
    deadline = time.monotonic() + seconds
    while status(base, table_id) != "finished" and time.monotonic() < deadline:
        time.sleep(0.5)
    report("Twin It, 4 bots, watched", tab, weight, interactive, ready)
    context.close()


def timo(browser: Any, base: str, seconds: float) -> None:
    joined = post(base, "/api/tables", {
        "game": "timo", "players": 6, "display_name": "Ann", "options": {"target": 150},
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * 5})
    table_id = joined["table"]["id"]
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_init_script(PROBE)
    tokens = json.dumps({table_id: {"token": joined["token"], "seat": 0}})
    context.add_init_script(f"localStorage.setItem('tt.tokens', {json.dumps(tokens)});")
    post(base, f"/api/tables/{table_id}/start", token=joined["token"])
    tab = Tab(context.new_page(), base)
    started = time.perf_counter()
    tab.go(f"/#/table/{table_id}")
    tab.page.wait_for_selector(".hand button.card")
    interactive = (time.perf_counter() - started) * 1000
    ready = tab.page.evaluate("performance.now()")
    weight = page_weight_kb(tab)
    deadline = time.monotonic() + seconds
    while status(base, table_id) != "finished" and time.monotonic() < deadline:
        timo_move(tab)
        time.sleep(0.15)
    report("Timo's Twist, 6 players (the page plays seat 0)", tab, weight, interactive, ready)
    context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60,
                        help="the longest each game is watched")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db",
             f"sqlite:///{folder}/bench.sqlite3", "--bot-delay-ms", "250",
             "--log-level", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"{base}/healthz", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                                     args=["--no-sandbox"])
                twinit(browser, base, args.seconds)
                timo(browser, base, args.seconds)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=15)
    print("\nTargets: no long task over 50 ms; a median frame handled in under 4 ms.")


if __name__ == "__main__":
    main()
