"""Where people reach this server and each of its workers, from its configuration only.

A request's Host header is the client's to write: a redirect or a page policy built
from it sends a client (or lets a page connect) wherever the request said, so nothing
here reads it. The server's public URL (``serve --public-url``, by default the address
it listens on) gives the scheme and host; a worker's own address is a port of its own
on that host, a path under that address where a proxy reaches only this worker, or a
WebSocket URL of its own (``serve --advertise-url``).
"""

from __future__ import annotations

from urllib.parse import urlsplit

#: Listening addresses that name no host a client could reach.
WILDCARDS = frozenset({"", "0.0.0.0", "::", "[::]"})


def default_public_url(host: str, port: int) -> str | None:
    """The public URL of a server listening on ``host:port`` when none is given: None
    for every address at once (which one clients use is not known)."""
    if host in WILDCARDS:
        return None
    return f"http://{_url_host(host)}:{port}"


def check_public_url(url: str) -> str:
    """``url`` without a trailing slash, or ValueError when it is not http(s)://host."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("--public-url takes the address people open: https://host[:port]")
    if parts.hostname in WILDCARDS:
        raise ValueError("--public-url names the host people reach, not 0.0.0.0")
    _ = parts.port  # ValueError for a port that is not one
    return url.strip().rstrip("/")


def check_advertise_url(url: str) -> str:
    """``url`` without a trailing slash, or ValueError when it is neither a path nor a
    WebSocket URL."""
    url = url.strip()
    parts = urlsplit(url)
    if url.startswith("/") and not url.startswith("//"):
        return url.rstrip("/")
    if parts.scheme in ("ws", "wss") and parts.hostname:
        _ = parts.port
        return url.rstrip("/")
    raise ValueError("--advertise-url takes a path (/w1) or a WebSocket URL "
                     "(wss://w1.example.org)")


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _socket_origin(public_url: str) -> tuple[str, str, str]:
    """``(scheme, host, host and port)`` of WebSockets at ``public_url``'s address."""
    parts = urlsplit(public_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return scheme, _url_host(parts.hostname or ""), parts.netloc.rsplit("@", 1)[-1]


def worker_url(public_url: str | None, advertise_url: str | None,
               own_port: int | None) -> str | None:
    """Where clients of this worker's tables are sent (a WebSocket base URL), or None:
    it is reached only through the shared address."""
    if advertise_url is not None:
        advertise_url = check_advertise_url(advertise_url)
        if not advertise_url.startswith("/"):
            return advertise_url
        if public_url is None:
            return None
        scheme, _, netloc = _socket_origin(public_url)
        return f"{scheme}://{netloc}{advertise_url}"
    if own_port is None or public_url is None:
        return None
    scheme, host, _ = _socket_origin(public_url)
    return f"{scheme}://{host}:{own_port}"


def table_socket(worker_address: str | None, table_id: str, query: str = "") -> str | None:
    """A table's WebSocket at a worker's own address (:func:`worker_url`), or None when
    that address is no WebSocket URL (a path a proxy routes: clients then reach the
    table through the shared address)."""
    if worker_address is None or not worker_address.startswith(("ws://", "wss://")):
        return None
    return f"{worker_address}/ws/tables/{table_id}" + (f"?{query}" if query else "")


def worker_sockets(public_url: str | None, ports: list[int] | None) -> list[str]:
    """The page policy's ``connect-src`` sources for the workers' own ports."""
    if not ports or public_url is None:
        return []
    scheme, host, _ = _socket_origin(public_url)
    return [f"{scheme}://{host}:{port}" for port in range(ports[0], ports[1] + 1)]
