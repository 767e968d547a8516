"""Bot noise (bots/noise.py): ``level@noise`` seats any bot with a chance of a random
legal move, resolved by the registry for every shell, deterministic given the seed."""

from __future__ import annotations

import random

import pytest

from twintable.bots.noise import NoisyBot, NoisyTimedBot, split_noise
from twintable.bots.registry import level_of, make_bot, resolve_bot, seat_names
from twintable.core.registry import default_registry
from twintable.sim.extension import simulation_engine
from twintable.sim.runner import make_bots, play_game, seat_bots

REGISTRY = default_registry()
TIMO = REGISTRY.entry("timo")


def test_a_noise_suffix_is_read_after_the_last_mark_whatever_the_level_is_called() -> None:
    assert split_noise("hard@0.2") == ("hard", 0.2)
    assert split_noise("some@odd@name@1") == ("some@odd@name", 1.0)
    assert split_noise("heuristic") == ("heuristic", None)
    for bad in ("hard@", "hard@x", "hard@1.5", "hard@-0.1", "@0.2", "hard@nan"):
        with pytest.raises(ValueError, match="number from 0 to 1"):
            split_noise(bad)


def test_the_registry_resolves_a_level_or_a_name_with_its_noise() -> None:
    assert resolve_bot(TIMO, "medium@0.25") == "heuristic@0.25"
    assert resolve_bot(TIMO, "heuristic@0.5") == "heuristic@0.5"
    assert resolve_bot(TIMO, "nobody@0.5") is None
    assert level_of(TIMO, "hard@0.2") == level_of(TIMO, "hard")
    assert seat_names(TIMO, ["medium@0.1", "random"]) == ["heuristic@0.1", "random"]
    with pytest.raises(ValueError, match=r"unknown bot nobody@0\.5"):
        seat_names(TIMO, ["nobody@0.5"])
    bot = make_bot(TIMO, "medium@0.3")
    assert isinstance(bot, NoisyBot) and bot.name == "heuristic@0.3" and bot.noise == 0.3
    assert make_bot(TIMO, "heuristic@0").name == "heuristic"  # no noise: the bot itself


def test_noise_one_plays_only_random_moves_and_noise_zero_none() -> None:
    entry = REGISTRY.entry("twins")
    game = entry.rules

    def moves(names: list[str]) -> list[object]:
        result = play_game(game, {"max_hands": 1}, make_bots(entry, names), 3, record=True)
        assert result.actions is not None
        return result.actions

    heuristic = ["heuristic"] * 4
    assert moves(["heuristic@0"] * 4) == moves(heuristic)
    # Noise 1 draws one number, then the random bot's own choice, every decision.
    assert moves(["heuristic@1"] * 4) != moves(heuristic)


def test_a_noisy_game_replays_from_its_seed_and_the_report_names_the_noise() -> None:
    game = simulation_engine(TIMO)
    lineup = seat_names(TIMO, ["medium@0.3", "random"])
    first = [play_game(game, {"target": 50}, make_bots(TIMO, seat_bots(lineup, i)), 10 + i)
             for i in range(3)]
    again = [play_game(game, {"target": 50}, make_bots(TIMO, seat_bots(lineup, i)), 10 + i)
             for i in range(3)]
    assert first == again
    assert {name for result in first for name in result.bots} == {"heuristic@0.3", "random"}


def test_a_timed_bot_keeps_its_timing_and_sometimes_changes_its_move() -> None:
    class Planner:
        name = "planner"

        def act(self, view: object, rng: random.Random) -> str:
            return "own"

        def plan(self, view: object, rng: random.Random) -> tuple[int, str]:
            return 500, "own"

    class View:
        legal = ("other",)

    bot = NoisyTimedBot(Planner(), 0.5, "planner@0.5")
    rng = random.Random(1)
    plans = [bot.plan(View(), rng) for _ in range(200)]  # type: ignore[arg-type]
    assert {when for when, _ in plans} == {500}
    share = sum(move == "other" for _, move in plans) / len(plans)
    assert 0.35 < share < 0.65


def test_a_users_agent_takes_a_noise_and_a_path_with_an_at_sign_stays_a_path() -> None:
    assert resolve_bot(TIMO, "mypackage.agents:Agent@0.1") == "mypackage.agents:Agent@0.1"
    assert resolve_bot(TIMO, "/home/me@lab/policy.npz") == "/home/me@lab/policy.npz"
    assert resolve_bot(TIMO, "medium@0") == "heuristic"  # no noise: the bot itself
