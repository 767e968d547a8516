"""Server settings, with defaults for a person running it on their own machine, and the
rules a deployment must follow (``twintable serve``): which databases it runs on, what
several workers need, which ports and addresses it may be given.

:meth:`Settings.validate` holds the rules on the settings themselves;
:func:`deployment` makes the settings of ``serve``'s options and checks the rules on how
the processes run (workers, ports); :meth:`Deployment.check_reachable` looks at the
machine (the ports free, Redis answering) before anything starts. Each refusal is a
:class:`SettingsError` whose message is one line for the operator.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import json
import os
import shutil
import socket
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from twintable.server.logs import without_password
from twintable.server.public import (
    check_advertise_url,
    check_public_url,
    default_public_url,
)


class SettingsError(ValueError):
    """Settings no server runs with; the message says why, in one line."""


def default_db_url() -> str:
    data = Path(platformdirs.user_data_dir("twintable", appauthor=False))
    data.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{data / 'twintable.sqlite3'}"


def async_db_url(url: str) -> str:
    """A database URL as an operator writes it (postgresql://, sqlite://) with the async
    driver the server uses."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+asyncpg://" + url.split("://", 1)[1]
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url.split("://", 1)[1]
    return url


@dataclass(slots=True)
class Settings:
    db_url: str = field(default_factory=default_db_url)
    public_url: str | None = "http://127.0.0.1:8000"
    """Where people reach this server (``serve --public-url``; by default the address it
    listens on): invite links, the ``moved`` redirects to a worker's own port or path and
    the page's policy use it, never a request's Host header (``server/public.py``).
    None (listening on every address, none given): links are relative and clients are
    served through their table's worker rather than sent to it."""
    bot_delay_ms: int = 700
    """How long a bot at a table "thinks" before it acts, so people can follow the game."""
    bot_reactions: bool = True
    """Bots send a quick reaction now and then (``server/reactions.py``); scripted test
    clients that read frames in a fixed order turn them off."""
    realtime_bot_pace: float = 1.0
    """Real-time games (Twin It, Twinz): 1.0 lets bots react at their level's human speed;
    a smaller number speeds them up (tests)."""
    max_frame_bytes: int = 16_384
    max_body_bytes: int = 65_536
    send_queue_frames: int = 256
    """Frames a connection may have waiting; a client that stops reading is closed."""
    send_timeout_s: float = 10.0
    """Longest a single frame may take to send before the connection is closed."""
    max_open_tables_per_client: int = 20
    """Unfinished tables (waiting or running) one client address may have made at once:
    counted across every worker where there are several."""
    max_open_tables_per_profile: int = 20
    """The same share for one profile, whatever address it comes from (a profile is
    free to make, but addresses are not the only thing one person can change)."""
    max_tables: int = 5_000
    """Tables open or running on this server at once (finished ones leave memory)."""
    abandoned_after_s: float = 3600.0
    """A table not started that nobody has been connected to for this long is abandoned:
    it leaves memory (the database keeps it, marked abandoned)."""
    unattended_after_s: float = 120.0
    """A running table nobody has been connected to for longer than this and its grace
    period is abandoned (stand-ins would otherwise play it for nobody for up to an hour);
    the floor lets a game of bots someone just started play on for a while."""
    drain_timeout_s: float = 10.0
    """Longest a stopping server (SIGTERM) takes to hand its tables over, send its
    clients on and exit (``server/supervisor.py``)."""
    finished_linger_s: float = 60.0
    """How long a finished table stays in memory for its players' last frames."""
    """HTTP request bodies larger than this are refused (413) before they are read whole."""
    messages_per_second: float = 20.0
    message_burst: int = 40
    client_messages_per_second: float = 60.0
    client_message_burst: int = 120
    """One address's messages over all its WebSockets together (a person may have a few
    tabs open; twenty sockets must not get twenty times the allowance)."""
    ipv6_prefix: int = 64
    """An IPv6 client counts in the per-address limits by its network of this many bits
    (``server/address_groups.py``); an IPv4 client by its address."""
    profiles_per_minute: int = 30
    """Profiles one address (group) may make a minute, across workers (a browser makes
    one, once; a classroom behind one address, a few dozen)."""
    max_seats_per_client: int = 12
    """Seats one address group may hold at once at the tables waiting to start on one
    worker (people behind one address join a few tables; a script took 30)."""
    max_connections_per_client: int = 128
    """HTTP connections one peer may hold at once (a proxy named in ``trusted_proxies``
    excepted): ``server/transport.py``."""
    forwarded_bytes_per_second: int = 64 * 1024
    """Bytes a second one address's clients may send on through a worker that does not
    run their tables (four seconds' worth at once): a person's moves are a few hundred
    bytes each."""
    forwarded_bytes_per_worker: int = 4 * 2**20
    """Bytes a second this worker sends on to any one other worker for the clients it
    serves through it, all addresses together (four seconds' worth at once): what one
    address may send is bounded, but a thousand addresses together must not overrun
    the table worker's subscription either (Redis cuts a subscriber 32 MB behind)."""
    max_sockets_per_client: int = 64
    """WebSockets one address may hold open at once."""
    hello_timeout_s: float = 10.0
    """A WebSocket that has not said hello by then is closed."""
    abuse_limit: int = 200
    """Refused frames in a row after which a connection is closed (code 1008)."""
    redis_url: str | None = None
    """Several workers: the Redis that carries table leases, the lobby and forwarded
    frames (needs PostgreSQL). None: one process owns everything (as on SQLite)."""
    redis_prefix: str = "twintable:"
    """Prefix of every Redis key and channel, so several platforms can share one Redis."""
    lease_ttl_ms: int = 10_000
    """How long a table's lease outlives a worker that stopped renewing it: a dead
    worker's tables are taken over this long after it died."""
    worker_ports: list[int] | None = None
    """``[first, last]``: with several workers, each also listens on the first free port
    of this range on ``worker_host``, its own address, where clients of its tables are
    sent (``serve --workers N --port P`` gives P+1..P+N)."""
    worker_host: str = "127.0.0.1"
    advertise_url: str | None = None
    """A worker's own address as clients reach it, when it is not a port of its own on
    the shared host: a WebSocket base URL (``wss://w1.example.org``) or a path on the
    shared address where a proxy sends to this worker (``/w1``)."""
    ws_compression: bool = False
    api_docs: bool = False
    """Serve the interactive API pages (/docs, /redoc): they load scripts from a CDN and
    run inline scripts, on the origin where the browser keeps seat tokens and the
    profile secret, so they are off unless asked for (/openapi.json is always there)."""
    archive_dir: str | None = field(
        default_factory=lambda: os.environ.get("TWINTABLE_ARCHIVE_DIR"))
    """Where ``twintable archive`` put finished games' moves, read back for their replays
    (``TWINTABLE_ARCHIVE_DIR``). None: beside a SQLite database, ``<name>-archive/``;
    with PostgreSQL, archived games' replays cannot be read without one."""
    trusted_proxies: list[str] = field(default_factory=list)
    """Addresses (or networks) of the proxies whose X-Forwarded-For/Proto is believed;
    none: every client is the address its connection comes from."""
    public_metrics: bool = False
    """Answer ``/metrics`` to anyone. Off: only to this machine (a loopback address, on a
    request no proxy forwarded) and to :attr:`metrics_from`."""
    metrics_from: list[str] = field(default_factory=list)
    """Addresses (or networks) besides this machine that may read ``/metrics``: a
    Prometheus server elsewhere."""

    @property
    def clustered(self) -> bool:
        return self.redis_url is not None

    def validate(self) -> None:
        """Raise :class:`SettingsError` on settings no server runs with: a database other
        than SQLite or PostgreSQL (SQLAlchemy's own error is a page of traceback), Redis
        without PostgreSQL, an address list that names no network, a range of ports
        that is none."""
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        for entry in self.metrics_from:
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise SettingsError(f"--metrics-from takes addresses or networks "
                                    f"(10.0.0.0/8), not {entry!r}") from None
        try:
            backend = make_url(self.db_url).get_backend_name()
        except ArgumentError:
            backend = None
        if backend not in ("sqlite", "postgresql"):
            raise SettingsError(f"--db takes a SQLite or PostgreSQL URL (sqlite:///PATH, "
                                f"postgresql://user@host/db), not "
                                f"{without_password(self.db_url)}")
        if self.redis_url is not None and backend != "postgresql":
            raise SettingsError("several workers need PostgreSQL: give --db "
                                "postgresql://user@host/db")
        if self.worker_ports is not None:
            first, last = self.worker_ports
            if not 0 < first <= last < 65536:
                raise SettingsError(f"no such range of ports: {first}-{last}")


@dataclass(slots=True)
class Deployment:
    """How ``serve`` runs: where it listens, in how many processes, with which settings."""

    settings: Settings
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    warnings: list[str] = field(default_factory=list)
    """What the operator should know but that does not stop the server."""

    @property
    def ports(self) -> list[int]:
        """Every port this deployment listens on: the shared one, the workers' own."""
        own = self.settings.worker_ports
        return [self.port, *(range(own[0], own[1] + 1) if own else ())]

    def check_reachable(self) -> None:
        """Raise :class:`SettingsError` when a port is taken or the Redis of several
        workers does not answer: before anything starts (uvicorn would fail only after
        the database was opened and migrated)."""
        for port in self.ports:
            _check_port_free(self.host, port)
        if self.settings.redis_url is not None:
            _require_redis(self.settings.redis_url)

    def banner(self) -> str:
        """The first line ``serve`` prints: where, on which database, with whom."""
        settings, redis = self.settings, self.settings.redis_url
        own = settings.worker_ports
        own_ports = f", their own ports {own[0]}-{own[1]}" if own else ""
        return (f"Twin Table on http://{self.host}:{self.port} (database: "
                f"{without_password(settings.db_url)}"
                + (f", {self.workers} workers{own_ports}, Redis {without_password(redis)})"
                   if redis else ")"))


#: ``serve``'s options that are settings of the same name.
_SAME_NAME = ("bot_delay_ms", "realtime_bot_pace", "redis_prefix", "lease_ttl_ms",
              "ws_compression", "api_docs", "public_metrics", "ipv6_prefix")
#: ``serve``'s options that are settings of another name.
_RENAMED = {"redis": "redis_url",
            "tables_per_address": "max_open_tables_per_client",
            "tables_per_profile": "max_open_tables_per_profile",
            "sockets_per_address": "max_sockets_per_client",
            "messages_per_address": "client_messages_per_second",
            "profiles_per_address": "profiles_per_minute",
            "seats_per_address": "max_seats_per_client",
            "connections_per_address": "max_connections_per_client",
            "forwarded_bytes_per_address": "forwarded_bytes_per_second",
            "forwarded_bytes_per_worker": "forwarded_bytes_per_worker",
            "drain_timeout": "drain_timeout_s"}


def deployment(*, host: str = "127.0.0.1", port: int = 8000, workers: int = 1,
               db: str | None = None, public_url: str | None = None,
               advertise_url: str | None = None, worker_ports: str | None = None,
               trusted_proxy: list[str] | None = None, metrics_from: list[str] | None = None,
               **options: Any) -> Deployment:
    """The deployment ``serve``'s options describe (each named as its option, the rest
    as :data:`_SAME_NAME` and :data:`_RENAMED` say), checked: :class:`SettingsError`
    names the first rule it breaks."""
    try:
        public = (check_public_url(public_url) if public_url is not None
                  else default_public_url(host, port))
        advertised = check_advertise_url(advertise_url) if advertise_url is not None else None
    except ValueError as refused:
        raise SettingsError(str(refused)) from None
    values = {name: options.pop(name) for name in _SAME_NAME if name in options}
    values |= {field_name: options.pop(option) for option, field_name in _RENAMED.items()
               if option in options}
    if options:
        raise TypeError(f"not a serve option: {', '.join(sorted(options))}")
    settings = Settings(db_url=async_db_url(db) if db else default_db_url(),
                        public_url=public, advertise_url=advertised,
                        worker_host=host, trusted_proxies=trusted_proxy or [],
                        metrics_from=metrics_from or [], **values)
    # Twice the rate at once: a burst of moves after a pause is a person, not a flood.
    settings.client_message_burst = max(1, int(2 * settings.client_messages_per_second))
    if workers < 1:
        raise SettingsError("--workers takes 1 or more")
    if workers > 1:
        if advertised is not None:
            raise SettingsError("--advertise-url names one worker's address: with "
                                "--workers, each worker has a port of its own "
                                "(--worker-ports)")
        if worker_ports != "off":
            settings.worker_ports = _port_range(worker_ports, port + 1, port + workers)
        if settings.redis_url is None:
            raise SettingsError("several workers need Redis: give --redis "
                                "redis://127.0.0.1:6379/0")
    settings.validate()
    warnings = []
    if settings.redis_url is not None and public is None and (workers > 1 or advertised):
        warnings.append("listening on every address without --public-url: clients are "
                        "served through their table's worker over Redis, not sent to it")
    return Deployment(settings, host, port, workers, warnings)


def _port_range(text: str | None, first: int, last: int) -> list[int]:
    """``--worker-ports`` (``8101-8104``), or ``first..last`` when it is not given."""
    if text is not None:
        low, _, high = text.partition("-")
        try:
            first, last = int(low), int(high or low)
        except ValueError:
            raise SettingsError("--worker-ports takes a range of ports: 8101-8104") from None
    if not 0 < first <= last < 65536:
        raise SettingsError(f"no such range of ports: {first}-{last}")
    return [first, last]


def _check_port_free(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind((host, port))
        except OSError as error:
            raise SettingsError(f"cannot listen on {host}:{port}: "
                                f"{error.strerror or error} (another server there? "
                                f"choose another with --port)") from None


def _require_redis(url: str) -> None:
    import redis as redis_client

    try:
        redis_client.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except (redis_client.RedisError, OSError, ValueError) as error:
        raise SettingsError(f"Redis at {without_password(url)} is unreachable ({error}); "
                            "several workers need it") from None


#: The environment variable naming the file that carries the settings to ``serve
#: --workers`` processes (:func:`settings_for_workers`).
SETTINGS_FILE_ENV = "TWINTABLE_SETTINGS_FILE"


@contextmanager
def settings_for_workers(settings: Settings, log_level: str) -> Iterator[Path]:
    """A file holding ``settings`` for the workers of this ``serve``, readable by this
    user only and removed when the block ends.

    A file rather than a variable: a worker's environment is as old as the worker and
    shows in ``/proc/<pid>/environ`` for its whole life, and the settings hold the
    database URL with its password. The file lives in a directory of its own (mode 700;
    under systemd's ``PrivateTmp=`` in the service's private /tmp) while the server
    runs."""
    folder = Path(tempfile.mkdtemp(prefix="twintable-"))
    path = folder / "settings.json"
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump({"settings": dataclasses.asdict(settings), "log_level": log_level},
                      file)
        yield path
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def settings_from_env() -> tuple[Settings, str]:
    """The settings and log level a ``serve --workers`` parent left for its workers (the
    defaults when there is no such file)."""
    named = os.environ.get(SETTINGS_FILE_ENV)
    if not named:
        return Settings(), "info"
    saved = json.loads(Path(named).read_text(encoding="utf-8"))
    return Settings(**saved["settings"]), str(saved["log_level"])
