"""Partnerships for games that play every seat for itself by default (Timo's Twist,
Twins): the ``teams`` table option, read into the team of each seat, and the team
standings a game's outcome reports.

The option takes ``"alternate"`` (two teams, every other seat, so partners never sit
side by side) or a team number per seat in seat order (``[1, 2, 1, 2]``,
``[1, 1, 2, 2, 3, 3]``). Whatever it says, there are at least two teams and every team
has at least two players; anything else is refused with ``teams.invalid`` before a
table exists. Twin It's team mode has its own rule (two teams only) in its ``deal``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from twintable.core.errors import OptionError
from twintable.core.options import Option

ALTERNATE = "alternate"
#: Most teams a table of six can hold (three pairs).
MAX_TEAMS = 3


def teams_option(description: str) -> Option:
    """The ``teams`` option as Timo's Twist and Twins declare it (default: none, every
    player for themselves)."""
    return Option("teams", "int_list", (), description, minimum=1, maximum=MAX_TEAMS,
                  choices=(ALTERNATE,), max_items=6)


def _refuse(why: str, value: Any, players: int) -> OptionError:
    shown = value if isinstance(value, str) else list(value)
    return OptionError("teams.invalid", f"option 'teams': {why}",
                       {"option": "teams", "value": shown, "players": players})


def seat_teams(value: str | Sequence[int], players: int) -> tuple[int, ...] | None:
    """The team (0, 1, ...) of each seat from a checked ``teams`` value, or None when
    every player plays for themselves (the empty default). Raises ``teams.invalid`` for
    a value that does not fit ``players`` seats."""
    if isinstance(value, str):
        if value != ALTERNATE:
            raise _refuse(f"unknown value {value!r}", value, players)
        if players < 4 or players % 2:
            raise _refuse(f"'alternate' needs an even number of players, 4 or more, not "
                          f"{players} (give each seat's team instead)", value, players)
        return tuple(seat % 2 for seat in range(players))
    if not value:
        return None
    if players < 4:
        raise _refuse(f"teams need at least 4 players (two teams of two), not {players}",
                      value, players)
    if len(value) != players:
        raise _refuse(f"give a team for each of the {players} seats, not {len(value)}",
                      value, players)
    numbers = sorted(set(value))
    if numbers != list(range(1, len(numbers) + 1)):
        raise _refuse("number the teams 1, 2, ... without a gap", value, players)
    if len(numbers) < 2:
        raise _refuse("at least two teams are needed", value, players)
    sizes = [list(value).count(number) for number in numbers]
    if min(sizes) < 2:
        lonely = numbers[sizes.index(min(sizes))]
        raise _refuse(f"team {lonely} has a single player; every team needs at least 2",
                      value, players)
    return tuple(number - 1 for number in value)


def members(teams: Sequence[int], team: int) -> tuple[int, ...]:
    """The seats of ``team``, in seat order."""
    return tuple(seat for seat, side in enumerate(teams) if side == team)


def team_count(teams: Sequence[int]) -> int:
    return max(teams) + 1
