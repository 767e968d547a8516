"""How the scripted people choose their moves from a view (no server needed); each game's
own chooser is tested in its package (tests/games/<id>/test_load.py)."""

from __future__ import annotations

import random

from twintable.core.registry import default_registry
from twintable.loadtest.clients import choose_turn_based, game_client, short_options
from twintable.loadtest.extension import LoadGame


def test_a_game_without_a_chooser_plays_any_legal_move_at_once() -> None:
    legal = [{"seat": 1, "kind": "play", "payload": {"card": n}} for n in range(5)]
    moves = [choose_turn_based({"legal": legal}, random.Random(seed)) for seed in range(40)]
    assert {move.payload["card"] for move in moves if move is not None} == set(range(5))
    assert choose_turn_based({"legal": []}, random.Random(0)) is None


def test_every_game_is_played_as_its_entry_declares() -> None:
    for entry in default_registry().entries():
        choose, unversioned = game_client(entry.id)
        assert unversioned == entry.rules.unversioned_kinds
        chooser = entry.extension(LoadGame).chooser
        if chooser is None:
            assert choose is choose_turn_based
        else:
            assert f"{choose.__module__}:{choose.__name__}" == chooser
        assert short_options(entry.id) == dict(entry.short_options)
        entry.rules.resolve_options(short_options(entry.id))  # the options are the game's
