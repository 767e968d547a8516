"""The conformance suite, run over every registered game and player count."""

from __future__ import annotations

from typing import Any

import pytest

from twintable.core.conformance import check_replay, random_playout
from twintable.core.errors import OptionError
from twintable.core.game import Game
from twintable.games import default_registry

GAMES = list(default_registry())
# Short games keep the suite fast; each game may name options that shorten it.
SHORT_OPTIONS: dict[str, dict[str, Any]] = {
    "timo": {"target": 80}, "twins": {"max_hands": 3},
    # Random hands rarely find twins, so a random Twin It game stops at its first set.
    "twinit": {"sets_to_win": 1, "duration_s": 10, "rounds": 2},
}
# Games with modes are checked in each of them.
MODES: dict[str, list[dict[str, Any]]] = {
    "twinit": [{"mode": "competitive"}, {"mode": "team", "edition": "ko"},
               {"mode": "coop"}, {"mode": "timeattack"}],
}


def _cases() -> list[Any]:
    cases = []
    for game in GAMES:
        for mode in MODES.get(game.id, [{}]):
            options = SHORT_OPTIONS.get(game.id, {}) | mode
            low, high = game.player_range(options)
            label = f"{game.id}-{mode['mode']}" if mode else game.id
            for players in sorted({low, (low + high) // 2, high}):
                cases.append(pytest.param(game, players, options, id=f"{label}-{players}p"))
    return cases


@pytest.mark.parametrize(("game", "players", "options"), _cases())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playouts_pass_every_check(game: Game[Any], players: int,
                                          options: dict[str, Any], seed: int) -> None:
    playout = random_playout(game, players, seed, options, probe_every=3,
                             keep_snapshots=True)
    assert playout.illegal_probes > 0
    assert playout.leak_probes > 0
    # The leak check means something only if re-dealing really changed hidden state.
    assert playout.leak_probes_that_changed_hidden_state > 0
    check_replay(game, playout)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_options_schema_has_defaults_that_validate(game: Game[Any]) -> None:
    defaults = game.options_schema.defaults()
    assert game.resolve_options({}) == game.resolve_options(defaults)
    assert game.options_schema.to_json()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_numeric_option_is_bounded(game: Game[Any]) -> None:
    """Options travel in every lobby list and frame: no number or list may be unbounded
    (a 2,000,000-seat taboo list once made a 4 MB table description)."""
    for option in game.options_schema.to_json():
        if option["kind"] in ("int", "int_list"):
            assert "minimum" in option and "maximum" in option, option["name"]
        if option["kind"] == "int_list":
            with pytest.raises(OptionError):
                game.resolve_options({option["name"]: [option["minimum"]] * 2_000_000})
