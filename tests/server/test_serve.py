"""Process-level settings of ``twintable serve``: WebSocket compression is off unless
asked for (compressing every frame cost the server a fifth of its CPU under load)."""

from __future__ import annotations

import pytest
from websockets.sync.client import connect

from tests.server.client import free_port, running_server


@pytest.mark.parametrize(("extra_args", "negotiated"), [
    ((), []),
    (("--ws-compression",), ["permessage-deflate"]),
])
def test_websocket_compression_is_opt_in(sqlite_url: str, extra_args: tuple[str, ...],
                                         negotiated: list[str]) -> None:
    port = free_port()
    # The client offers permessage-deflate; the server decides.
    with (running_server(sqlite_url, port, extra_args=extra_args),
          connect(f"ws://127.0.0.1:{port}/ws/tables/none", compression="deflate") as ws):
        names = [extension.name for extension in ws.protocol.extensions]
    assert names == negotiated
