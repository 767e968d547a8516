"""The conformance checks in core, on a game small enough to reason about
(``tests/kit/countdown.py``): which check a failure names, and what the game's declared
type changes. Every installed game runs them all through the kit (``tests/kit``)."""

from __future__ import annotations

import random

import pytest

from tests.kit.countdown import CarelessRefusal, Countdown, Miscounted
from twintable.core.conformance import ConformanceError, check_seed, random_playout
from twintable.core.rng import Rng


def test_a_game_with_nothing_hidden_and_no_chance_plays_through_every_probe() -> None:
    playout = random_playout(Countdown(), 3, seed=4, probe_every=1)
    assert playout.illegal_probes > 0 and playout.leak_probes > 0
    # Nothing to re-deal: the default determinize of perfect information changes nothing.
    assert playout.leak_probes_that_changed_hidden_state == 0
    check_seed(Countdown(), playout)


@pytest.mark.parametrize(("game", "check"), [(CarelessRefusal(), "refusals"),
                                             (Miscounted(), "conservation")])
def test_a_failure_names_its_check(game: Countdown, check: str) -> None:
    with pytest.raises(ConformanceError) as failed:
        random_playout(game, 2, seed=1, probe_every=1)
    assert failed.value.check == check and str(failed.value).startswith(f"{check}: ")


def test_the_default_redeal_of_a_perfect_information_game_replaces_its_rng() -> None:
    """A state that keeps its chance as ``rng`` gets a fresh one: a search on the copy
    must not know the draws to come."""
    game = Countdown()
    state = game.new_state({}, 2, seed=1)
    state.rng = Rng(7)
    copy = game.determinize(state, 0, random.Random(3))
    assert copy.rng.to_json() != state.rng.to_json()
    assert game.snapshot(copy) == game.snapshot(state)
