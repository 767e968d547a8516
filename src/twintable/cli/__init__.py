"""The `twintable` command: play in the terminal, simulate bots, step through replays."""

from __future__ import annotations

import ipaddress
import json
import os
import random
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import import_module
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table
from typer.core import TyperGroup

from twintable.bots.registry import level_bots, level_of, seat_names
from twintable.cli.backup import archive, backup, restore
from twintable.cli.check import check
from twintable.cli.config import ConfigError, ConfigurableCommand, read_config_file, variables_of
from twintable.cli.replay_file import BadReplayFile, checked_replay
from twintable.core.errors import TwinTableError, in_words
from twintable.core.options import parse_option_pairs
from twintable.core.registry import default_registry
from twintable.core.replay import Replay
from twintable.core.types import events_for
from twintable.envs.extension import EnvGame
from twintable.loadtest.cli import loadtest
from twintable.sim import drive
from twintable.sim.drive import (
    GameLog,
    Precision,
    ResumeError,
    Setup,
    resume,
    stop_on_terminate,
)
from twintable.sim.extension import SimGame
from twintable.sim.figures import plot_report
from twintable.sim.lab import (
    check_metric,
    half_widths,
    metric_of,
    mode_warnings,
    sim_command,
    stopped,
    sweep,
    warn,
    widen,
    with_deck,
    write_exports,
    write_sim_page,
)
from twintable.sim.metrics import MetricError, metric_summary
from twintable.sim.progress import progress_bar
from twintable.sim.report import build_report
from twintable.sim.report_tables import print_report
from twintable.sim.runner import GameResult, make_bots
from twintable.sim.summary import markdown_summary
from twintable.terminal.catalogue import Catalogue
from twintable.terminal.extension import TerminalGame

console = Console()

#: Click's errors as the installed Typer bundles them (its own copy of Click in recent
#: versions, Click itself before): BadParameter, a public name, lives beside them.
_CLICK_ERRORS: Any = import_module(typer.BadParameter.__module__)


