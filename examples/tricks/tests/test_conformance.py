"""Twin Tricks passes Twin Table's conformance suite at its fewest, middle and most players,
with the shortest and longest hands."""

from __future__ import annotations

from typing import Any

import pytest
from twintable.core.conformance import check_replay, random_playout
from twintable.core.errors import OptionError

from twintable_tricks.rules import TricksGame

OPTIONS = [{"target": 6}, {"target": 4, "hand_size": 1}, {"target": 12, "hand_size": 10}]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"hand{o.get('hand_size', 5)}")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playouts_pass_every_check(players: int, options: dict[str, Any],
                                          seed: int) -> None:
    game = TricksGame()
    playout = random_playout(game, players, seed, options, probe_every=3,
                             keep_snapshots=True)
    assert playout.illegal_probes > 0
    assert playout.leak_probes > 0
    assert playout.leak_probes_that_changed_hidden_state > 0
    check_replay(game, playout)


def test_options_have_bounded_defaults_that_validate() -> None:
    game = TricksGame()
    assert game.resolve_options({}) == game.resolve_options(game.options_schema.defaults())
    for option in game.options_schema.to_json():
        assert "minimum" in option and "maximum" in option, option["name"]


@pytest.mark.parametrize("players", [1, 5])
def test_player_counts_outside_two_to_four_are_refused(players: int) -> None:
    with pytest.raises(OptionError):
        TricksGame().new_state({}, players, seed=1)
