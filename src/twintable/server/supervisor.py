"""Running the server's processes: a stop that drains first, and workers kept alive.

:class:`DrainingServer` is uvicorn's server with one change at a stop (SIGTERM, Ctrl-C):
before uvicorn closes the connections, it stops listening (the kernel gives new
connections on the shared port to the other workers) and runs the application's drain
(``GameServer.drain``: tables handed over, clients sent where their table runs now),
then lets uvicorn close what is left within the time that remains of the bound.

:class:`Supervisor` is uvicorn's process manager for ``serve --workers N`` with
:class:`DrainingServer` in each worker, a worker that dies restarted after a pause that
doubles while workers keep dying young (so a worker that cannot start does not spin the
machine), and a stop that waits for each worker's drain no longer than its bound before
killing it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Awaitable, Callable

import uvicorn
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors.multiprocess import Multiprocess, Process

log = logging.getLogger("twintable.server")

#: What a stop keeps for uvicorn's own closing and the application's shutdown after
#: the drain, within the bound.
AFTER_DRAIN_S = 2.0
#: A worker that dies sooner than this after its start counts as dying young.
YOUNG_S = 10.0
#: The first pause before a dead worker is replaced, and the longest.
RESTART_PAUSE_S, LONGEST_RESTART_PAUSE_S = 0.5, 30.0

_drains: list[Callable[[float], Awaitable[None]]] = []


def on_drain(drain: Callable[[float], Awaitable[None]]) -> Callable[[], None]:
    """Run ``drain(seconds)`` when this process is asked to stop, before its connections
    are closed (an application registers it at its start); the call returned forgets
    it."""
    _drains.append(drain)
    return lambda: _drains.remove(drain) if drain in _drains else None


class DrainingServer(uvicorn.Server):
    """uvicorn's server whose stop drains the application first (see the module)."""

    def __init__(self, config: uvicorn.Config, drain_within_s: float = 10.0):
        super().__init__(config)
        self.drain_within_s = drain_within_s

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        deadline = time.monotonic() + self.drain_within_s
        for server in getattr(self, "servers", []):
            server.close()  # no new connection here; open ones are served on
        budget = max(0.5, self.drain_within_s - AFTER_DRAIN_S)
        for drain in list(_drains):
            left = min(budget, deadline - time.monotonic() - AFTER_DRAIN_S)
            try:
                async with asyncio.timeout(max(0.1, left)):
                    await drain(max(0.1, left))
            except TimeoutError:
                log.warning("the drain ran out of time")
            except Exception:
                log.exception("the drain failed; the connections are closed as they are")
        self.config.timeout_graceful_shutdown = max(
            1, int(deadline - time.monotonic() - AFTER_DRAIN_S / 2))
        await super().shutdown(sockets)


class _DrainingProcess(Process):
    """One worker process of :class:`Supervisor`, serving with :class:`DrainingServer`."""

    drain_within_s = 10.0

    def __init__(self, config: uvicorn.Config, sockets: list[socket.socket],
                 drain_within_s: float):
        self.drain_within_s = drain_within_s
        super().__init__(config, sockets)
        self.started_at = time.monotonic()

    @property
    def server(self) -> uvicorn.Server:
        if self._server is None:
            self._server = DrainingServer(self.config, self.drain_within_s)
        return self._server


class Supervisor(Multiprocess):
    """``serve --workers N``'s parent process (see the module)."""

    def __init__(self, config: uvicorn.Config, sockets: list[socket.socket],
                 drain_within_s: float):
        super().__init__(config, sockets)
        self.drain_within_s = drain_within_s
        self.pause_s = RESTART_PAUSE_S
        self.restart_at: dict[int, float] = {}
        """Slots whose worker died, with when their replacement starts."""

    def _new_process(self) -> _DrainingProcess:
        return _DrainingProcess(self.config, self.sockets, self.drain_within_s)

    def init_processes(self) -> None:
        for _ in range(self.processes_num):
            process = self._new_process()
            process.start()
            self.processes.append(process)

    def keep_subprocess_alive(self) -> None:
        if self.should_exit.is_set():
            return
        now = time.monotonic()
        for slot, process in enumerate(self.processes):
            if slot in self.restart_at:
                if now >= self.restart_at[slot]:
                    del self.restart_at[slot]
                    replacement = self._new_process()
                    replacement.start()
                    self.processes[slot] = replacement
                    log.warning("worker restarted", extra={"pid": replacement.pid})
                continue
            if process.is_alive(timeout=self.config.timeout_worker_healthcheck):
                continue
            process.kill()  # hung, or already gone
            process.join()
            if process.exitcode == STARTUP_FAILURE:
                log.error("a worker failed to start: stopping", extra={"pid": process.pid})
                self.should_exit.set()
                return
            young = now - getattr(process, "started_at", now) < YOUNG_S
            self.pause_s = (min(self.pause_s * 2, LONGEST_RESTART_PAUSE_S) if young
                            else RESTART_PAUSE_S)
            self.restart_at[slot] = now + self.pause_s
            log.error("worker died", extra={"pid": process.pid, "exit": process.exitcode,
                                            "restart_in_s": self.pause_s})

    def handle_ttin(self) -> None:  # SIGTTIN: one more worker, one of ours
        self.processes_num += 1
        process = self._new_process()
        process.start()
        self.processes.append(process)

    def join_all(self) -> None:
        """Wait for every worker's drain, up to its bound and a margin; kill the rest."""
        deadline = time.monotonic() + self.drain_within_s + AFTER_DRAIN_S + 3
        for process in self.processes:
            process.process.join(max(0.0, deadline - time.monotonic()))
            if process.process.is_alive():
                log.error("a worker did not stop in time: killed", extra={"pid": process.pid})
                with contextlib.suppress(Exception):
                    process.kill()
                process.process.join()

    def restart_all(self) -> None:  # SIGHUP: uvicorn's rolling restart, with our workers
        for slot, old in enumerate(self.processes):
            if self.should_exit.is_set():
                return
            new = self._new_process()
            new.start()
            if not new.wait_until_ready(self.config.timeout_worker_healthcheck,
                                        self.should_exit):
                new.kill()
                new.join()
                return
            old.terminate()
            old.process.join(self.drain_within_s + AFTER_DRAIN_S + 3)
            if old.process.is_alive():
                old.kill()
            self.processes[slot] = new
