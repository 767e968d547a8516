"""Real networks between a worker and its services, for fault tests: each worker runs in
a network namespace of its own and reaches PostgreSQL and Redis over veth pairs, so a
fault is the kernel's, not a mock's.

Nothing of it is in the host's own (root) network namespace: no link, no address, no
link going down. Programs there that watch the root namespace's links over netlink take
such changes for a network change and act on it (Chromium aborts every page load with
``net::ERR_NETWORK_CHANGED``), and the browser tests run beside these ones. So a
per-test *hub* namespace holds the far end of every veth pair, each pair made directly
between the hub and a worker's namespace (``ip -n HUB link add ... netns WORKER``), and
the Python ends that must live on those links (the relays' listening sockets, the
sockets by which the test's clients reach a worker) are made in the hub: network
namespaces are per thread on Linux, so a thread of this process that entered the hub
(``setns``) makes those sockets, and the event loop (in the root namespace) uses them.

One worker's place (``ip netns``, from Debian's iproute2) holds three veth pairs to the
hub, one per path: ``client`` (the test's clients reach the worker at the namespace's
address, through a relay on 127.0.0.1 in the root namespace whose upstream socket is
the hub's), ``redis`` and ``postgres``. On the hub's end of the Redis and PostgreSQL
links a relay listens on the link's own address and passes bytes on to the service on
127.0.0.1 of the root namespace (the services listen on loopback only, and PostgreSQL
trusts loopback). The addresses, 10.x.y.z, are private to the hub and the places, so
tests side by side (each its own hub) never see each other's.

Faults:

- **Cut** (:meth:`Place.cut`): the hub's end of a link goes down: the kernel drops
  every packet both ways, the TCP connections across it hang without a reset and new
  ones time out, as in a real partition; :meth:`Place.heal` brings it back up and TCP
  carries on where it stopped (retransmission) or the peers time out.
- **Latency and loss** (:meth:`Place.impair`): ``tc qdisc ... netem`` is the tool, but
  this project's kernels are built without ``sch_netem`` (nor ``act_gact``), so the relay
  imposes them on the bytes it passes: every chunk arrives ``one_way_s`` late in each
  direction, and with probability ``loss`` a retransmission timeout later (TCP's minimum
  RTO, 200 ms, plus the round trip): what a lost segment costs an application on TCP,
  head-of-line blocking included (a later chunk never overtakes an earlier one).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import random
import secrets
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

#: Linux's smallest retransmission timeout: what a lost segment delays the bytes after it.
MIN_RTO_S = 0.2
SERVICES = {"redis": 6379, "postgres": 5432}
#: Where the worker listens in its namespace (its own address there, on the client link).
WORKER_PORT = 8000
#: ``setns(2)``'s flag for a network namespace (Python 3.11 has no ``os.setns``).
CLONE_NEWNET = 0x40000000
NETNS_DIR = "/var/run/netns"

T = TypeVar("T")


def _ip(*args: str) -> str:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=10)
    if done.returncode != 0:
        raise OSError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def enter(namespace: str) -> None:
    """Move the calling thread (only it: namespaces are per thread) into ``namespace``;
    the sockets it makes from then on belong to that namespace for good."""
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(os.path.join(NETNS_DIR, namespace), os.O_RDONLY | os.O_CLOEXEC)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"setns({namespace}): {os.strerror(error)}")
    finally:
        os.close(fd)


def inside(namespace: str, make: Callable[[], T]) -> T:
    """``make()`` run in a short-lived thread that entered ``namespace``: the way to get
    one socket there without moving any long-lived thread."""
    result: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            enter(namespace)
            result.append(make())
        except BaseException as error:  # handed to the caller's thread
            failed.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return result[0]


def root_network() -> tuple[str, str]:
    """The root namespace's links and addresses (``ip -o link``, ``ip -o addr``): what
    these tests must never change."""
    return _ip("-o", "link"), _ip("-o", "addr")


def why_not() -> str | None:
    """None when network namespaces joined by veth pairs can be made here and entered by
    a thread of this process, else why not. Nothing is made in the root namespace."""
    if shutil.which("ip") is None:
        return "no `ip` command (Debian's iproute2: apt-get install iproute2)"
    if os.geteuid() != 0:
        return "network namespaces need root"
    probe = f"ttprobe{secrets.token_hex(3)}"
    try:
        _ip("netns", "add", f"{probe}a")
        try:
            _ip("netns", "add", f"{probe}b")
            try:
                _ip("-n", f"{probe}a", "link", "add", f"{probe}h", "type", "veth",
                    "peer", "name", f"{probe}n", "netns", f"{probe}b")
                inside(f"{probe}a", lambda: socket.socket().close())
            finally:
                _ip("netns", "del", f"{probe}b")
        finally:
            _ip("netns", "del", f"{probe}a")
    except (OSError, subprocess.SubprocessError) as error:
        return f"cannot make network namespaces with a veth pair between them: {error}"
    return None


@dataclass
class Impairment:
    one_way_s: float = 0.0
    loss: float = 0.0
    chunks: int = 0
    """Chunks passed while impaired, and those of them lost (held a timeout longer)."""
    lost: int = 0


@dataclass
class Place:
    """One worker's namespace and its three links to the hub."""

    namespace: str
    hub: str
    """The namespace at the other end of every link (where the faults are made)."""
    address: str
    """The namespace's own address on the client link: where the worker listens."""
    hosts: dict[str, str]
    """Each service's address on the hub's end of its link (where its relay listens)."""
    ends: dict[str, str]
    """Each link's interface on the hub's end."""
    inner: dict[str, str] = field(default_factory=dict)
    """Each link's interface in this namespace."""
    impairments: dict[str, Impairment] = field(default_factory=dict)
    client_port: int = 0
    """The port on 127.0.0.1 (root namespace) that reaches the worker
    (``address``:``WORKER_PORT``) across the client link."""

    def prefix(self) -> list[str]:
        """The command line that runs a command in this namespace."""
        return ["ip", "netns", "exec", self.namespace]

    def redis_url(self, database: int) -> str:
        return f"redis://{self.hosts['redis']}:{SERVICES['redis']}/{database}"

    def postgres_url(self, url: str) -> str:
        """``url`` (a database on 127.0.0.1:5432) as this namespace reaches it."""
        return url.replace("127.0.0.1:5432", f"{self.hosts['postgres']}:5432")

    def cut(self, service: str) -> None:
        _ip("-n", self.hub, "link", "set", self.ends[service], "down")

    def heal(self, service: str) -> None:
        """The link back up, returning once a connection from this namespace gets through
        it. Two things lag behind ``link set up``: the kernel brings a veth's carrier (and
        with it the queue that sends) up later, from a work queue, dropping every packet
        until then; and the namespace's entry for the service's address may still be
        unresolved, asked for (ARP) while the link was cut: a connection made before that
        attempt gives up fails with "No route to host" at once, though the link is up."""
        _ip("-n", self.hub, "link", "set", self.ends[service], "up")
        deadline = time.monotonic() + 10
        while not all(" state UP " in _ip("-n", namespace, "-o", "link", "show", end)
                      for namespace, end in ((self.hub, self.ends[service]),
                                             (self.namespace, self.inner[service]))):
            if time.monotonic() > deadline:
                raise OSError(f"{self.namespace}'s {service} link still down 10 s after heal")
            time.sleep(0.01)
        at = (self.hosts[service], SERVICES[service])
        while True:
            try:
                inside(self.namespace, lambda: socket.create_connection(at, timeout=1).close())
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise OSError(f"{self.namespace} cannot reach {service} 10 s after heal"
                                  ) from None
                time.sleep(0.05)

    def impair(self, service: str, one_way_s: float, loss: float) -> None:
        impairment = self.impairments.setdefault(service, Impairment())
        impairment.one_way_s, impairment.loss = one_way_s, loss


