"""Real networks between a worker and its services, for fault tests: each worker runs in
a network namespace of its own and reaches PostgreSQL and Redis over veth pairs, so a
fault is the kernel's, not a mock's.

One worker's place (``ip netns``, from Debian's iproute2) holds three veth pairs, one
per path: ``client`` (the test's clients reach the worker at the namespace's address),
``redis`` and ``postgres``. On the host's end of the Redis and PostgreSQL links a relay
listens on the link's own address and passes bytes on to the service on 127.0.0.1 (the
services listen on loopback only, and PostgreSQL trusts loopback), so only loopback and
the namespaces' own addresses are ever used, in a 10.x.y.0/24 drawn at random and
checked unused (tests side by side never share one).

Faults:

- **Cut** (:meth:`Place.cut`): the host's end of a link goes down: the kernel drops
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
import os
import random
import secrets
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

#: Linux's smallest retransmission timeout: what a lost segment delays the bytes after it.
MIN_RTO_S = 0.2
SERVICES = {"redis": 6379, "postgres": 5432}


def _ip(*args: str) -> str:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=10)
    if done.returncode != 0:
        raise OSError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def why_not() -> str | None:
    """None when network namespaces with veth pairs can be made here, else why not."""
    if shutil.which("ip") is None:
        return "no `ip` command (Debian's iproute2: apt-get install iproute2)"
    if os.geteuid() != 0:
        return "network namespaces need root"
    probe = f"ttprobe{secrets.token_hex(3)}"
    try:
        _ip("netns", "add", probe)
        try:
            _ip("link", "add", f"{probe}h", "type", "veth", "peer", "name", f"{probe}n")
            _ip("link", "del", f"{probe}h")
        finally:
            _ip("netns", "del", probe)
    except (OSError, subprocess.SubprocessError) as error:
        return f"cannot make a network namespace with a veth pair: {error}"
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
    """One worker's namespace and its three links."""

    namespace: str
    address: str
    """The namespace's own address on the client link: where the worker listens."""
    hosts: dict[str, str]
    """Each service's address on the host's end of its link (where its relay listens)."""
    ends: dict[str, str]
    """Each link's interface on the host's end."""
    impairments: dict[str, Impairment] = field(default_factory=dict)

    def prefix(self) -> list[str]:
        """The command line that runs a command in this namespace."""
        return ["ip", "netns", "exec", self.namespace]

    def redis_url(self, database: int) -> str:
        return f"redis://{self.hosts['redis']}:{SERVICES['redis']}/{database}"

    def postgres_url(self, url: str) -> str:
        """``url`` (a database on 127.0.0.1:5432) as this namespace reaches it."""
        return url.replace("127.0.0.1:5432", f"{self.hosts['postgres']}:5432")

    def cut(self, service: str) -> None:
        _ip("link", "set", self.ends[service], "down")

    def heal(self, service: str) -> None:
        _ip("link", "set", self.ends[service], "up")

    def impair(self, service: str, one_way_s: float, loss: float) -> None:
        impairment = self.impairments.setdefault(service, Impairment())
        impairment.one_way_s, impairment.loss = one_way_s, loss


class Relays:
    """TCP relays on the host's ends of the service links, in a thread of their own (an
    event loop that the test's own loops never block), each passing bytes to the service
    on 127.0.0.1 under its place's impairment."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.servers: list[asyncio.Server] = []
        self.rng = random.Random()

    def listen(self, place: Place, service: str) -> None:
        async def start() -> asyncio.Server:
            return await asyncio.start_server(
                lambda reader, writer: self._pass(place, service, reader, writer),
                place.hosts[service], SERVICES[service])

        self.servers.append(asyncio.run_coroutine_threadsafe(start(), self.loop).result(10))

    async def _pass(self, place: Place, service: str, reader: asyncio.StreamReader,
                    writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", SERVICES[service])
        except OSError:
            writer.close()
            return
        impairment = place.impairments.setdefault(service, Impairment())
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


def _free_subnet() -> str:
    """A 10.x.y (of a /24) that no interface here uses."""
    used = _ip("-o", "-4", "addr", "show")
    rng = random.Random()
    for _ in range(100):
        subnet = f"10.{rng.randrange(64, 250)}.{rng.randrange(0, 256)}"
        if f" {subnet}." not in used:
            return subnet
    raise OSError("no free 10.x.y.0/24 for the test's namespaces")


@contextlib.contextmanager
def places(count: int) -> Iterator[list[Place]]:
    """``count`` namespaces, each with its client, Redis and PostgreSQL links and relays;
    everything removed afterwards."""
    tag = secrets.token_hex(2)
    subnet = _free_subnet()
    made: list[Place] = []
    relays = Relays()
    try:
        for n in range(count):
            namespace = f"tt{tag}w{n}"
            _ip("netns", "add", namespace)
            place = Place(namespace, "", {}, {})
            made.append(place)
            _ip("-n", namespace, "link", "set", "lo", "up")
            # Each link a /30 of its own: .1 the host's end, .2 the namespace's.
            for k, link in enumerate(("client", "redis", "postgres")):
                base = 64 * n + 4 * k
                host_end, inner = f"tt{tag}{n}{link[0]}h", f"tt{tag}{n}{link[0]}n"
                _ip("link", "add", host_end, "type", "veth", "peer", "name", inner)
                _ip("link", "set", inner, "netns", namespace)
                _ip("addr", "add", f"{subnet}.{base + 1}/30", "dev", host_end)
                _ip("-n", namespace, "addr", "add", f"{subnet}.{base + 2}/30", "dev", inner)
                _ip("link", "set", host_end, "up")
                _ip("-n", namespace, "link", "set", inner, "up")
                place.ends[link] = host_end
                if link == "client":
                    place.address = f"{subnet}.{base + 2}"
                else:
                    place.hosts[link] = f"{subnet}.{base + 1}"
            for service in SERVICES:
                relays.listen(place, service)
        yield made
    finally:
        relays.close()
        for place in made:
            for end in place.ends.values():
                with contextlib.suppress(OSError):
                    _ip("link", "del", end)
            with contextlib.suppress(OSError):
                _ip("netns", "del", place.namespace)
