"""How the load harness's scripted people play Twinz (``games/twinz/load.py``)."""

from __future__ import annotations

import random

from twintable.games.twinz.load import choose as choose_twinz


def test_twinz_guesses_after_a_pause_and_never_contests() -> None:
    twinz = [{"seat": 2, "kind": "contest", "payload": {"member": 0}},
             {"seat": 2, "kind": "guess", "payload": {"word": "maison"}}]
    for seed in range(20):
        move = choose_twinz({"legal": twinz}, random.Random(seed))
        assert move is not None and move.kind == "guess" and move.delay_s > 0
    assert choose_twinz({"legal": twinz[:1]}, random.Random(0)) is None