class _Commands(TyperGroup):
    """The command group: a mistyped command line (an unknown option, a value that is not
    a number, a missing argument) is told in one line and a pointer to the help, not in
    Rich's framed box, and exits with code 2 like every refusal of this command."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: Any = None, **extra: Any) -> Any:
        with _usage_errors_told():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Any) -> Any:
        with _usage_errors_told():
            return super().invoke(ctx)


@contextmanager
def _usage_errors_told() -> Iterator[None]:
    try:
        yield
    except _CLICK_ERRORS.UsageError as error:
        if isinstance(error, _CLICK_ERRORS.NoArgsIsHelpError):
            raise  # no arguments at all: the help is the answer
        said = error.format_message().strip()
        command = error.ctx.command_path if error.ctx is not None else "twintable"
        console.print(f"[bold red]error:[/] {escape(said[:1].lower() + said[1:])}",
                      soft_wrap=True)
        console.print(f"  [dim]{escape(command)} --help[/] says what it takes",
                      soft_wrap=True)
        raise typer.Exit(2) from None
    except ConfigError as error:
        # Not a mistyped command line: the file is wrong, whatever the command said.
        console.print(f"[bold red]error:[/] {escape(str(error))}", soft_wrap=True)
        raise typer.Exit(1) from None


app = typer.Typer(cls=_Commands, help="Twin Table: card games to play with friends or "
                  "bots, and to simulate and study.", no_args_is_help=True)

#: Every installed game, found through its entry (help texts and game commands below).
GAMES = default_registry()


def _ids(entries: Any = None) -> str:
    """Game ids for a help text: "a, b or c"."""
    ids = [entry.id for entry in (GAMES.entries() if entries is None else entries)]
    return ", ".join(ids[:-1]) + (" or " if len(ids) > 1 else "") + ids[-1] if ids else "none"


TERMINAL_GAMES = [entry for entry in GAMES.entries()
                  if entry.extension(TerminalGame).module is not None]
#: What each game's deck file holds, for ``--deck``'s help.
DECK_FILES = "; ".join(f"{entry.rules.name}: {deck.summary}" for entry in GAMES.entries()
                       if (deck := entry.extension(SimGame).deck_format) is not None)
REALTIME_NAMES = ", ".join(entry.rules.name for entry in GAMES.entries() if entry.rules.realtime)
MODES = "; ".join(
    f"{entry.rules.name}: {', '.join(map(str, mode.choices))}"
    for entry in GAMES.entries()
    if (mode := entry.rules.options_schema.options.get("mode")) is not None)


def _fail(message: str) -> typer.Exit:
    # One line whatever the width, and a message's brackets are text, not markup.
    console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(2)


def _parse_options(pairs: list[str] | None) -> dict[str, Any]:
    try:
        return parse_option_pairs(pairs or [])
    except ValueError as error:
        raise _fail(str(error)) from None


def _lineup(bots: str, players: int) -> list[str]:
    names = [name.strip() for name in bots.split(",") if name.strip()]
    if not names:
        raise _fail("name at least one bot")
    return [names[i % len(names)] for i in range(players)]


def _terminal(game_id: str) -> Any:
    """The terminal front end of a game, as its entry names it (some games are played in
    the browser only)."""
    terminal = GAMES.entry(game_id).extension(TerminalGame).module if game_id in GAMES else None
    if terminal is None:
        raise _fail(f"terminal play is available for {_ids(TERMINAL_GAMES)}, not {game_id!r}")
    return import_module(terminal)


@app.command(cls=ConfigurableCommand)
def serve(
    ctx: typer.Context,
    config: Annotated[Path | None, typer.Option(
        is_eager=True, callback=read_config_file,
        help="A TOML file of settings, one key per flag (tables_per_address = 40): the "
             "command line and the environment go before it (docs/deploy.md).")] = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        envvar="TWINTABLE_DB_URL",
        help="Database URL, e.g. postgresql+asyncpg://user@host/db (default: SQLite in "
             "your data directory). Give one with a password in TWINTABLE_DB_URL or "
             "--config's file, where ps does not show it.")] = None,
    bot_delay_ms: Annotated[int, typer.Option(help="How long bots think before acting.")]
    = 700,
    realtime_bot_pace: Annotated[float, typer.Option(
        help=f"Real-time games ({REALTIME_NAMES}): 1 = bots react at human speed, less = "
             "faster.")]
    = 1.0,
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error.")] = "info",
    ws_compression: Annotated[bool, typer.Option(
        help="Compress WebSocket frames (permessage-deflate): less traffic on slow links, "
             "but compressing every frame costs the server about a fifth of its CPU.")]
    = False,
    workers: Annotated[int, typer.Option(
        help="Worker processes sharing the port (more than 1 needs --redis and "
             "PostgreSQL).")] = 1,
    redis: Annotated[str | None, typer.Option(
        envvar="TWINTABLE_REDIS_URL",
        help="Redis URL (redis://host:6379/0) shared by every worker of one platform, on "
             "this machine or others: table leases, the lobby, forwarded frames.")] = None,
    redis_prefix: Annotated[str, typer.Option(
        help="Prefix of this platform's Redis keys.")] = "twintable:",
    lease_ttl_ms: Annotated[int, typer.Option(
        help="With Redis: how soon a dead worker's tables are taken over (ms).")] = 10_000,
    worker_ports: Annotated[str | None, typer.Option(
        help="With --workers N: the range (8101-8104) where each worker also listens on a "
             "port of its own, where clients are sent to the worker running their table "
             "(default: the N ports after --port; off: none, clients are served through "
             "the table's worker).")] = None,
    public_url: Annotated[str | None, typer.Option(
        help="Where people reach this server (https://play.example.org): invite links, "
             "and with Redis the workers' own ports and paths, where clients are sent, "
             "are on this address, never on the one a request names (default: "
             "http://HOST:PORT; none when HOST is 0.0.0.0).")] = None,
    advertise_url: Annotated[str | None, typer.Option(
        help="With Redis: where clients reach this worker directly (wss://w1.example.org, "
             "or /w1: the path on the public address where a proxy sends to this "
             "worker); clients of its tables are sent there.")] = None,
    trusted_proxy: Annotated[list[str] | None, typer.Option(
        help="A reverse proxy (address or network, repeatable) whose X-Forwarded-For and "
             "X-Forwarded-Proto are believed; without one no forwarded header is.")] = None,
    api_docs: Annotated[bool, typer.Option(
        help="Serve the interactive API pages /docs and /redoc (scripts from a CDN, on "
             "the origin that holds players' tokens; /openapi.json is always served).")]
    = False,
    tables_per_address: Annotated[int, typer.Option(
        help="Unfinished tables one client address may have made at once.")] = 20,
    tables_per_profile: Annotated[int, typer.Option(
        help="Unfinished tables one profile may have made at once, from any address.")]
    = 20,
    sockets_per_address: Annotated[int, typer.Option(
        help="WebSockets one client address may hold open at once.")] = 64,
    messages_per_address: Annotated[float, typer.Option(
        help="Messages per second one client address may send over all its WebSockets "
             "(twice that at once). Raise these three for a load test from one "
             "machine.")] = 60.0,
    forwarded_bytes_per_address: Annotated[int, typer.Option(
        help="With several workers: bytes a second one client address may send through "
             "a worker that does not run its table.")] = 64 * 1024,
    forwarded_bytes_per_worker: Annotated[int, typer.Option(
        help="With several workers: bytes a second a worker may send on to any one other "
             "worker for the clients it serves through it, all addresses together.")
        ] = 4 * 2**20,
    connections_per_address: Annotated[int, typer.Option(
        help="HTTP connections one client address may hold open at once (the trusted "
             "proxies excepted).")] = 128,
    seats_per_address: Annotated[int, typer.Option(
        help="Seats one client address may hold at once at tables waiting to start.")]
    = 12,
    profiles_per_address: Annotated[int, typer.Option(
        help="Profiles one client address may make a minute.")] = 30,
    ipv6_prefix: Annotated[int, typer.Option(
        min=32, max=128,
        help="IPv6 clients count in the per-address limits by their network of this many "
             "bits (one subscriber's; IPv4 clients by their address).")] = 64,
    drain_timeout: Annotated[float, typer.Option(
        help="At SIGTERM, the longest a worker takes to hand its tables to the other "
             "workers, send its clients there and exit (seconds).")] = 10.0,
    metrics_from: Annotated[list[str] | None, typer.Option(
        help="An address or network (repeatable) besides this machine that may read "
             "/metrics: a Prometheus server elsewhere.")] = None,
    public_metrics: Annotated[bool, typer.Option(
        help="Answer /metrics to anyone (by default only to this machine and "
             "--metrics-from, never to a request a proxy forwarded).")] = False,
) -> None:
    """Run the game server (lobby, tables, WebSocket protocol)."""
    import uvicorn

    from twintable.server import logs
    from twintable.server.app import create_app, tune_collector_for_serving
    from twintable.server.public import (
        check_advertise_url,
        check_public_url,
        default_public_url,
    )
    from twintable.server.settings import (
        SETTINGS_FILE_ENV,
        Settings,
        async_db_url,
        default_db_url,
        settings_for_workers,
    )
    from twintable.server.storage.ownership import DatabaseBusy, claim_sqlite
    from twintable.server.supervisor import DrainingServer, Supervisor
    from twintable.server.transport import check_descriptors, server_options

    logs.configure(log_level)
    try:
        public = (check_public_url(public_url) if public_url is not None
                  else default_public_url(host, port))
        advertise_url = (check_advertise_url(advertise_url) if advertise_url is not None
                         else None)
    except ValueError as refused:
        raise _fail(str(refused)) from None
    settings = Settings(db_url=async_db_url(db) if db else default_db_url(),
                        public_url=public, bot_delay_ms=bot_delay_ms,
                        realtime_bot_pace=realtime_bot_pace, redis_url=redis,
                        redis_prefix=redis_prefix, lease_ttl_ms=lease_ttl_ms,
                        worker_host=host, advertise_url=advertise_url,
                        ws_compression=ws_compression, trusted_proxies=trusted_proxy or [],
                        api_docs=api_docs, max_open_tables_per_client=tables_per_address,
                        max_open_tables_per_profile=tables_per_profile,
                        max_sockets_per_client=sockets_per_address,
                        client_messages_per_second=messages_per_address,
                        client_message_burst=max(1, int(2 * messages_per_address)),
                        profiles_per_minute=profiles_per_address, ipv6_prefix=ipv6_prefix,
                        max_seats_per_client=seats_per_address,
                        max_connections_per_client=connections_per_address,
                        forwarded_bytes_per_second=forwarded_bytes_per_address,
                        forwarded_bytes_per_worker=forwarded_bytes_per_worker,
                        drain_timeout_s=drain_timeout, public_metrics=public_metrics,
                        metrics_from=metrics_from or [])
    for entry in metrics_from or []:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise _fail(f"--metrics-from takes addresses or networks (10.0.0.0/8), not "
                        f"{entry!r}") from None
    if workers < 1:
        raise _fail("--workers takes 1 or more")
    if workers > 1:
        if advertise_url is not None:
            raise _fail("--advertise-url names one worker's address: with --workers, each "
                        "worker has a port of its own (--worker-ports)")
        if worker_ports != "off":
            settings.worker_ports = _port_range(worker_ports, port + 1, port + workers)
    if workers > 1 and redis is None:
        raise _fail("several workers need Redis: give --redis redis://127.0.0.1:6379/0")
    if redis is not None and public is None and (workers > 1 or advertise_url):
        console.print("[yellow]warning: listening on every address without --public-url: "
                      "clients are served through their table's worker over Redis, not "
                      "sent to it[/yellow]")
    _check_db_url(settings.db_url)
    own = settings.worker_ports
    for listening in [port, *(range(own[0], own[1] + 1) if own else ())]:
        _check_port_free(host, listening)
    if redis is not None:
        if not settings.db_url.startswith("postgresql"):
            raise _fail("several workers need PostgreSQL: give --db postgresql://user@host/db")
        _require_redis(redis)
    try:
        claim_sqlite(settings.db_url)
    except DatabaseBusy as busy:
        console.print(f"[red]{busy}[/red]")
        raise typer.Exit(1) from None
    own_ports = (f", their own ports {settings.worker_ports[0]}-{settings.worker_ports[1]}"
                 if settings.worker_ports else "")
    console.print(f"Twin Table on http://{host}:{port} (database: "
                  f"{logs.without_password(settings.db_url)}"
                  + (f", {workers} workers{own_ports}, Redis {logs.without_password(redis)})"
                     if redis else ")"), soft_wrap=True)
    if (warning := check_descriptors()) is not None:
        console.print(f"[yellow]warning: {warning}[/yellow]")
    if workers > 1:
        # Each worker process imports the app factory and reads the settings from a file
        # of this user's; serve's own variables, a password among them perhaps, are not
        # passed on to the workers' environment.
        for name in variables_of(ctx.command):
            os.environ.pop(name, None)
        with settings_for_workers(settings, log_level) as settings_file:
            os.environ[SETTINGS_FILE_ENV] = str(settings_file)
            server_config = uvicorn.Config("twintable.server.app:create_app_from_env",
                                           factory=True, workers=workers, host=host,
                                           port=port, log_level=log_level,
                                           log_config=logs.uvicorn_log_config(log_level),
                                           ws_per_message_deflate=ws_compression,
                                           **server_options(settings))
            Supervisor(server_config, [server_config.bind_socket()], drain_timeout).run()
        return
    asgi_app = create_app(settings)
    tune_collector_for_serving()
    server = DrainingServer(uvicorn.Config(asgi_app, host=host, port=port,
                                           log_level=log_level,
                                           log_config=logs.uvicorn_log_config(log_level),
                                           ws_per_message_deflate=ws_compression,
                                           **server_options(settings)), drain_timeout)
    server.run()
    if not server.started:
        raise typer.Exit(3)  # as uvicorn.run: the server could not start


def _check_db_url(url: str) -> None:
    """Fail with one line on a database URL that names no database Twin Table runs on
    (SQLAlchemy's own error is a page of traceback)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from twintable.server.logs import without_password

    try:
        backend = make_url(url).get_backend_name()
    except ArgumentError:
        backend = None
    if backend not in ("sqlite", "postgresql"):
        raise _fail(f"--db takes a SQLite or PostgreSQL URL (sqlite:///PATH, "
                    f"postgresql://user@host/db), not {without_password(url)}")


def _check_port_free(host: str, port: int) -> None:
    """Fail with one line, before anything starts, when the port is taken (uvicorn would
    fail only after the database was opened and migrated)."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind((host, port))
        except OSError as error:
            raise _fail(f"cannot listen on {host}:{port}: {error.strerror or error} "
                        f"(another server there? choose another with --port)") from None


def _port_range(text: str | None, first: int, last: int) -> list[int]:
    """``--worker-ports`` (``8101-8104``), or ``first..last`` when it is not given."""
    if text is not None:
        low, _, high = text.partition("-")
        try:
            first, last = int(low), int(high or low)
        except ValueError:
            raise _fail("--worker-ports takes a range of ports: 8101-8104") from None
    if not 0 < first <= last < 65536:
        raise _fail(f"no such range of ports: {first}-{last}")
    return [first, last]


def _require_redis(url: str) -> None:
    """Fail with one line when the Redis of several workers cannot be reached."""
    import redis as redis_client

    from twintable.server.logs import without_password

    try:
        redis_client.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except (redis_client.RedisError, OSError, ValueError) as error:
        raise _fail(f"Redis at {without_password(url)} is unreachable ({error}); several "
                    "workers need it") from None


@app.command("protocol-schema")
def protocol_schema() -> None:
    """Print the JSON Schema of every protocol message (docs/protocol.schema.json)."""
    from twintable.server.protocol import json_schema

    print(json.dumps(json_schema(), indent=2, sort_keys=True))


@app.command()
def games() -> None:
    """List the games, their player counts, bots and options."""
    for entry in default_registry().entries():
        game = entry.rules
        levels = ", ".join(f"{level} ({bot})" for level, bot in level_bots(entry).items())
        top = list(level_bots(entry))[-1] if level_bots(entry) else "random"
        caption = (f"bot levels (--bots): {levels}; any bot takes a noise: {top}@0.2 plays "
                   "a random move one time in five")
        simulated = entry.extension(SimGame)
        if simulated.deck_format is not None:
            caption += f"\n--deck FILE: {simulated.deck_format.summary}"
        if simulated.metrics:
            caption += f"\n--metric: {', '.join(simulated.metrics)} besides every game's"
        table = Table(title=f"{game.name} ({game.id}), {game.min_players}-{game.max_players} "
                            "players", caption=caption, show_lines=False)
        for column in ("option", "default", "values", "meaning"):
            table.add_column(column)
        for option in game.options_schema.options.values():
            table.add_row(option.name, json.dumps(option.default), option.range_text(),
                          option.description)
        console.print(table)


def shell_line(key: str, **values: object) -> str:
    """The terminal shell's own sentences (who sits where, the seed, the final scores) in
    the player's language, from the shell's catalogue (``terminal.<key>``, the one the
    browser reads; ``level`` is a level id: easy, hard...)."""
    words = Catalogue()
    if "level" in values:
        values["level"] = words.say(f"level.{values['level']}")
    return words.say(f"terminal.{key}", **values)


@app.command()
def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME",
                                           help=f"Game id: {_ids(TERMINAL_GAMES)}.")]
    = TERMINAL_GAMES[0].id if TERMINAL_GAMES else "",
    players: Annotated[int | None, typer.Option(
        help="Players at the table, you included (default: the fewest the game takes).")]
    = None,
    bots: Annotated[str | None, typer.Option(
        help="Bots for the other seats by level (beginner, easy, medium, hard, expert; "
             "see `twintable games` for each game's) or by name, comma-separated; "
             "repeated to fill (default: the game's usual bot).")] = None,
    pace: Annotated[float, typer.Option(
        help="Bots' speed where time counts (races): 1 = a person's, 2 = twice as slow, "
             "0 = at once.", min=0)] = 1.0,
    seed: Annotated[int | None, typer.Option(help="Seed for the shuffle (random if unset).")]
    = None,
    option: Annotated[list[str] | None, typer.Option(help="A table option, key=value.")]
    = None,
    save: Annotated[Path | None, typer.Option(help="Write the game's replay here.")] = None,
) -> None:
    """Play in the terminal against bots. You sit in seat 0 (see `twintable games` for
    each game's bots)."""
    tui = _terminal(game_id)

    registry = default_registry()
    entry = registry.entry(game_id)
    game = entry.rules
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    try:
        options = game.resolve_options(_parse_options(option))
        players = players if players is not None else game.player_range(options)[0]
        game.check_players(players, options)
        bot_names = seat_names(entry, _lineup(bots or entry.default_bot, players - 1))
        seat_bots = make_bots(entry, bot_names)
    except (TwinTableError, ValueError, RuntimeError) as error:
        raise _fail(in_words(error)) from None
    speak = shell_line
    # Bots are shown by their level on the shared scale (Hard), never by a bot's name.
    names = [speak("you", seat=0)]
    names += [speak("bot", seat=seat, level=str(level_of(entry, name)))
              for seat, name in enumerate(bot_names, start=1)]
    state = game.new_state(options, players, seed)
    replay = Replay(game.id, players, seed, dict(options))
    rng = random.Random(seed)
    human = 0
    terminal = tui.Terminal(game, [None, *seat_bots], human, names, rng, console, pace=pace)
    console.print(f"[bold]{escape(speak('header', game=game.name, seed=seed, n=players))}[/] "
                  f"{tui.INTRO}")
    while not game.is_over(state):
        try:
            action = terminal.next_move(state)
        except (EOFError, KeyboardInterrupt):
            console.print("\n" + speak("left"))
            if save:
                replay.save(save)
                console.print(speak("saved_so_far", path=save))
            raise typer.Exit(1) from None
        events = game.apply(state, action)
        replay.actions.append(action)
        line = tui.describe_action(game.view(state, None), action, names)
        if line:
            console.print(f"  {line}")
        for event in events_for(events, human):
            line = tui.describe_event(game.view(state, None), event, names, human)
            if line:
                console.print(f"  [bold]{line}[/]")
    outcome = game.outcome(state)
    assert outcome is not None
    final = zip(names, outcome.scores, strict=True)
    console.print(speak("final", scores=", ".join(f"{name} {score}" for name, score in final)))
    if save:
        replay.save(save)
        console.print(speak("saved", path=save))


@app.command()
def sim(
    game_id: Annotated[str, typer.Argument(metavar="GAME",
                                           help=f"Game id: {_ids()}.")],
    players: Annotated[int | None, typer.Option(
        help="Players per game (default: the fewest the game takes).")] = None,
    games: Annotated[int, typer.Option(
        help="Games to play (with --precision: the most to play).")] = 1000,
    bots: Annotated[str | None, typer.Option(
        "--bots", "--bot",
        help="Bot per seat by level (easy, hard...), by name or your own agent "
             "(module:Class, policy.npz, model.zip), comma-separated; repeated "
             "to fill. Any of them may carry a noise: hard@0.2 plays a random legal move "
             "one time in five. Seats rotate every game (default: the game's usual bot against "
             "random).")] = None,
    seed: Annotated[int, typer.Option(help="Game i uses seed + i.")] = 0,
    option: Annotated[list[str] | None, typer.Option(help="A table option, key=value.")]
    = None,
    mode: Annotated[str | None, typer.Option(
        help=f"Shorthand for --option mode=... ({MODES}).")] = None,
    deck: Annotated[Path | None, typer.Option(
        help="A deck or scoring-table file (JSON or TOML), checked by the game: "
             + DECK_FILES + ".")] = None,
    metric: Annotated[str | None, typer.Option(
        help="A per-game measure to report with its interval: a name (first, dealer, "
             "weakest, strongest, first_edge, length, margin, or the game's own) or an "
             "expression (\"weakest - even\", \"turns / rounds\").")] = None,
    precision: Annotated[float | None, typer.Option(
        help="Play until every interval reported (win rates by bot and turn order, the "
             "metric) is within ± this (0.02: two points), at most --games games.",
        min=0.0001)] = None,
    workers: Annotated[int, typer.Option(
        help="Processes (0: one per CPU core); with --ray local, the CPUs Ray may use.")] = 0,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="ADDRESS",
        help="Run the games as tasks on the Ray cluster at ADDRESS (ray://host:10001, "
             "host:6379, auto), or on a Ray started here for the run: local. Needs the "
             "\\[dist] extra.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Save a figure (PNG) here.")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Save the report here.")]
    = None,
    fixed_seats: Annotated[bool, typer.Option(
        "--fixed-seats", help="Keep each bot in the seat it is named for (no rotation), so "
                              "an option naming seats (a handicap, a team) goes to that "
                              "bot.")] = False,
    jsonl: Annotated[Path | None, typer.Option(
        help="Write one JSON line per game here as games finish (seed, seats, turn order, "
             "winners, scores by round, length): Ctrl-C keeps them.")] = None,
    resume_run: Annotated[bool, typer.Option(
        "--resume", help="Keep the games already in --jsonl (a stopped run) and play only "
                         "the rest: the same report as a run never stopped.")] = False,
    csv_out: Annotated[Path | None, typer.Option(
        "--csv", help="Write one CSV row per game here.")] = None,
    report_out: Annotated[Path | None, typer.Option(
        "--report", help="Write one self-contained HTML page here: tables, figures, and "
                         "the command to reproduce the run.")] = None,
) -> None:
    """Simulate bots against each other and report win rates with 95% intervals, by bot,
    by seat and by turn order (a cooperative game: its success rate)."""
    widen(console)
    registry = default_registry()
    try:
        entry = registry.entry(game_id)
        game = entry.rules
        raw = _parse_options(option)
        if mode is not None:
            raw["mode"] = mode
        chosen = dict(raw)
        raw = with_deck(entry, deck, raw)
        options = game.resolve_options(raw)
        players = players if players is not None else game.player_range(options)[0]
        game.check_players(players, options)
        # Levels (hard) read as the bots they seat: the report names each bot one way.
        lineup = seat_names(entry, _lineup(bots or f"{entry.default_bot},random", players))
        make_bots(entry, lineup)
        if resume_run and jsonl is None:
            raise ValueError("--resume reads the games kept in --jsonl FILE: give it")
        chosen_metric = metric_of(entry, metric)
    except (TwinTableError, ValueError, RuntimeError) as error:
        raise _fail(in_words(error)) from None
    if games < 1:
        raise _fail("play at least one game")
    if ray is not None:
        from twintable.sim.runner import require_ray

        try:
            require_ray()
        except RuntimeError as error:
            raise _fail(in_words(error)) from None
    for out in (json_out, plot, jsonl, csv_out, report_out):
        if out is not None:
            # Refuse now rather than after a long simulation.
            problem = _unwritable(out)
            if problem:
                raise _fail(f"cannot write {out}: {problem}")
    warn(mode_warnings(game, chosen, [options["mode"]] if "mode" in options else []))
    cooperative = game.cooperative(options)
    setup = Setup(options, tuple(lineup), players)
    try:
        kept = resume(jsonl, game.id, [setup], seed, fixed_seats) \
            if resume_run and jsonl is not None else 0
    except ResumeError as error:
        raise _fail(str(error)) from None
    if kept:
        console.print(f"{kept} games read back from {jsonl}")

    def report_of(results: list[GameResult]) -> dict[str, Any]:
        report = build_report(game.id, players, lineup, seed, options, results, fixed_seats,
                              round_name=game.round_name, cooperative=cooperative)
        if chosen_metric is not None:
            report["metric"] = metric_summary(chosen_metric, players, results)
        return report

    wanted = (Precision(precision, games, lambda done: max(
        half_widths(report_of(done[0].results)), default=0.0)) if precision else None)
    log = GameLog(jsonl, game.id, append=resume_run) if jsonl is not None else None
    try:
        with stop_on_terminate(), progress_bar(console) as progress:
            task = progress.add_task(f"{game.name}: {', '.join(lineup)}", total=games,
                                     completed=kept)
            unchecked = [chosen_metric]

            def advance(count: int, total: int) -> None:
                progress.update(task, advance=count, total=total)
                if count and unchecked:
                    check_metric(unchecked.pop(), setup.results)

            drive.play(game.id, [setup], games, seed, workers=workers, ray=ray,
                 fixed_seats=fixed_seats, log=log, advance=advance, precision=wanted)
    except KeyboardInterrupt:
        raise stopped(log, len(setup.results)) from None
    except MetricError as error:
        raise _fail(str(error)) from None
    except ConnectionError as error:
        raise _fail(f"cannot reach the Ray cluster at {ray}: {error}") from None
    results = setup.results
    if log is not None:
        log.close()
        console.print(f"{len(results)} games written to {jsonl}")
    report = report_of(results)
    if precision is not None:
        widest = max(half_widths(report), default=0.0)
        console.print(f"{len(results)} games: the widest interval is ±{widest:.1%}"
                      + ("" if widest <= precision else
                         f", short of ±{precision:.1%}: --games {games} capped the run"))
    print_report(report, console)
    console.print(Markdown(markdown_summary(report)))
    if json_out:
        json_out.write_text(json.dumps(report, indent=2), encoding="utf-8")
        console.print(f"report written to {json_out}")
    if plot:
        plot_report(report, results, plot)
        console.print(f"figure written to {plot}")
    write_exports(game.id, options, results, None, csv_out, console)
    if report_out:
        command = sim_command(game.id, players, len(results), lineup, seed, chosen,
                              fixed_seats)
        if deck is not None:
            command += f" --deck {shlex.quote(str(deck))}"
        if metric is not None:
            command += f" --metric {shlex.quote(metric)}"
        write_sim_page(report_out, report, results, command)
        console.print(f"HTML report written to {report_out}")


def _unwritable(path: Path) -> str | None:
    """Why a report or figure could not be written at ``path`` (None: it can), checked
    without leaving a file behind."""
    if path.is_dir():
        return "it is a directory"
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return f"no directory {folder}"
    if path.exists():
        return None if os.access(path, os.W_OK) else "permission denied"
    return None if os.access(folder, os.W_OK | os.X_OK) else "permission denied"


@app.command()
def replay(
    path: Annotated[Path, typer.Argument(help="A replay file written by play --save.")],
    seat: Annotated[int | None, typer.Option(help="Watch as this seat (default: spectator).")]
    = None,
    step: Annotated[bool | None, typer.Option(
        "--step/--all", help="Wait for Enter between moves (default: when interactive).")]
    = None,
) -> None:
    """Step through a saved game in the terminal."""
    try:
        saved, game = checked_replay(path)
    except BadReplayFile as error:
        raise _fail(str(error)) from None
    tui = _terminal(saved.game)
    if seat is not None and not 0 <= seat < saved.players:
        raise _fail(f"--seat takes 0 to {saved.players - 1} for this game")

    interactive = sys.stdin.isatty() if step is None else step
    names = [f"seat {s}" for s in range(saved.players)]
    for index, (action, events, state) in enumerate(saved.steps(game)):
        public = game.view(state, None)
        if action is not None:
            # Some moves are told by their events alone (a Twinz clue, a timer).
            said = tui.describe_action(public, action, names)
            console.print(f"[bold]{index}.[/] {said or ''}".rstrip())
        for event in events_for(events, seat):
            line = tui.describe_event(public, event, names, seat)
            if line:
                console.print(f"   {line}")
        console.print(tui.render(game.view(state, seat), names))
        if interactive and index < len(saved.actions):
            console.input("[dim]Enter for the next move[/]")
    outcome = game.outcome(state)
    if outcome is not None:
        console.print(f"Final scores: {outcome.scores}, winner(s): {sorted(outcome.winners)}")


#: ``twintable train <id>``: each game's trainer, as its ``"envs"`` extension names it.
train_app = typer.Typer(help="Train agents (needs the \\[rl] extra: pip install "
                             "'twintable\\[rl]').", no_args_is_help=True)
for _entry in GAMES.entries():
    _trainer = _entry.extension(EnvGame).trainer
    if _trainer is not None:
        _module, _, _attr = _trainer.partition(":")
        train_app.command(_entry.id)(getattr(import_module(_module), _attr))

app.command()(loadtest)
app.command()(check)
for _command in (backup, restore, archive):
    app.command()(_command)
app.add_typer(train_app, name="train")
app.command()(sweep)
for _entry in GAMES.entries():
    _commands = _entry.extension(TerminalGame).commands
    if _commands is not None:
        _module, _, _attr = _commands.partition(":")
        app.add_typer(getattr(import_module(_module), _attr), name=_entry.id)

