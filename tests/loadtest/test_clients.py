"""How the scripted people choose their moves from a view (no server needed)."""

from __future__ import annotations

import random
from typing import Any

from twintable.loadtest.clients import choose_turn_based, choose_twinit, choose_twinz


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


def test_turn_based_games_play_a_legal_move_and_twinz_never_contests() -> None:
    legal = [{"seat": 1, "kind": "play", "payload": {"card": n}} for n in range(5)]
    moves = [choose_turn_based({"legal": legal}, random.Random(seed)) for seed in range(40)]
    assert {move.payload["card"] for move in moves if move is not None} == set(range(5))
    assert choose_turn_based({"legal": []}, random.Random(0)) is None
    twinz = [{"seat": 2, "kind": "contest", "payload": {"member": 0}},
             {"seat": 2, "kind": "guess", "payload": {"word": "maison"}}]
    for seed in range(20):
        move = choose_twinz({"legal": twinz}, random.Random(seed))
        assert move is not None and move.kind == "guess" and move.delay_s > 0
    assert choose_twinz({"legal": twinz[:1]}, random.Random(0)) is None
