"""The payload schemas the server checks moves against accept every legal move of every
game, unchanged, and refuse what the rules never produce."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twintable.core.errors import RuleError
from twintable.core.game import Game
from twintable.core.registry import default_registry
from twintable.core.types import plain
from twintable.server.moves import _quick_payload, checked_payload, schema_payload

GAMES = list(default_registry())
OPTIONS = {"timo": {"target": 60}, "twins": {"max_hands": 2}, "twinit": {"sets_to_win": 2},
           "twinz": {}}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_legal_move_passes_its_schema_unchanged(game: Game[Any]) -> None:
    rng = random.Random(7)
    players = max(game.min_players, 4 if game.id != "twins" else 3)
    state = game.new_state(OPTIONS.get(game.id, {}), players, seed=11)
    seen: set[str] = set()
    for step in range(400):
        if game.is_over(state):
            break
        moves = [move for seat in sorted(game.to_act(state))
                 for move in game.legal_actions(state, seat)]
        for move in moves:
            payload = plain(move.payload)
            assert checked_payload(game, move.kind, payload) == payload, move
            seen.add(move.kind)
        due = game.deadline(state)
        tick = game.tick_when_due(state, due) if due is not None else None
        if not moves and tick is None:
            break
        move = tick if tick is not None and (not moves or rng.random() < 0.2) \
            else rng.choice(moves)
        with contextlib.suppress(RuleError):  # a random move may come too soon (Twin It)
            game.apply(state, move.at(max(move.t_ms, step)))
    assert seen, "no legal move was checked"
    for kind in seen:
        assert kind in game.payloads


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_the_clock_tick_and_unknown_kinds_are_not_client_moves(game: Game[Any]) -> None:
    for kind in ("tick", "", "__class__", "x" * 40):
        with pytest.raises(RuleError) as refused:
            checked_payload(game, kind, {})
        assert refused.value.code == "action.unknown"


JSON_SCALARS = (st.none() | st.booleans() | st.integers(-20_000, 20_000)
                | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=80))
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=20)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=4),
                           max_leaves=30)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_the_quick_check_agrees_with_the_schema(game: Game[Any], data: st.DataObject) -> None:
    """What passes the quick check is exactly what the schema makes of it, in the same
    key order; whatever it does not pass goes to the schema."""
    kind = data.draw(st.sampled_from(sorted(game.payloads)))
    fields = game.payloads[kind]
    keys = st.sampled_from([*fields, "extra"]) if fields else st.just("extra")
    payload = data.draw(st.dictionaries(keys, JSON_VALUES | st.lists(
        st.integers(-5, 120), max_size=20), max_size=len(fields) + 1))
    quick = _quick_payload(fields, payload)
    if quick is None:
        return
    reference = schema_payload(game, kind, payload)
    assert quick == reference and list(quick) == list(reference)
    assert checked_payload(game, kind, payload) == reference
