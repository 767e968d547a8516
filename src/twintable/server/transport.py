"""Limits at the HTTP server itself, before the application reads a byte: uvicorn's options
for every listener of ``serve`` (the shared port and a worker's own port), and the file
descriptors the process may open.

- WebSocket frames are capped near the protocol's 16 KiB (``ws_max_size``): a larger
  frame closes the connection (1009) instead of being read whole (uvicorn's default
  reads 16 MiB first).
- A request's line and headers together are capped (:data:`MAX_HEAD_BYTES`): uvicorn's
  httptools parser keeps any size, so :class:`BoundedHttpTools` counts what arrives
  before the headers end and answers 431 (h11's own limit is set too, for h11). The
  parser's own callbacks count every head too: requests pipelined in one read are parsed
  in one go, and only the first head of a read can be counted before parsing.
- Idle keep-alive connections close after a few seconds, and a request's head must
  arrive within :data:`HEAD_TIMEOUT_S` of the connection (or of the last answer): a
  connection that sends nothing, or its headers a byte at a time, is closed.
- One peer holds at most ``Settings.max_connections_per_client`` HTTP connections at
  once (the trusted proxies excepted: every client comes through them): 8,300 slow
  connections from one address made a server unreachable for everyone (issue #38).
  WebSockets leave this count when they upgrade; ``server/guards.py`` counts those.
- Forwarded headers (X-Forwarded-For/Proto) are believed only from the proxies named with
  ``serve --trusted-proxy`` (uvicorn trusts 127.0.0.1 by default, and any local process,
  or an nginx that passes a client's header on, could then forge every address).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from twintable.server.instrumentation import PEER
from twintable.server.settings import Settings

log = logging.getLogger("twintable.server")

#: A request line and its headers (a browser sends a few KiB; cookies here are none).
MAX_HEAD_BYTES = 32 * 1024
#: Room for the WebSocket frame header and a little over the protocol's limit, so a frame
#: just too long is answered ``message.too_large`` rather than cut off.
WS_FRAME_SLACK = 4 * 1024
KEEP_ALIVE_S = 5
#: How long a request's line and headers may take to arrive.
HEAD_TIMEOUT_S = 10.0
#: Descriptors wanted: a socket each for many people, plus files and database links.
WANTED_DESCRIPTORS = 8192

class BoundedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with a cap on a request's line and headers, counted
    before the parser reads them: a whole head that arrives in one read (up to 256 KiB)
    is parsed at once, so counting after parsing let it through."""

    max_per_peer: ClassVar[int] = 128
    """Connections one peer may hold (set for this process by :func:`limit_connections`)."""
    exempt_peers: ClassVar[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]] = ()
    """The trusted proxies' networks: every client comes through them."""
    head_timeout_s: ClassVar[float] = HEAD_TIMEOUT_S
    open_by_peer: ClassVar[dict[str, int]] = {}

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.head_bytes = 0
        self.in_head = True
        self.tail = b""
        """The last bytes of the head so far: its end may be split between reads."""
        self.peer: str | None = None
        """The peer counted in :attr:`open_by_peer` (None: not counted)."""
        self.head_timer: asyncio.TimerHandle | None = None
        self.parsed_head = 0
        """The bytes of this request's line and headers the parser has handed over."""
        self.head_too_large = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) and peer else None
        if host is not None and not _within(host, self.exempt_peers):
            held = self.open_by_peer.get(host, 0)
            if held >= self.max_per_peer:
                transport.abort()  # no answer: the peer is the one flooding
                return
            self.open_by_peer[host] = held + 1
            self.peer = host
        self._await_head()

    def _await_head(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
        self.head_timer = self.loop.call_later(self.head_timeout_s, self._head_late)

    def _head_late(self) -> None:
        self.head_timer = None
        if self.in_head and not self.transport.is_closing():
            self.transport.close()

    def _uncount(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None
        if self.peer is not None:
            left = self.open_by_peer.get(self.peer, 1) - 1
            if left > 0:
                self.open_by_peer[self.peer] = left
            else:
                self.open_by_peer.pop(self.peer, None)
            self.peer = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._uncount()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        self._uncount()  # a WebSocket from now on: counted with the address's sockets
        super().handle_websocket_upgrade()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.parsed_head = 0
        # Kept before uvicorn replaces the client with a proxy's X-Forwarded-For: only a
        # trusted proxy's connection may hand on a request id (server/instrumentation.py).
        if self.client is not None:
            self.scope[PEER] = self.client[0]  # type: ignore[literal-required]

    def on_url(self, url: bytes) -> None:
        self._count_parsed(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_parsed(len(name) + len(value) + 4)  # ": " and CRLF
        super().on_header(name, value)

    def _count_parsed(self, size: int) -> None:
        self.parsed_head += size
        if self.parsed_head > MAX_HEAD_BYTES:
            self.head_too_large = True
            # Raised inside the parser's callback: httptools stops and uvicorn answers a
            # parser error, which :meth:`send_400_response` turns into the 431.
            raise ValueError("request head too large")

    def send_400_response(self, msg: str) -> None:
        if self.head_too_large:
            self._refuse_head()
        else:
            super().send_400_response(msg)

    def _refuse_head(self) -> None:
        self.transport.write(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
            b"content-type: text/plain\r\ncontent-length: 27\r\n"
            b"connection: close\r\n\r\nrequest headers too large\r\n")
        self.transport.close()

    def on_headers_complete(self) -> None:
        self.in_head = False
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        # What comes next on this connection is the next request's head.
        self.head_bytes, self.in_head, self.tail = 0, True, b""
        if self.peer is not None or self.transport is not None:
            self._await_head()

    def data_received(self, data: bytes) -> None:
        if self.in_head and not self.transport.is_closing():
            seen = self.tail + data
            end = seen.find(b"\r\n\r\n")
            self.head_bytes += len(data) if end < 0 else end + 4 - len(self.tail)
            self.tail = seen[-3:]
            if self.head_bytes > MAX_HEAD_BYTES:
                self._refuse_head()
                return
        super().data_received(data)


def _within(host: str, networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]
            ) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in networks)


def _networks(proxies: list[str]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """``--trusted-proxy``'s addresses and networks (``*``: every address)."""
    if "*" in proxies:
        return (ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0"))
    found = []
    for proxy in proxies:
        try:
            found.append(ipaddress.ip_network(proxy, strict=False))
        except ValueError:
            continue  # a name uvicorn matches itself; no address to compare here
    return tuple(found)


def limit_connections(settings: Settings) -> None:
    """Set :class:`BoundedHttpTools`'s per-peer limits for this process's server (the
    application calls it as it is made, in each worker process: uvicorn sends its workers
    the protocol class by name, so the limits cannot travel with it)."""
    BoundedHttpTools.max_per_peer = settings.max_connections_per_client
    BoundedHttpTools.exempt_peers = _networks(settings.trusted_proxies)


def server_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for a listener of this server."""
    trusted = settings.trusted_proxies
    return {
        "ws_max_size": settings.max_frame_bytes + WS_FRAME_SLACK,
        "http": BoundedHttpTools,
        "h11_max_incomplete_event_size": MAX_HEAD_BYTES,
        "timeout_keep_alive": KEEP_ALIVE_S,
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": ",".join(trusted) if trusted else "",
    }


def descriptor_warning(soft: int, hard: int) -> str | None:
    """A one-line warning when ``soft`` descriptors (after raising it toward ``hard``) leave
    little room: one address's sockets could then lock everyone else out."""
    if soft >= WANTED_DESCRIPTORS:
        return None
    return (f"only {soft} file descriptors may be open (hard limit {hard}): the server "
            f"holds one per connection; raise it (ulimit -n {WANTED_DESCRIPTORS} or "
            "LimitNOFILE in the service)")


def check_descriptors() -> str | None:
    """Raise the soft descriptor limit as far as allowed; a warning if it stays low."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = WANTED_DESCRIPTORS if hard == resource.RLIM_INFINITY else min(
        hard, WANTED_DESCRIPTORS)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    warning = descriptor_warning(
        WANTED_DESCRIPTORS if soft == resource.RLIM_INFINITY else soft, hard)
    if warning is not None:
        log.warning(warning)
    return warning
