"""``twintable serve``: run the game server, and ``protocol-schema``: print its protocol.

The rules a deployment follows (databases, workers, ports, Redis) are the settings'
(``server/settings.py``): this command reads its options and starts the processes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from twintable.cli.config import read_config_file, variables_of
from twintable.cli.shell import GAMES, console, fail
from twintable.server.settings import SettingsError, deployment

REALTIME_NAMES = ", ".join(entry.rules.name for entry in GAMES.entries() if entry.rules.realtime)


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
    from twintable.server.settings import SETTINGS_FILE_ENV, settings_for_workers
    from twintable.server.storage.ownership import DatabaseBusy, claim_sqlite
    from twintable.server.supervisor import DrainingServer, Supervisor
    from twintable.server.transport import check_descriptors, server_options

    logs.configure(log_level)
    given = {name: value for name, value in ctx.params.items()
             if name not in ("config", "log_level")}
    try:
        deployed = deployment(**given)
        deployed.check_reachable()
    except SettingsError as refused:
        raise fail(str(refused)) from None
    settings = deployed.settings
    for said in deployed.warnings:
        console.print(f"[yellow]warning: {escape(said)}[/yellow]")
    try:
        claim_sqlite(settings.db_url)
    except DatabaseBusy as busy:
        console.print(f"[red]{escape(str(busy))}[/red]")
        raise typer.Exit(1) from None
    console.print(escape(deployed.banner()), soft_wrap=True)
    if (warning := check_descriptors()) is not None:
        console.print(f"[yellow]warning: {escape(warning)}[/yellow]")
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


def protocol_schema() -> None:
    """Print the JSON Schema of every protocol message (docs/protocol.schema.json)."""
    from twintable.server.protocol import json_schema

    print(json.dumps(json_schema(), indent=2, sort_keys=True))
