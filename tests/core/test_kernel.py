"""The kernel's small parts: actions, events, options, seeded randomness, replays."""

from __future__ import annotations

import json

import pytest

from twintable.core.errors import OptionError, RuleError
from twintable.core.options import Option, OptionSchema
from twintable.core.registry import GameRegistry, default_registry
from twintable.core.replay import Replay
from twintable.core.rng import Rng
from twintable.core.types import Action, Event, events_for
from twintable.games.timo import TimoGame
from twintable.games.timo.plugin import entry as timo_entry


def test_action_identity_ignores_time_and_round_trips_json() -> None:
    action = Action(1, "play", {"card": 3, "colour": "blue"}, t_ms=50)
    assert action.key() == Action(1, "play", {"colour": "blue", "card": 3}).key()
    assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action
    assert action.at(99).t_ms == 99 and action.at(99).key() == action.key()


def test_events_reach_only_their_audience() -> None:
    public, private = Event("drew", {"count": 1}), Event("drew_cards", {}, frozenset({2}))
    assert events_for([public, private], 2) == [public, private]
    assert events_for([public, private], 1) == [public]
    assert events_for([public, private], None) == [public]


def test_option_schema_resolves_and_refuses() -> None:
    schema = OptionSchema([
        Option("target", "int", 10, "points", minimum=1, maximum=20),
        Option("mode", "choice", "a", "mode", choices=("a", "b")),
        Option("fast", "bool", False, "speed"),
        Option("taboo", "int_list", (), "seats", minimum=0, maximum=5),
    ])
    assert schema.resolve({"target": 12, "taboo": [1, 2]}) == {
        "target": 12, "mode": "a", "fast": False, "taboo": (1, 2)}
    for raw, code in [({"nope": 1}, "option.unknown"), ({"target": 0}, "option.invalid"),
                      ({"target": True}, "option.invalid"), ({"mode": "c"}, "option.invalid"),
                      ({"fast": "yes"}, "option.invalid"), ({"taboo": [9]}, "option.invalid"),
                      ({"taboo": "1"}, "option.invalid")]:
        with pytest.raises(OptionError) as error:
            schema.resolve(raw)
        assert error.value.code == code and error.value.to_json()["message"]


def test_rng_is_reproducible_and_independent_per_use() -> None:
    first, second = Rng(42), Rng(42)
    a, b = list(range(20)), list(range(20))
    first.shuffle(a)
    second.shuffle(b)
    assert a == b and first.counter == 1
    c = list(range(20))
    first.shuffle(c)
    assert c != a
    clone = first.clone()
    assert clone.randrange(1000) == first.randrange(1000)


def test_registry_lists_games_and_refuses_unknown_ids() -> None:
    registry = default_registry()
    assert "timo" in registry.ids()
    with pytest.raises(OptionError) as error:
        registry.get("chess")
    assert error.value.code == "game.unknown"
    with pytest.raises(ValueError):
        registry.register(timo_entry())
    assert GameRegistry().ids() == []


def test_replay_refuses_other_formats_and_games() -> None:
    replay = Replay("timo", 2, 1, {}, [])
    data = replay.to_json()
    with pytest.raises(ValueError):
        Replay.from_json({**data, "format": 99})
    with pytest.raises(ValueError):
        next(Replay("twins", 3, 1).steps(TimoGame()))


def test_rule_error_has_code_message_and_details() -> None:
    error = RuleError("turn.not_yours", "not now", {"seat": 1})
    assert error.to_json() == {"code": "turn.not_yours", "message": "not now",
                               "details": {"seat": 1}}
