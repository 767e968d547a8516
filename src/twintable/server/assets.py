"""The browser client's files as a phone wants them: compressed, and cached for as long
as they do not change.

Every file the client loads (the shell's ``web/`` and each game's ``web/``) is served
under ``/static/<version>/``, where the version is a hash of all of them together: the
page (``index.html``, never cached) names that address, the shell's and the games'
modules import one another relatively, so every file of one install is asked for under
one version and may be kept for a year (``immutable``): a new install is a new version,
hence new addresses. The plain ``/static/`` addresses still answer, revalidated each time
(``no-cache``, with their ETag), as does an older version's address (a page opened
before an upgrade), which gets today's files.

Text is gzipped for a client that takes it (Starlette's ``GZipMiddleware``, above
:data:`GZIP_MIN_BYTES`): Lighthouse counted 273 KiB to save on the lobby (issue #39).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Answers smaller than this are sent as they are (compressing them saves nothing).
GZIP_MIN_BYTES = 1024
IMMUTABLE = b"public, max-age=31536000, immutable"
REVALIDATE = b"no-cache"
_VERSIONED = re.compile(r"^/static/(v[0-9a-f]{12})/")


def assets_version(folders: Iterable[Path]) -> str:
    """A name for these folders' files as they are: their paths and contents hashed."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            if "__pycache__" in path.parts:
                continue
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(path.read_bytes())
    return "v" + digest.hexdigest()[:12]


def client_files(folders: Mapping[str, Path], version: str) -> list[str]:
    """The addresses of the client's files under ``version``: each folder's (``folders``:
    where each is served below ``/static/``) but the page, the worker, notes and fonts."""
    files = []
    for prefix, folder in folders.items():
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            relative = path.relative_to(folder)
            if ("__pycache__" in relative.parts or relative.parts[0] == "fonts"
                    or relative.name in ("index.html", "sw.js") or path.suffix == ".md"):
                continue
            files.append(f"/static/{version}/{prefix}{relative.as_posix()}")
    return files


def service_worker(web: Path, version: str, files: list[str]) -> str:
    """``sw.js`` for this install: it keeps the page and ``files`` of this version (a new
    install changes its bytes, so browsers take the new worker, which drops the old)."""
    return (web.joinpath("sw.js").read_text(encoding="utf-8")
            .replace("__VERSION__", version).replace("__FILES__", json.dumps(files)))


def index_page(web: Path, version: str) -> str:
    """``index.html`` with its files under this install's version."""
    return web.joinpath("index.html").read_text(encoding="utf-8").replace(
        '"/static/', f'"/static/{version}/')


class VersionedAssets:
    """Serves ``/static/<version>/x`` as ``/static/x``, kept a year when the version is
    this install's; every other static answer is revalidated."""

    def __init__(self, app: ASGIApp, version: str):
        self.app, self.version = app, version

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not path.startswith("/static/"):
            await self.app(scope, receive, send)
            return
        policy = REVALIDATE
        found = _VERSIONED.match(path)
        if found:
            plain = "/static/" + path[found.end():]
            scope = dict(scope, path=plain, raw_path=plain.encode())
            if found[1] == self.version:
                policy = IMMUTABLE

        async def with_policy(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (200, 304):
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() != b"cache-control"]
                message = dict(message, headers=[*headers, (b"cache-control", policy)])
            await send(message)

        await self.app(scope, receive, with_policy)
