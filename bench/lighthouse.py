"""Benchmark: Lighthouse (mobile, its default) on the lobby and on a table page, against a
fresh ``twintable serve`` (issue #39's target: performance >= 95 and accessibility 100 on
both).

Lighthouse is an npm package run with Debian's Chromium; this script installs the
pinned version into a cache folder once (``npm i -E lighthouse@12.2.3``: 13 wants Node 22,
and Debian's is 20). A table page is a game of bots watched (a spectator's page), so
the score is the page a link to a game opens. Each page is measured ``--runs`` times and
the median printed, with its first and largest contentful paints, total blocking time,
the bytes sent and the requests. Scores here are on a loaded two-core machine with
Lighthouse's simulated slow 4G and 4x CPU slowdown: compare runs made on the same machine.

Usage: python bench/lighthouse.py [--runs 3] [--cache ~/.cache/twintable-lighthouse]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2

LIGHTHOUSE = "lighthouse@12.2.3"
CHROMIUM = "/usr/bin/chromium"


def lighthouse(cache: Path) -> Path:
    binary = cache / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "i", "-E", LIGHTHOUSE, "--prefix", str(cache), "--no-audit",
                        "--no-fund"], check=True)
    return binary


def serve(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve", "--port", str(port), "--db",
         f"sqlite:///{folder / 'lighthouse.sqlite3'}", "--log-level", "warning"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if httpx2.get(f"{base}/healthz").status_code == 200:
                return process, base
        except httpx2.HTTPError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def watched_table(base: str) -> str:
    made = httpx2.post(f"{base}/api/tables", json={
        "game": "timo", "players": 4, "display_name": "Ann", "grace_s": 0,
        "options": {"target": 100_000}}).json()
    httpx2.post(f"{base}/api/tables/{made['table']['id']}/start",
                headers={"Authorization": f"Bearer {made['token']}"})
    return f"{base}/#/table/{made['table']['id']}"


def measure(binary: Path, url: str, out: Path) -> dict[str, float]:
    subprocess.run([str(binary), url, "--quiet", "--output=json", f"--output-path={out}",
                    "--only-categories=performance,accessibility",
                    "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
                   check=True, env={**os.environ, "CHROME_PATH": CHROMIUM})
    report = json.loads(out.read_text())
    audits = report["audits"]
    return {
        "performance": report["categories"]["performance"]["score"] * 100,
        "accessibility": report["categories"]["accessibility"]["score"] * 100,
        "FCP s": audits["first-contentful-paint"]["numericValue"] / 1000,
        "LCP s": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "TBT ms": audits["total-blocking-time"]["numericValue"],
        "KiB sent": audits["total-byte-weight"]["numericValue"] / 1024,
        "requests": len(audits["network-requests"]["details"]["items"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cache", type=Path,
                        default=Path.home() / ".cache" / "twintable-lighthouse")
    args = parser.parse_args()
    binary = lighthouse(args.cache)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        process, base = serve(folder)
        try:
            pages = {"lobby": f"{base}/", "table": watched_table(base)}
            for name, url in pages.items():
                runs = [measure(binary, url, folder / f"{name}{n}.json")
                        for n in range(args.runs)]
                median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
                print(f"{name:6s} " + ", ".join(f"{key} {value:.1f}" if isinstance(value, float)
                                               else f"{key} {value}"
                                               for key, value in median.items()))
        finally:
            process.terminate()
            process.wait()


if __name__ == "__main__":
    main()
