"""Invariants over play: every card is always in exactly one place, and a set only ever
holds one picture. Bot games (which take, steal, chain and err like people) are replayed
step by step; random play, which rarely takes anything, runs to a single set."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from twintable.core.conformance import random_playout
from twintable.core.replay import Replay
from twintable.games.twinit.deck import DECK
from twintable.games.twinit.plugin import entry
from twintable.sim.runner import make_bots, play_game

from .scenario import GAME

ENTRY = entry()

MODES = st.sampled_from([
    ("competitive", 2, {}), ("competitive", 3, {"edition": "ko", "taboo": [1]}),
    ("team", 4, {}), ("team", 5, {"edition": "ko"}), ("coop", 2, {}),
    ("timeattack", 3, {"rounds": 2}),
])


def check_snapshot(snapshot: dict[str, Any]) -> None:
    places: list[int] = [card for pile in snapshot["piles"] for card in pile]
    places += [card for card in snapshot["centre"] if card >= 0]
    places += [card for side in snapshot["sets"] for group in side for card in group]
    places += [card for row in snapshot["taboo"] for card in row]
    places += snapshot["box"]
    assert sorted(places) == list(range(len(DECK))), "a card is missing or in two places"
    up = snapshot["up"]
    for side in snapshot["sets"]:
        for group in side:
            assert 2 <= len(group) <= 3
            assert len({DECK[card][up[card]] for card in group}) == 1, "a mixed set"


LEVELS = st.sampled_from(["beginner", "casual", "sharp", "expert"])


@settings(max_examples=15, deadline=None)
@given(mode=MODES, seed=st.integers(0, 10_000), levels=st.lists(LEVELS, min_size=6,
                                                                max_size=6))
def test_bot_games_conserve_cards_and_sets_are_twins(mode: tuple[str, int, dict[str, Any]],
                                                     seed: int, levels: list[str]) -> None:
    name, players, extra = mode
    options = {"mode": name, "duration_s": 20, **extra}
    result = play_game(GAME, options, make_bots(ENTRY, levels[:players]), seed, record=True)
    assert result.actions is not None
    replay = Replay(GAME.id, players, seed, GAME.resolve_options(options), result.actions)
    steps = 0
    for _, _, state in replay.steps(GAME):
        check_snapshot(GAME.snapshot(state))
        steps += 1
    assert GAME.is_over(state) and steps == len(result.actions) + 1


@settings(max_examples=6, deadline=None)
@given(mode=MODES, seed=st.integers(0, 10_000))
def test_random_play_conserves_cards(mode: tuple[str, int, dict[str, Any]], seed: int) -> None:
    name, players, extra = mode
    options = {"mode": name, "sets_to_win": 1, "duration_s": 10, "rounds": 1, **extra}
    playout = random_playout(GAME, players, seed, options, keep_snapshots=True)
    for snapshot in playout.snapshots:
        check_snapshot(snapshot)
