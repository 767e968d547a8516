"""What the server records of each HTTP request: an id, which every line logged while it
is served carries (``request_id``, through ``logs.current_request``) and its answer
returns (``X-Request-ID``), and its count and time by route template, method and status
(``server/metrics.py``).

A request's ``X-Request-ID`` is kept when the connection it came on is a trusted proxy's
(``serve --trusted-proxy``) and the id is short plain text; any other request gets an id
made here, so a client cannot pass itself off as another request in the logs.
"""

from __future__ import annotations

import ipaddress
import re
import secrets
import time

from starlette.routing import Mount

from twintable.server import logs
from twintable.server.limits import ASGIApp, Message, Receive, Scope, Send
from twintable.server.metrics import Metrics

#: A request id a proxy may hand on: what a proxy's variable ($request_id) or a UUID is.
_GIVEN_ID = re.compile(r"[A-Za-z0-9._:+=-]{1,128}")
#: Where a server of ours records the address its connection came from, before
#: uvicorn replaces the client with a trusted proxy's X-Forwarded-For
#: (``server/transport.py``).
PEER = "twintable.peer"
#: The route of a request no route matched (a 404), so that stray paths do not each
#: make a series.
UNMATCHED = "unmatched"


def route_template(scope: Scope) -> str:
    """The template of the route that served a request (``/api/tables/{table_id}``),
    never its path: a series per table would grow without bound."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if not isinstance(path, str):
        return UNMATCHED
    return f"{path}/{{path}}" if isinstance(route, Mount) else path


class Networks:
    """Addresses and networks (``10.0.0.5``, ``10.0.0.0/8``) to test an address against,
    read as uvicorn reads ``--forwarded-allow-ips``: ``*`` is every address, and an entry
    that is no address is compared as text (a Unix socket's name)."""

    def __init__(self, entries: list[str]):
        self.everyone = "*" in entries
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self.literals: set[str] = set()
        for entry in entries:
            try:
                self.networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                self.literals.add(entry)

    def __contains__(self, host: object) -> bool:
        if host is None:
            return False
        if self.everyone or host in self.literals:
            return True
        address = as_address(host)
        return address is not None and any(address in net for net in self.networks)


def as_address(host: object) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An IP address (an IPv4 one mapped into IPv6 as itself), or None: not one."""
    try:
        address = ipaddress.ip_address(str(host))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def peer_of(scope: Scope) -> str | None:
    """The address a request's connection came from (a proxy's, when it came through
    one), whatever client the forwarded headers named."""
    peer = scope.get(PEER)
    if peer is None:
        client = scope.get("client")
        peer = client[0] if client else None
    return None if peer is None else str(peer)


class RequestFigures:
    """Pure ASGI middleware: each HTTP request's id, count and time (see the module)."""

    def __init__(self, app: ASGIApp, metrics: Metrics, trusted_proxies: list[str]):
        self.app, self.metrics = app, metrics
        self.trusted = Networks(trusted_proxies)

    def _given_id(self, scope: Scope) -> str | None:
        if peer_of(scope) not in self.trusted:
            return None
        for name, value in scope.get("headers") or ():
            if name == b"x-request-id":
                given = value.decode("latin-1")
                return given if _GIVEN_ID.fullmatch(given) else None
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        ident = self._given_id(scope) or secrets.token_hex(8)
        request = logs.Request(ident)
        token = logs.current_request.set(request)
        started = time.perf_counter()
        status = 500  # unless an answer starts: the app failed
        header = (b"x-request-id", ident.encode())

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                message["headers"] = [*(message.get("headers") or ()), header]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            self.metrics.observe_request(route_template(scope), str(scope["method"]),
                                         status, time.perf_counter() - started)
            request.over = True
            logs.current_request.reset(token)

