"""Twin It's levels follow a person's speed: a scripted person taking each pair 1.5 s
after it appears, on the simulator's virtual clock, one against one (issue 39; the full
matrix with intervals is ``bench/levels.py --person``)."""

from __future__ import annotations

from twintable.games.twinit.bots import PerceptionBot, ScriptedPerson
from twintable.games.twinit.plugin import entry
from twintable.sim.runner import play_realtime_game

from .scenario import GAME

GAMES = 40


def person_wins(bot: str, games: int, reaction_ms: float = 1500) -> float:
    wins = 0.0
    for seed in range(games):
        seats = [ScriptedPerson(reaction_ms), PerceptionBot(bot)]
        if seed % 2:
            seats.reverse()
        result = play_realtime_game(GAME, None, seats, seed)
        wins += (seed % 2 in result.winners) / len(result.winners)
    return wins / games


def test_a_person_taking_pairs_in_1_5_s_mostly_beats_the_default_level() -> None:
    default = entry().default_bot
    assert default == "beginner"
    assert person_wins(default, GAMES) >= 0.65


def test_the_levels_above_beat_the_same_person_ever_more() -> None:
    # Easy is an even match, Medium wins most games (the bench: 50% and 25%).
    assert 0.3 <= person_wins("casual", GAMES) <= 0.7
    assert person_wins("sharp", GAMES) <= 0.4
    assert person_wins("expert", GAMES) <= 0.15


def test_a_quick_person_beats_even_the_easier_levels_and_a_slow_one_loses() -> None:
    assert person_wins("casual", GAMES, reaction_ms=800) >= 0.9
    assert person_wins("beginner", GAMES, reaction_ms=2500) <= 0.3


def test_former_names_seat_the_level_that_replaced_them() -> None:
    assert PerceptionBot("relaxed").name == "beginner"
    assert entry().bots[0].aliases == ("relaxed",)
