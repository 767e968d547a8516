"""Which share of the per-address limits a client counts in.

Limits that count "one address" (unfinished tables, WebSockets, messages a second,
profiles made) must count what one person or one machine can hold: an IPv4 address, but
for IPv6 the whole network a subscriber is given, since any /64 holds more addresses
than a server could ever refuse one by one (20 addresses filled a 400-table server in
3.3 s in a probe of issue #38). IPv6 addresses are grouped by ``Settings.ipv6_prefix``
bits (64 by default; 56 or 48 where providers hand those out); an IPv4 address mapped
into IPv6 counts as the IPv4 address.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from starlette.requests import HTTPConnection


@lru_cache(maxsize=65_536)
def address_group(host: str, ipv6_prefix: int = 64) -> str:
    """The name of the share ``host`` counts in (the host itself when it is no IP
    address: a test client, a Unix socket)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        network = ipaddress.IPv6Network((address, ipv6_prefix), strict=False)
        return str(network)
    return str(address)


def client_group(connection: HTTPConnection) -> str:
    """The share of the client of ``connection`` (its address as the proxy headers the
    server believes give it), by the application's settings."""
    host = connection.client.host if connection.client else "unknown"
    return address_group(host, connection.app.state.lobby.settings.ipv6_prefix)
