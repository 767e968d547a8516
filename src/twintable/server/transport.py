"""Limits at the HTTP server itself, before the application reads a byte: uvicorn's options
for every listener of ``serve`` (the shared port and a worker's own port), and the file
descriptors the process may open.

- WebSocket frames are capped near the protocol's 16 KiB (``ws_max_size``): a larger
  frame closes the connection (1009) instead of being read whole (uvicorn's default
  reads 16 MiB first).
- A request's line and headers together are capped (:data:`MAX_HEAD_BYTES`): uvicorn's
  httptools parser keeps any size, so :class:`BoundedHttpTools` counts what arrives
  before the headers end and answers 431 (h11's own limit is set too, for h11).
- Idle keep-alive connections close after a few seconds.
- Forwarded headers (X-Forwarded-For/Proto) are believed only from the proxies named with
  ``serve --trusted-proxy`` (uvicorn trusts 127.0.0.1 by default, and any local process,
  or an nginx that passes a client's header on, could then forge every address).
"""

from __future__ import annotations

import logging
import resource
from typing import Any

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
#: Descriptors wanted: a socket each for many people, plus files and database links.
WANTED_DESCRIPTORS = 8192

class BoundedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with a cap on a request's line and headers, counted
    before the parser reads them: a whole head that arrives in one read (up to 256 KiB)
    is parsed at once, so counting after parsing let it through."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.head_bytes = 0
        self.in_head = True
        self.tail = b""
        """The last bytes of the head so far: its end may be split between reads."""

    def on_message_begin(self) -> None:
        super().on_message_begin()
        # Kept before uvicorn replaces the client with a proxy's X-Forwarded-For: only a
        # trusted proxy's connection may hand on a request id (server/instrumentation.py).
        if self.client is not None:
            self.scope[PEER] = self.client[0]  # type: ignore[literal-required]

    def on_headers_complete(self) -> None:
        self.in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        # What comes next on this connection is the next request's head.
        self.head_bytes, self.in_head, self.tail = 0, True, b""

    def data_received(self, data: bytes) -> None:
        if self.in_head and not self.transport.is_closing():
            seen = self.tail + data
            end = seen.find(b"\r\n\r\n")
            self.head_bytes += len(data) if end < 0 else end + 4 - len(self.tail)
            self.tail = seen[-3:]
            if self.head_bytes > MAX_HEAD_BYTES:
                self.transport.write(
                    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                    b"content-type: text/plain\r\ncontent-length: 27\r\n"
                    b"connection: close\r\n\r\nrequest headers too large\r\n")
                self.transport.close()
                return
        super().data_received(data)


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
