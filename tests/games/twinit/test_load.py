"""How the load harness's scripted people play Twin It (``games/twinit/load.py``)."""

from __future__ import annotations

import random
from typing import Any

from twintable.games.twinit.load import choose as choose_twinit


def touch(card: str, picture: int) -> dict[str, Any]:
    return {"seat": 0, "kind": "touch", "payload": {"card": card, "picture": picture}}


def twinit_view(legal: list[dict[str, Any]], hands: list[dict[str, Any]] | None = None,
                mode: str = "competitive") -> dict[str, Any]:
    return {"viewer": 0, "mode": mode, "sides": [0, 1, 2], "centre": [5, 7, 9],
            "piles": [{"cards": 3, "top": 11}, {"cards": 4, "top": 5}, {"cards": 2, "top": 9}],
            "sets": [[], [], []], "taboo": [[], [], []], "hands": hands or [], "legal": legal}


def test_twinit_touches_one_card_of_a_matching_pair_after_a_pause() -> None:
    legal = [{"seat": 0, "kind": "flip", "payload": {}}, touch("c0", 5), touch("c1", 7),
             touch("p1", 5), touch("p0", 11)]
    for seed in range(20):
        move = choose_twinit(twinit_view(legal), random.Random(seed))
        assert move is not None and move.kind == "touch"
        assert move.payload["picture"] == 5 and 0.2 < move.delay_s < 1


def test_twinit_pairs_its_hand_and_otherwise_flips_or_waits() -> None:
    mine = [{"seat": 0, "card": "c0", "lift_ms": 1500}]
    # The hand on c0 (picture 5) is finished on p1, the other 5 in sight.
    move = choose_twinit(twinit_view([touch("c1", 7), touch("p1", 5)], mine), random.Random(1))
    assert move is not None and move.payload == {"card": "p1", "picture": 5}
    # Nothing to pair the hand with: wait for it to lift rather than touch a wrong card.
    assert choose_twinit(twinit_view([touch("c1", 7)], mine), random.Random(1)) is None
    # Another player's hand is theirs to finish in competitive play.
    theirs = [{"seat": 1, "card": "c0", "lift_ms": 1500}]
    flip = {"seat": 0, "kind": "flip", "payload": {}}
    move = choose_twinit(twinit_view([flip, touch("p1", 5), touch("c1", 7)], theirs),
                         random.Random(1))
    assert move is not None and move.kind == "flip"
    # ...but in the cooperative mode any two hands make a pair.
    move = choose_twinit(twinit_view([touch("p1", 5), touch("c1", 7)], theirs, mode="coop"),
                         random.Random(1))
    assert move is not None and move.payload == {"card": "p1", "picture": 5}
