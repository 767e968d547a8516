"""The client's files as a phone wants them (issue #39: no compression, no cache lifetimes
on 47 static files): under the install's version and kept a year, revalidated elsewhere,
gzipped (``server/assets.py``)."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from tests.server.client import app_client
from twintable.server.assets import GZIP_MIN_BYTES, assets_version


def test_the_page_names_its_files_under_the_install_version(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        page = client.get("/")
        assert page.headers["cache-control"] == "no-cache"
        version = client.app.state.assets_version  # type: ignore[attr-defined]
        links = re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text)
        assert links and all(link.startswith(f"/static/{version}/") for link in links)
        for link in links:
            kept = client.get(link, headers={"Accept-Encoding": "gzip"})
            assert kept.status_code == 200, link
            assert kept.headers["cache-control"] == "public, max-age=31536000, immutable"
            plain = client.get(link.replace(f"/{version}/", "/"))
            if not link.endswith(".png") and len(plain.content) >= GZIP_MIN_BYTES:
                assert kept.headers["content-encoding"] == "gzip", link  # text, compressed
            assert kept.content == plain.content  # (httpx undoes the gzip)
        # Each game's client is named under the version too, and served there.
        for game in client.get("/api/games").json():
            module = game["web"]["module"]
            assert module.startswith(f"/static/{version}/games/{game['id']}/"), module
            assert client.get(module).headers["cache-control"].endswith("immutable")
            for sheet in game["web"]["styles"]:
                assert client.get(sheet).status_code == 200


def test_other_addresses_are_revalidated(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        plain = client.get("/static/app.js")
        assert plain.headers["cache-control"] == "no-cache"
        again = client.get("/static/app.js", headers={"If-None-Match": plain.headers["etag"]})
        assert again.status_code == 304
        # A page opened before an upgrade asks for an older version: today's files, not kept.
        older = client.get("/static/v000000000000/app.js")
        assert older.status_code == 200 and older.content == plain.content
        assert older.headers["cache-control"] == "no-cache"
        assert client.get("/static/v000000000000/nothing.js").status_code == 404


def test_small_answers_and_clients_without_gzip_get_plain_bytes(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        raw = client.get("/static/app.js", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in raw.headers
        health = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
        assert "content-encoding" not in health.headers  # too small to gain


def test_the_version_follows_the_files(tmp_path: Path) -> None:
    shell, game = tmp_path / "web", tmp_path / "game"
    for folder in (shell, game):
        folder.mkdir()
        (folder / "index.js").write_text("export default 1;\n")
    first = assets_version([shell, game])
    assert re.fullmatch(r"v[0-9a-f]{12}", first)
    assert assets_version([shell, game]) == first
    (game / "index.js").write_text("export default 2;\n")
    changed = assets_version([shell, game])
    assert changed != first
    (game / "__pycache__").mkdir()  # Python's leftovers are not the client's files
    (game / "__pycache__" / "x.pyc").write_bytes(gzip.compress(b"x"))
    assert assets_version([shell, game]) == changed


def test_the_app_is_installable_and_its_worker_keeps_this_version(sqlite_url: str) -> None:
    """Issue #39: a web app manifest and a service worker that keeps the shell."""
    with app_client(sqlite_url) as client:
        version = client.app.state.assets_version  # type: ignore[attr-defined]
        page = client.get("/").text
        manifest_link = re.search(r'<link rel="manifest" href="([^"]+)"', page)
        assert manifest_link and manifest_link[1] == f"/static/{version}/manifest.webmanifest"
        manifest = client.get(manifest_link[1])
        assert manifest.headers["content-type"].startswith("application/manifest+json")
        declared = manifest.json()
        assert declared["start_url"] == "/" and declared["display"] == "standalone"
        sizes = set()
        for icon in declared["icons"]:
            drawn = client.get(f"/static/{version}/{icon['src']}")
            assert drawn.status_code == 200 and drawn.content.startswith(b"\x89PNG")
            sizes.add(icon["sizes"])
        assert {"192x192", "512x512"} <= sizes
        worker = client.get("/sw.js")
        assert worker.headers["cache-control"] == "no-cache"
        assert worker.headers["content-type"].startswith("text/javascript")
        assert f'const VERSION = "{version}";' in worker.text
        # It keeps every file of the client but the fonts, each found at its address.
        kept = json.loads(re.search(r"const SHELL_FILES = (\[.*?\]);", worker.text)[1])
        assert f"/static/{version}/app.js" in kept
        assert f"/static/{version}/games/timo/index.js" in kept
        assert not any("/fonts/" in path or path.endswith(".md") for path in kept)
        assert all(client.get(path).status_code == 200 for path in kept)