def _tcp_socket(bound: tuple[str, int] | None = None) -> socket.socket:
    """A non-blocking TCP socket of the calling thread's namespace, listening on ``bound``
    if given."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        if bound is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(bound)
            sock.listen(128)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


class Relays:
    """TCP relays between the hub and the root namespace, in a thread of their own (an
    event loop that the test's own loops never block; it stays in the root namespace).
    Service relays listen in the hub and pass bytes to the service on 127.0.0.1 under
    their place's impairment; client relays listen on 127.0.0.1 and pass bytes to a
    worker through the hub. The hub's sockets are made by one thread that entered it."""

    def __init__(self, hub: str) -> None:
        self.hub = hub
        self.in_hub = ThreadPoolExecutor(1, thread_name_prefix=f"netns-{hub}",
                                         initializer=enter, initargs=(hub,))
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.servers: list[asyncio.Server] = []
        self.rng = random.Random()

    def _hub_socket(self, bound: tuple[str, int] | None = None) -> socket.socket:
        """A TCP socket of the hub (listening on ``bound`` if given)."""
        return self.in_hub.submit(_tcp_socket, bound).result(10)

    def listen(self, place: Place, service: str) -> None:
        """The relay from the hub's end of ``service``'s link to the service."""
        sock = self._hub_socket((place.hosts[service], SERVICES[service]))

        async def start() -> asyncio.Server:
            return await asyncio.start_server(
                lambda reader, writer: self._pass(place, service, reader, writer), sock=sock)

        self.servers.append(asyncio.run_coroutine_threadsafe(start(), self.loop).result(10))

    def reach(self, place: Place) -> None:
        """The relay from 127.0.0.1 (root namespace) to the worker in ``place``."""
        async def start() -> asyncio.Server:
            return await asyncio.start_server(
                lambda reader, writer: self._to_worker(place, reader, writer),
                "127.0.0.1", 0)

        server = asyncio.run_coroutine_threadsafe(start(), self.loop).result(10)
        self.servers.append(server)
        place.client_port = server.sockets[0].getsockname()[1]

    async def _to_worker(self, place: Place, reader: asyncio.StreamReader,
                         writer: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        try:
            sock = await loop.run_in_executor(self.in_hub, _tcp_socket)
            try:
                await asyncio.wait_for(
                    loop.sock_connect(sock, (place.address, WORKER_PORT)), 5)
            except BaseException:
                sock.close()
                raise
            up_reader, up_writer = await asyncio.open_connection(sock=sock)
        except (OSError, TimeoutError):
            writer.close()  # as a refused connection, to the client
            return
        await self._both_ways(reader, writer, up_reader, up_writer, Impairment())

    async def _pass(self, place: Place, service: str, reader: asyncio.StreamReader,
                    writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", SERVICES[service])
        except OSError:
            writer.close()
            return
        impairment = place.impairments.setdefault(service, Impairment())
        await self._both_ways(reader, writer, up_reader, up_writer, impairment)

    async def _both_ways(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                         up_reader: asyncio.StreamReader, up_writer: asyncio.StreamWriter,
                         impairment: Impairment) -> None:
        await asyncio.gather(self._pump(reader, up_writer, impairment),
                             self._pump(up_reader, writer, impairment),
                             return_exceptions=True)

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    impairment: Impairment) -> None:
        """Bytes one way, each chunk held until its time (never before the one before)."""
        due: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                at, chunk = await due.get()
                if not chunk:
                    break
                if (wait := at - time.monotonic()) > 0:
                    await asyncio.sleep(wait)
                writer.write(chunk)
                await writer.drain()

        delivering = asyncio.create_task(deliver())
        last = 0.0
        try:
            while chunk := await reader.read(65536):
                late = impairment.one_way_s
                if late or impairment.loss:
                    impairment.chunks += 1
                if impairment.loss and self.rng.random() < impairment.loss:
                    impairment.lost += 1
                    late += MIN_RTO_S + 2 * impairment.one_way_s
                last = max(last, time.monotonic() + late)
                due.put_nowait((last, chunk))
        except OSError:
            pass
        finally:
            due.put_nowait((last, b""))
            with contextlib.suppress(OSError, asyncio.CancelledError):
                await delivering
            with contextlib.suppress(OSError):
                writer.close()

    def close(self) -> None:
        async def stop() -> None:
            for server in self.servers:
                server.close()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.in_hub.shutdown()


@contextlib.contextmanager
def places(count: int) -> Iterator[list[Place]]:
    """``count`` namespaces, each with its client, Redis and PostgreSQL links to a hub of
    their own, and the relays; everything removed afterwards (deleting a namespace
    deletes the veth ends in it, and with them their peers)."""
    tag = secrets.token_hex(2)
    hub = f"tt{tag}hub"
    namespaces = [hub]
    made: list[Place] = []
    relays: Relays | None = None
    try:
        _ip("netns", "add", hub)
        _ip("-n", hub, "link", "set", "lo", "up")
        relays = Relays(hub)
        for n in range(count):
            namespace = f"tt{tag}w{n}"
            _ip("netns", "add", namespace)
            namespaces.append(namespace)
            place = Place(namespace, hub, "", {}, {})
            made.append(place)
            _ip("-n", namespace, "link", "set", "lo", "up")
            # Each link a /30 of its own: .1 the hub's end, .2 the namespace's.
            for k, link in enumerate(("client", "redis", "postgres")):
                base = 64 * n + 4 * k
                hub_end, inner = f"tt{n}{link[0]}h", f"tt{n}{link[0]}n"
                _ip("-n", hub, "link", "add", hub_end, "type", "veth",
                    "peer", "name", inner, "netns", namespace)
                _ip("-n", hub, "addr", "add", f"10.200.0.{base + 1}/30", "dev", hub_end)
                _ip("-n", namespace, "addr", "add", f"10.200.0.{base + 2}/30", "dev", inner)
                _ip("-n", hub, "link", "set", hub_end, "up")
                _ip("-n", namespace, "link", "set", inner, "up")
                place.ends[link], place.inner[link] = hub_end, inner
                if link == "client":
                    place.address = f"10.200.0.{base + 2}"
                else:
                    place.hosts[link] = f"10.200.0.{base + 1}"
            for service in SERVICES:
                relays.listen(place, service)
            relays.reach(place)
        yield made
    finally:
        if relays is not None:
            relays.close()
        for namespace in reversed(namespaces):
            with contextlib.suppress(OSError):
                _ip("netns", "del", namespace)
