"""Twin It perception bots: views only, deterministic games, and levels that differ."""

from __future__ import annotations

import random

from twintable.games.twinit.bots import LEVELS, PerceptionBot
from twintable.games.twinit.plugin import entry
from twintable.games.twinit.views import TwinItView
from twintable.sim.runner import make_bots, play_game

from .scenario import GAME, build

ENTRY = entry()


def test_a_bot_reaches_for_twins_after_its_reaction_time_then_its_second_hand() -> None:
    state = build(2, centre=[0, 10, 0], piles={0: [20], 1: [30]}, turn=1)
    bot = PerceptionBot("expert")
    view = GAME.view(state, 0)
    assert isinstance(view, TwinItView)
    planned = bot.plan(view, random.Random(1))
    assert planned is not None
    when, action = planned
    assert when > 0 and action.kind == "touch" and action.payload["picture"] == 0
    assert bot.act(view, random.Random(1)) is None  # not yet: it has not seen it yet
    GAME.apply(state, action.at(when))
    second = bot.plan(GAME.view(state, 0), random.Random(2))
    assert second is not None and second[1].payload["picture"] == 0
    assert second[1].payload["card"] != action.payload["card"]
    events = GAME.apply(state, second[1].at(second[0]))
    assert events[-1].kind == "taken"


def test_a_bot_flips_on_its_turn_when_it_sees_nothing() -> None:
    state = build(2, centre=[0, 10], piles={0: [20], 1: [30]}, turn=0)
    planned = PerceptionBot("sharp").plan(GAME.view(state, 0), random.Random(0))
    assert planned is not None and planned[1].kind == "flip"
    assert PerceptionBot("sharp").plan(GAME.view(state, 1), random.Random(0)) is None


def test_a_bot_never_reaches_for_its_taboo_pictures() -> None:
    state = build(2, options={"taboo": [0]}, centre=[0, 0], piles={0: [20], 1: [30]},
                  taboo={0: [0, 40, 50]}, turn=1)
    assert PerceptionBot("expert").plan(GAME.view(state, 0), random.Random(0)) is None
    assert PerceptionBot("expert").plan(GAME.view(state, 1), random.Random(0)) is not None


def test_the_same_seed_plays_the_same_game() -> None:
    first = play_game(GAME, None, make_bots(ENTRY, ["sharp", "casual", "expert"]), 11,
                      record=True)
    second = play_game(GAME, None, make_bots(ENTRY, ["sharp", "casual", "expert"]), 11,
                       record=True)
    assert first.actions == second.actions and first.scores == second.scores


def test_faster_levels_win_more_and_err_less() -> None:
    wins = {name: 0.0 for name in LEVELS}
    errors = {name: 0.0 for name in LEVELS}
    lineup = list(LEVELS)
    for seed in range(40):
        shift = seed % 4
        seated = lineup[shift:] + lineup[:shift]
        result = play_game(GAME, None, make_bots(ENTRY, seated), seed)
        for seat in result.winners:
            wins[seated[seat]] += 1 / len(result.winners)
        for seat, name in enumerate(seated):
            errors[name] += result.stats[f"seat{seat}_errors"]
    assert wins["expert"] > wins["sharp"] > wins["beginner"]
    assert errors["beginner"] > errors["expert"]


def test_every_mode_plays_to_the_end_with_bots() -> None:
    for mode, players in (("team", 6), ("coop", 1), ("timeattack", 2)):
        options = {"mode": mode, "duration_s": 30, "rounds": 2}
        result = play_game(GAME, options, make_bots(ENTRY, ["expert"] * players), 3)
        assert result.winners
        assert result.stats["takes"] > 0


def test_an_untimed_random_bot_still_plays_on_the_virtual_clock() -> None:
    result = play_game(GAME, None, make_bots(ENTRY, ["expert", "random"]), 4)
    assert result.winners == {0}
