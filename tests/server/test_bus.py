"""The cluster bus's typed messages survive their wire form, frames pass as they are, and
a line no worker sends is refused, not guessed at."""

from __future__ import annotations

import pytest

from twintable.server.bus import (
    BusMessage,
    CallAnswer,
    CallError,
    CreateCall,
    JoinCall,
    LeaveCall,
    LobbyAnswer,
    LobbyCall,
    RematchCall,
    SeatBotCall,
    SocketClosed,
    SocketFrame,
    SocketOpened,
    StartCall,
    decode,
    encode,
)
from twintable.server.protocol import CreateTable

MESSAGES: list[BusMessage] = [
    SocketOpened("c0ffee", "t1", "w1", "10.0.0.7"),
    SocketFrame("c0ffee", '{"type":"hello","token":"a:b:c"}'),
    SocketFrame("c0ffee", ""),
    SocketClosed("c0ffee", 1012),
    LobbyCall("ca11", "w2", JoinCall(table="t1", display_name="Ada", seat=2,
                                     key_hash="k" * 64, token_hash="t" * 64)),
    LobbyCall("ca11", "w2", LeaveCall(table="t1", token_hash="tok")),
    LobbyCall("ca11", "w2", StartCall(table="t1", token_hash=None)),
    LobbyCall("ca11", "w2", SeatBotCall(table="t1", token_hash="tok", seat=1,
                                        bot="heuristic")),
    LobbyCall("ca11", "w2", SeatBotCall(table="t1", token_hash="tok", seat=1, bot=None)),
    LobbyCall("ca11", "w2", RematchCall(table="t1", token_hash="tok", new_token_hash="n",
                                        client="10.0.0.8")),
    LobbyCall("ca11", "w2", CreateCall(request=CreateTable(
        game="timo", players=2, display_name="Bo", options={"target": 1}),
        client="10.0.0.8", reservation="r1", token_hash="t" * 64, invite_hash="i" * 64)),
    LobbyAnswer("ca11", CallAnswer(ok={"seat": 1})),
    LobbyAnswer("ca11", CallAnswer(error=CallError(status=409, code="table.full",
                                                   message="no free seat"))),
]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_every_message_survives_its_wire_form(message: BusMessage) -> None:
    assert decode(encode(message)) == message


def test_a_frame_travels_as_the_client_sent_it() -> None:
    text = '{"type":"action","kind":"play"}'
    assert encode(SocketFrame("id", text)) == f"f:id:{text}"


@pytest.mark.parametrize("line", ["x:id:body", 'r:id:{"from":"w","call":{"op":"nope"}}'])
def test_a_line_no_worker_sends_is_refused(line: str) -> None:
    with pytest.raises(ValueError):
        decode(line)
