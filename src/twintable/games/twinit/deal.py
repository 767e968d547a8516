"""Twin It set-up (RULES.md §3): the option schema, the player count each mode takes,
the side each seat plays for (teams), and the deal: taboo rows and piles, or the box for
the modes against the clock. The rules of play are in :mod:`.rules`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from twintable.core.errors import OptionError
from twintable.core.options import Option, OptionSchema
from twintable.games.twinit.deck import DECK
from twintable.games.twinit.state import (
    COMPETITIVE,
    COOP,
    READY,
    TEAM,
    TIME_ATTACK,
    TwinItState,
)

TABOO_CARDS = 3
DEFAULT_DURATION_S = {"fr": 120, "ko": 60}
PLAYER_RANGE = {COMPETITIVE: (2, 6), TEAM: (4, 6), COOP: (1, 6), TIME_ATTACK: (1, 6)}

OPTIONS = OptionSchema([
    Option("mode", "choice", COMPETITIVE,
           "competitive (first to the target), team (two teams, one hand each), coop "
           "(everyone together against the clock) or timeattack (each for themselves, "
           "rounds against the clock).", choices=(COMPETITIVE, TEAM, COOP, TIME_ATTACK)),
    Option("edition", "choice", "fr",
           "fr or ko rulebook: ko forbids using your own pile's top, plays sudden death "
           "after a shared finish and gives time attack 60 s.", choices=("fr", "ko")),
    Option("sets_to_win", "int", 5, "Sets needed to win (competitive and team).",
           minimum=1, maximum=20, modes=(COMPETITIVE, TEAM)),
    Option("hold_ms", "int", 1500, "A hand lifts after this long if no claim completes.",
           minimum=200, maximum=10_000, unit="ms"),
    Option("triple_timeout_ms", "int", 5000,
           "Three identical pictures unclaimed this long all turn over.",
           minimum=500, maximum=60_000, unit="ms"),
    Option("taboo", "int_list", (),
           "Seats playing with three taboo pictures (a handicap for strong players), "
           "numbered from 0 in the protocol (the browser lobby shows them from 1).",
           minimum=0, maximum=5, modes=(COMPETITIVE, TEAM), names_seats=True),
    Option("teams", "int_list", (),
           "Team mode: the team (1 or 2) of each seat in seat order, e.g. 1, 1, 2, 2; "
           "empty: seats alternate. Each team needs at least 2 players; a larger team "
           "plays under the taboo rule.", minimum=1, maximum=2, modes=(TEAM,)),
    Option("duration_s", "int", None,
           "Time-attack round length in seconds (default: 120 fr, 60 ko).",
           minimum=10, maximum=900, modes=(COOP, TIME_ATTACK), unit="s"),
    Option("rounds", "int", 3, "Rounds summed in competitive time attack.",
           minimum=1, maximum=10, modes=(TIME_ATTACK,)),
    Option("finish_window_ms", "int", 300,
           "ko: players finishing within this window of each other play sudden death.",
           minimum=0, maximum=5000, modes=(COMPETITIVE, TEAM), unit="ms"),
])


def team_sides(teams: Sequence[int], players: int) -> list[int]:
    """The side (0 or 1) of each seat from the ``teams`` option (team 1 or 2 per seat,
    RULES §3); seats alternate when it is empty. Any split into two teams of at least two
    players is allowed; anything else raises ``teams.invalid``."""
    if not teams:
        return [seat % 2 for seat in range(players)]
    if len(teams) != players:
        raise OptionError("teams.invalid",
                          f"option 'teams': give a team (1 or 2) for each of the {players} "
                          f"seats, not {len(teams)}",
                          {"option": "teams", "value": list(teams), "players": players})
    sides = [team - 1 for team in teams]
    sizes = [sides.count(side) for side in (0, 1)]
    if min(sizes) < 2:
        raise OptionError("teams.invalid",
                          "option 'teams': each of the two teams needs at least 2 players",
                          {"option": "teams", "value": list(teams), "players": players})
    return sides


def seat_sides(resolved: Mapping[str, Any], players: int) -> list[int]:
    """The side of each seat; raises OptionError for a count or options that do not fit."""
    mode = resolved["mode"]
    low, high = PLAYER_RANGE[mode]
    if not low <= players <= high:
        raise OptionError("players.invalid", f"{mode} Twin It takes {low} to {high} players",
                          {"players": players, "min": low, "max": high, "mode": mode})
    bad = [seat for seat in resolved["taboo"] if seat >= players]
    if bad:
        raise OptionError("option.invalid", "option 'taboo': no such seat",
                          {"option": "taboo", "value": repr(bad)})
    if mode == TEAM:
        return team_sides(resolved["teams"], players)
    if resolved["teams"]:
        raise OptionError("teams.invalid", "option 'teams' is for team mode only",
                          {"option": "teams", "mode": mode})
    return {COMPETITIVE: list(range(players)), TIME_ATTACK: list(range(players)),
            COOP: [0] * players}[mode]


def deal(resolved: dict[str, Any], players: int, seed: int) -> TwinItState:
    """A new table for resolved options: sides, the time-attack default length, which way
    up each card lies, then the box (cooperative and time attack) or taboo rows and piles
    dealt round the seats (competitive and team)."""
    mode = resolved["mode"]
    side_of = seat_sides(resolved, players)
    if resolved["duration_s"] is None:
        resolved["duration_s"] = DEFAULT_DURATION_S[resolved["edition"]]
    state = TwinItState(resolved, players, seed, side_of)
    cards = list(range(len(DECK)))
    state.rng.shuffle(cards)
    chance = state.rng.stream()
    state.up = [chance.randrange(2) for _ in cards]
    if mode in (COOP, TIME_ATTACK):
        state.phase = READY
        state.box = cards
        state.turn = -1
        return state
    taboo_sides = {side_of[seat] for seat in resolved["taboo"]}
    if mode == TEAM:
        sizes = [side_of.count(side) for side in (0, 1)]
        if sizes[0] != sizes[1]:
            taboo_sides.add(sizes.index(max(sizes)))  # RULES §3: the larger team
    for side in sorted(taboo_sides):
        row: list[int] = []
        for card in cards:
            if len(row) == TABOO_CARDS:
                break
            if state.picture(card) not in {state.picture(c) for c in row}:
                row.append(card)
        state.taboo[side] = row
        cards = [card for card in cards if card not in row]
    for index, card in enumerate(cards):
        state.piles[index % players].append(card)
    return state
