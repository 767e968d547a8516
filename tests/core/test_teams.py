"""The ``teams`` option of Timo's Twist and Twins (core/teams.py): alternate seats or a
team per seat, refused with ``teams.invalid`` where it cannot make teams of two or more."""

from __future__ import annotations

import pytest

from twintable.core.errors import OptionError
from twintable.core.options import OptionSchema
from twintable.core.teams import ALTERNATE, members, seat_teams, team_count, teams_option

SCHEMA = OptionSchema([teams_option("Partnerships.")])


def test_no_teams_by_default() -> None:
    assert SCHEMA.resolve({})["teams"] == ()
    assert seat_teams((), 5) is None


@pytest.mark.parametrize("players,expected", [(4, (0, 1, 0, 1)), (6, (0, 1, 0, 1, 0, 1))])
def test_alternate_puts_every_other_seat_together(players: int,
                                                  expected: tuple[int, ...]) -> None:
    teams = seat_teams(SCHEMA.resolve({"teams": ALTERNATE})["teams"], players)
    assert teams == expected
    assert all(teams[seat] != teams[(seat + 1) % players] for seat in range(players))


def test_an_explicit_assignment_numbers_teams_from_one() -> None:
    teams = seat_teams([1, 1, 2, 2, 3, 3], 6)
    assert teams == (0, 0, 1, 1, 2, 2)
    assert team_count(teams) == 3 and members(teams, 2) == (4, 5)
    assert seat_teams([2, 1, 1, 2, 2], 5) == (1, 0, 0, 1, 1)


@pytest.mark.parametrize("value,players,words", [
    (ALTERNATE, 5, "even number"),
    (ALTERNATE, 3, "even number"),
    ([1, 2, 1], 3, "at least 4 players"),
    ([1, 2, 1, 2], 5, "each of the 5 seats"),
    ([1, 1, 1, 2], 4, "team 2 has a single player"),
    ([1, 1, 1, 1], 4, "at least two teams"),
    ([1, 3, 1, 3], 4, "without a gap"),
])
def test_teams_that_do_not_fit_are_refused_with_a_clear_code(value: object, players: int,
                                                             words: str) -> None:
    with pytest.raises(OptionError) as error:
        seat_teams(value, players)  # type: ignore[arg-type]
    assert error.value.code == "teams.invalid"
    assert words in error.value.message
    assert error.value.details["players"] == players


@pytest.mark.parametrize("value", ["pairs", [0, 1], [1, 4], [True, False], 2])
def test_values_outside_the_option_are_refused_before_any_seat_is_counted(value: object
                                                                          ) -> None:
    with pytest.raises(OptionError) as error:
        SCHEMA.resolve({"teams": value})
    assert error.value.code == "option.invalid"


def test_the_option_says_it_takes_the_word_too() -> None:
    option = SCHEMA.options["teams"]
    assert option.to_json()["choices"] == [ALTERNATE]
    assert option.range_text().endswith("or alternate")
