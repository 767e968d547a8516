"""A worker's own port. Under ``serve --workers N`` every worker listens on the shared
port (the kernel gives each new connection to one of them) and also on a port of its
own, the first free one of a range; that port is the worker's address in the cluster,
where clients of its tables are sent (``moved``) rather than served through Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Iterator
from typing import Any

import uvicorn
from starlette.types import ASGIApp

log = logging.getLogger("twintable.server")


def bind_first_free(host: str, first: int, last: int) -> socket.socket | None:
    """A TCP socket bound to the first port of ``first..last`` that is free on ``host``."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    for port in range(first, last + 1):
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
            # Listening at once: SO_REUSEADDR lets two workers bind one port as long as
            # neither listens yet, and the second's server then failed to start.
            sock.listen(socket.SOMAXCONN)
        except OSError:
            sock.close()
            continue
        return sock
    return None


class _SecondListener(uvicorn.Server):
    """The worker's own port, served in the worker's event loop beside its main server,
    which alone handles the process's signals."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class OwnPort:
    """Serves ``app`` on the first free port of a range until :meth:`stop`."""

    def __init__(self, app: ASGIApp, host: str, first: int, last: int,
                 ws_compression: bool = False, options: dict[str, Any] | None = None):
        self.app, self.host, self.first, self.last = app, host, first, last
        self.ws_compression = ws_compression
        self.options = options or {}
        """More uvicorn options (``server/transport.py``'s limits)."""
        self._server: _SecondListener | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> int | None:
        """The port now served, or None when every port of the range is taken (the
        worker is then reached only through the shared port)."""
        sock = bind_first_free(self.host, self.first, self.last)
        if sock is None:
            log.warning("no free port of its own for this worker; its clients are served "
                        "through Redis", extra={"ports": f"{self.first}-{self.last}"})
            return None
        # Read before serving: the server owns the socket from then on, and one that
        # stops at once has closed it (getsockname then failed with EBADF).
        port = int(sock.getsockname()[1])
        # No lifespan (the main server runs the application's), no logging set-up (the
        # worker's stays), the same WebSocket options as the shared port.
        config = uvicorn.Config(self.app, lifespan="off", log_config=None, access_log=False,
                                ws_per_message_deflate=self.ws_compression,
                                timeout_graceful_shutdown=5, **self.options)
        self._server = _SecondListener(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]))
        while not self._server.started:
            if self._task.done():
                self._task.result()  # raises what stopped it
                return None
            await asyncio.sleep(0.01)
        return port

    def stop_listening(self) -> None:
        """Take no new connection here (a drain); the open ones are served on."""
        if self._server is not None:
            for server in getattr(self._server, "servers", []):
                server.close()

    async def stop(self) -> None:
        if self._server is None or self._task is None:
            return
        self._server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task
