"""The relay: WebSocket clients whose table runs on another worker, and this worker's
side of the cluster bus.

A client that reaches a worker other than its table's owner is either sent to the
owner's own address (a hello that follows redirects gets ``moved``, for a private table
only once it shows the invite key or a seat's token; the address is the owner's
configured one, never built from the request's Host header) or served through
the owner: its frames go there over the bus, once checked here (nothing crosses Redis
that the owner would refuse on sight: ``server/guards.py``), and the owner's come back.
On the owner the client is a :class:`~twintable.server.cluster.RemoteSocket` served by
an ordinary socket session. Lobby calls from other workers are handed to the lobby
facade. When the bus breaks or loses messages (counted as ``twintable_bus_resets_total``)
or a peer dies, every client served across it is closed and reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Coroutine
from typing import Any, cast

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from twintable.server.address_groups import client_group
from twintable.server.bus import (
    BusMessage,
    LobbyCall,
    SocketClosed,
    SocketFrame,
    SocketOpened,
)
from twintable.server.cluster import Cluster, RemoteSocket
from twintable.server.guards import FLOOD_PAUSE_S, Allowance, ForwardGuard, hello_deadline
from twintable.server.limits import BadJson, bounded_json
from twintable.server.lobby import Lobby
from twintable.server.protocol import ErrorMessage, Hello, Moved
from twintable.server.public import table_socket
from twintable.server.seating import key_opens, token_seat
from twintable.server.session import SocketSession
from twintable.server.tables import MOVED_CLOSE_CODE, Table

log = logging.getLogger("twintable.server")

#: What a forwarded client's inbox holds: a frame's text or a close code; None: the
#: owner is gone (the client reconnects).
Delivery = SocketFrame | SocketClosed | None


class Relay:
    """Clients of other workers served here, and this worker's clients served by others."""

    def __init__(self, lobby: Lobby):
        self.lobby = lobby
        self.server = lobby.server
        self.settings = lobby.settings
        self.remotes: dict[str, RemoteSocket] = {}
        """Clients of other workers whose table runs here, by connection id."""
        self.proxies: dict[str, asyncio.Queue[Delivery]] = {}
        """This worker's clients whose table runs elsewhere, by connection id."""
        self.background: set[asyncio.Task[Any]] = set()
        self.to_workers: dict[str, Allowance] = {}
        """The bytes a second this worker may forward to each other worker."""

    def bytes_to(self, worker: str) -> Allowance:
        """The byte budget of everything this worker forwards to ``worker``."""
        if worker not in self.to_workers:
            if len(self.to_workers) > 1_000:  # workers long gone
                self.to_workers.clear()
            rate = self.settings.forwarded_bytes_per_worker
            self.to_workers[worker] = Allowance(rate, 4 * rate)
        return self.to_workers[worker]

    @property
    def cluster(self) -> Cluster:
        cluster = self.server.host.cluster
        assert cluster is not None
        return cluster

    def in_background(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def start(self) -> None:
        self.cluster.on_message = self.on_bus_message
        self.cluster.on_reset = self.on_bus_reset
        self.in_background(self.watch_peers())

    def stop(self) -> None:
        for task in list(self.background):
            task.cancel()

    # -- a client here, its table elsewhere ---------------------------------------------
    async def redirect_or_forward(self, websocket: WebSocket, owner: str,
                                  table_id: str, shared: Allowance) -> None:
        """A client whose table runs on worker ``owner``: a hello that follows redirects
        is answered ``moved`` with the owner's own address; any other client is served
        through the owner (its hello goes there first)."""
        settings = self.settings
        try:
            first = await asyncio.wait_for(websocket.receive_text(),
                                           timeout=settings.send_timeout_s)
        except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
            # Gone already: closing says so (WebSocketDisconnect, from uvicorn's OSError).
            with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
                await websocket.close(code=1000)
            return
        hello = self.redirected_hello(first[:settings.max_frame_bytes])
        if hello is not None:
            with contextlib.suppress(RedisError, OSError, SQLAlchemyError):
                url = await self.owner_url(owner, table_id, websocket.url.query)
                # A private table's worker is named only to whoever may open it.
                if url is not None and await self.shows_access(table_id, hello):
                    await websocket.send_text(Moved(url=url).model_dump_json())
                    await websocket.close(code=MOVED_CLOSE_CODE)
                    return
        await self.forward(websocket, owner, table_id, first, shared)

    @staticmethod
    def redirected_hello(frame: str) -> Hello | None:
        """The hello ``frame`` if it says its client follows redirects."""
        try:
            hello = Hello.model_validate(bounded_json(frame))
        except (BadJson, ValidationError):
            return None  # the table's worker answers what is wrong with it
        return hello if hello.redirects else None

    async def owner_url(self, owner: str, table_id: str, query: str) -> str | None:
        """The table's socket at its owner's own address, if the owner has one: a
        WebSocket URL made from the owner's configuration (``server/public.py``), never
        from what this request said its host was."""
        return table_socket(await self.cluster.address_of(owner), table_id, query)

    async def shows_access(self, table_id: str, hello: Hello) -> bool:
        """Whether ``hello`` opens the table: any hello for a public one; for a private
        one its invite key or one of its seats' tokens (read from the database, as the
        table runs on another worker). The shared lobby says which tables are public."""
        with contextlib.suppress(BadJson, AttributeError):
            described = await self.cluster.info(table_id)
            if described is not None and bounded_json(described).get("private") is False:
                return True
        loaded = await self.server.store.load_table(table_id)
        if loaded is None:
            return False
        row, seats = loaded
        invite_hash = (row.settings or {}).get("invite_hash")
        if not invite_hash:
            return True
        return ((hello.key is not None and key_opens(invite_hash, hello.key))
                or token_seat(seats, hello.token) is not None)

    async def forward(self, websocket: WebSocket, owner: str, table_id: str,
                      first: str, shared: Allowance) -> None:
        """Serve a client whose table runs on worker ``owner``: its frames (``first``,
        then the rest) go there once checked here (``server/guards.py``), the owner's come
        back, until either side closes or the owner changes. ``shared``: the allowance
        every socket of the client's address draws from."""
        cluster = self.cluster
        ident = secrets.token_hex(8)
        inbox: asyncio.Queue[Delivery] = asyncio.Queue()
        self.proxies[ident] = inbox
        client = client_group(websocket)
        guard = ForwardGuard(self.settings, shared=shared,
                             shared_bytes=self.lobby.addresses.forwarded_bytes(client),
                             destination_bytes=self.bytes_to(owner))
        cluster.send(owner, SocketOpened(ident, table_id, cluster.worker_id, client))

        async def pass_on(text: str) -> bool:
            """Checked here before anything is published; False: the client is closed."""
            onward, answer = guard.check(text)
            if onward is not None:
                cluster.send(owner, SocketFrame(ident, onward))
            if answer is not None:
                await websocket.send_text(answer.model_dump_json())
                if isinstance(answer, ErrorMessage) and answer.code == "rate.limited" \
                        and guard.flooded:
                    await asyncio.sleep(FLOOD_PAUSE_S)  # see Allowance: a flood waits
            if guard.abusive:
                await websocket.close(code=1008, reason="too many bad messages")
                return False
            return True

        async def to_client() -> None:
            while (item := await inbox.get()) is not None:
                if isinstance(item, SocketClosed):
                    await websocket.close(code=item.code)
                    return
                guard.answered(item.text)
                await websocket.send_text(item.text)
            await websocket.close(code=MOVED_CLOSE_CODE)

        async def watch_owner() -> None:
            while True:
                await asyncio.sleep(self.settings.lease_ttl_ms / 2000)
                with contextlib.suppress(RedisError, OSError):
                    if await cluster.owner(table_id) != owner:
                        inbox.put_nowait(None)
                        return

        tasks = [asyncio.create_task(to_client()), asyncio.create_task(watch_owner())]
        try:
            async with hello_deadline(websocket, lambda: guard.welcomed,
                                      self.settings.hello_timeout_s):
                if not await pass_on(first):
                    return
                while True:
                    frame = await websocket.receive()
                    if frame["type"] == "websocket.disconnect":
                        break
                    text = frame.get("text")
                    if text is None and frame.get("bytes") is not None:
                        text = frame["bytes"].decode("utf-8", "replace")
                    if not await pass_on(text or ""):
                        break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.proxies.pop(ident, None)
            cluster.send(owner, SocketClosed(ident, 1000))
            for task in tasks:
                task.cancel()

    # -- a table here, its client elsewhere ---------------------------------------------
    async def serve_remote(self, socket: RemoteSocket, table: Table) -> None:
        session = SocketSession(cast(WebSocket, socket), table, self.settings, relayed=True)
        try:
            await session.run()
        finally:
            await session.close()
            self.remotes.pop(socket.ident, None)
            await socket.close(code=1000)

    async def answer_call(self, asked: LobbyCall) -> None:
        self.cluster.answer(asked.peer, asked.ident, await self.lobby.answer_call(asked.call))

    def on_bus_message(self, message: BusMessage) -> None:
        cluster = self.cluster
        ident = message.ident
        if isinstance(message, SocketFrame):
            if (remote := self.remotes.get(ident)) is not None:
                remote.deliver(message.text)
            elif (proxy := self.proxies.get(ident)) is not None:
                proxy.put_nowait(message)
        elif isinstance(message, SocketClosed):
            if (remote := self.remotes.pop(ident, None)) is not None:
                remote.gone()
            elif (proxy := self.proxies.get(ident)) is not None:
                proxy.put_nowait(message)
        elif isinstance(message, SocketOpened):
            table = self.server.tables.get(message.table)
            if table is None or not self.server.accepting:
                cluster.send(message.peer, SocketClosed(ident, MOVED_CLOSE_CODE))
                return
            socket = RemoteSocket(cluster, message.peer, ident, message.client)
            self.remotes[ident] = socket
            self.in_background(self.serve_remote(socket, table))
        elif isinstance(message, LobbyCall):
            self.in_background(self.answer_call(message))

    def on_bus_reset(self, reason: str) -> None:
        """Messages may have been lost: every forwarded client reconnects and resumes."""
        self.server.metrics.bus_resets.labels(reason=reason).inc()
        for remote in list(self.remotes.values()):
            remote.gone()
        self.remotes.clear()
        for proxy in self.proxies.values():
            proxy.put_nowait(None)

    async def watch_peers(self) -> None:
        """Clients forwarded by a worker that died are gone too (they reconnect)."""
        cluster = self.cluster
        while True:
            await asyncio.sleep(self.settings.lease_ttl_ms / 1000)
            for peer in {remote.peer for remote in self.remotes.values()}:
                with contextlib.suppress(RedisError, OSError):
                    if not await cluster.alive(peer):
                        for ident, remote in list(self.remotes.items()):
                            if remote.peer == peer:
                                self.remotes.pop(ident, None)
                                remote.gone()
