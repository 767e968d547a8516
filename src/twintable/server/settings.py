"""Server settings, with defaults for a person running it on their own machine."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs


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
