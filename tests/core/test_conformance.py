"""The conformance suite, run over every registered game and player count."""

from __future__ import annotations

from typing import Any

import pytest

from twintable.core.conformance import check_replay, random_playout
from twintable.core.game import Game
from twintable.games import default_registry

GAMES = list(default_registry())
# Short games keep the suite fast; each game may name options that shorten it.
SHORT_OPTIONS: dict[str, dict[str, Any]] = {"timo": {"target": 80}, "twins": {"max_hands": 3}}


def _cases() -> list[Any]:
    cases = []
    for game in GAMES:
        for players in sorted({game.min_players, (game.min_players + game.max_players) // 2,
                               game.max_players}):
            cases.append(pytest.param(game, players, id=f"{game.id}-{players}p"))
    return cases


@pytest.mark.parametrize(("game", "players"), _cases())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playouts_pass_every_check(game: Game[Any], players: int, seed: int) -> None:
    playout = random_playout(game, players, seed, SHORT_OPTIONS.get(game.id), probe_every=3,
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
