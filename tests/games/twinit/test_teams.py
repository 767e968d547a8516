"""Twin It team mode with the ``teams`` option (RULES.md §3): any split into two teams of
at least two players, the larger team under the taboo rule, refused splits with a code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from twintable.core.errors import OptionError
from twintable.games.twinit.plugin import entry
from twintable.sim.runner import make_bots, play_game

from .scenario import GAME, build, run, sides_sets

ENTRY = entry()

A, B, C, D, E, F, G = 0, 10, 20, 30, 40, 50, 60  # pictures from different families

TEAM = {"mode": "team"}


@pytest.mark.parametrize(("players", "teams", "sides", "taboo_side"), [
    (4, (), [0, 1, 0, 1], None),                      # the default: seats alternate
    (5, (), [0, 1, 0, 1, 0], 0),
    (4, (1, 1, 2, 2), [0, 0, 1, 1], None),
    (6, (1, 1, 1, 1, 2, 2), [0, 0, 0, 0, 1, 1], 0),    # 4 against 2
    (6, (2, 1, 2, 2, 1, 2), [1, 0, 1, 1, 0, 1], 1),    # the larger team may be team 2
    (6, (1, 2, 1, 2, 1, 2), [0, 1, 0, 1, 0, 1], None),
    (5, (2, 2, 1, 1, 1), [1, 1, 0, 0, 0], 0),
])
def test_a_split_sets_each_seat_side_and_the_larger_team_draws_taboo_cards(
        players: int, teams: tuple[int, ...], sides: list[int], taboo_side: int | None) -> None:
    options = {**TEAM, "teams": list(teams)}
    GAME.check_players(players, options)
    state = GAME.new_state(options, players, seed=7)
    assert state.side_of == sides
    assert [len(row) for row in state.taboo] == [
        3 if side == taboo_side else 0 for side in (0, 1)]
    dealt = sum(map(len, state.piles)) + sum(map(len, state.taboo))
    assert dealt == 135


@pytest.mark.parametrize(("options", "players", "code"), [
    ({**TEAM, "teams": [1, 1, 1, 2]}, 4, "teams.invalid"),        # a team of one
    ({**TEAM, "teams": [1, 1, 1, 1, 1, 2]}, 6, "teams.invalid"),
    ({**TEAM, "teams": [1, 1, 1, 1]}, 4, "teams.invalid"),        # one team only
    ({**TEAM, "teams": [1, 2, 1, 2]}, 5, "teams.invalid"),        # a seat without a team
    ({**TEAM, "teams": [1, 2, 1, 2, 1, 2, 1]}, 6, "teams.invalid"),
    ({**TEAM, "teams": [0, 1, 0, 1]}, 4, "option.invalid"),       # teams are 1 and 2
    ({**TEAM, "teams": [1, 3, 1, 3]}, 4, "option.invalid"),
    ({"mode": "competitive", "teams": [1, 2, 1, 2]}, 4, "teams.invalid"),
    ({**TEAM, "teams": [1, 1, 2, 2]}, 3, "players.invalid"),
])
def test_a_bad_split_is_refused_with_a_code_before_any_state(
        options: dict[str, Any], players: int, code: str) -> None:
    with pytest.raises(OptionError) as refused:
        GAME.check_players(players, options)
    assert refused.value.code == code
    with pytest.raises(OptionError) as again:
        GAME.new_state(options, players, seed=1)
    assert again.value.code == code


def test_the_option_is_listed_with_its_kind_and_range() -> None:
    listed = {option["name"]: option for option in GAME.options_schema.to_json()}
    assert listed["teams"]["kind"] == "int_list"
    assert (listed["teams"]["minimum"], listed["teams"]["maximum"]) == (1, 2)
    assert listed["teams"]["default"] == ()


# Scenario tables on teams 1, 1, 2, 2 (seats 0 and 1 against seats 2 and 3):
# (time, seat, action, ref) steps -> the last event and each side's sets.
SPLIT = {**TEAM, "teams": [1, 1, 2, 2]}


@pytest.mark.parametrize(("steps", "last", "sets"), [
    # Neighbours in one team take a pair together.
    ([(10, 0, "touch", "c0"), (60, 1, "touch", "c1")], "taken", [[2], []]),
    ([(10, 3, "touch", "c1"), (60, 2, "touch", "c0")], "taken", [[], [2]]),
    # Seats 0 and 2 would be partners by default; here they are opponents: a tie.
    ([(10, 0, "touch", "c0"), (60, 2, "touch", "c1")], "tie", [[], []]),
    ([(10, 1, "touch", "c0"), (60, 3, "touch", "c1")], "tie", [[], []]),
    # One player with both hands is an error.
    ([(10, 2, "touch", "c0"), (60, 2, "touch", "c1")], "error", [[], []]),
    # A teammate's pile top makes the pair with a centre card.
    ([(10, 1, "touch", "p0"), (60, 0, "touch", "c0")], "taken", [[2], []]),
])
def test_a_take_needs_two_members_of_the_same_team(
        steps: list[tuple[Any, ...]], last: str, sets: list[list[int]]) -> None:
    uses_pile = any(step[3] == "p0" for step in steps)
    state = build(4, options=SPLIT, centre=[A, B] if uses_pile else [A, A, B],
                  piles={0: [C, A] if uses_pile else [C], 1: [D], 2: [E], 3: [F]}, turn=3)
    events = run(state, steps)
    assert events[-1].kind == last
    assert sides_sets(state) == sets
    if last == "taken":
        assert events[-1].data["side"] == state.side_of[steps[-1][1]]


def test_the_larger_team_may_not_claim_its_taboo_pictures_and_the_smaller_may() -> None:
    options = {**TEAM, "teams": [1, 1, 1, 1, 2, 2]}
    state = build(6, options=options, centre=[A, A, B, B],
                  piles={seat: [C + seat] for seat in range(6)}, taboo={0: [A, E, G]})
    assert run(state, [(10, 1, "touch", "c0")])[-1].data["reason"] == "taboo"
    events = run(state, [(100, 4, "touch", "c0"), (150, 5, "touch", "c1")])
    assert events[-1].kind == "taken" and sides_sets(state) == [[], [2]]
    events = run(state, [(200, 0, "touch", "c2"), (250, 3, "touch", "c3")])
    assert events[-1].kind == "taken" and sides_sets(state) == [[2], [2]]


def test_the_first_team_to_the_target_wins_for_every_member() -> None:
    options = {**TEAM, "teams": [2, 2, 1, 1], "sets_to_win": 2}
    state = build(4, options=options, centre=[A, A, B], sets={1: [[F, F]]},
                  piles={0: [C], 1: [D], 2: [E], 3: [G]})
    events = run(state, [(10, 1, "touch", "c0"), (60, 0, "touch", "c1")])
    assert events[-1].kind == "game_over"
    assert GAME.outcome(state) is not None
    assert state.winners == frozenset({0, 1})
    assert GAME.outcome(state).scores == (2, 2, 0, 0)  # type: ignore[union-attr]


@pytest.mark.parametrize("teams", [[1, 1, 1, 1, 2, 2], [1, 2, 2, 1, 2, 1]])
def test_bots_play_a_split_to_the_end(teams: list[int]) -> None:
    options = {**TEAM, "teams": teams, "sets_to_win": 3}
    result = play_game(GAME, options, make_bots(ENTRY, ["expert"] * 6), 5)
    sides = [team - 1 for team in teams]
    won = {sides[seat] for seat in result.winners}
    assert len(won) == 1
    assert set(result.winners) == {seat for seat in range(6) if sides[seat] in won}
    assert result.stats["takes"] > 0


def test_the_server_refuses_a_bad_split_when_the_table_is_created(tmp_path: Path) -> None:
    from tests.server.client import app_client

    url = f"sqlite+aiosqlite:///{tmp_path / 'teams.sqlite3'}"
    body: dict[str, Any] = {"game": "twinit", "players": 4, "display_name": "Ann",
                            "options": {"mode": "team", "teams": [1, 2, 2, 2]}}
    with app_client(url) as client:
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 422 and refused.json()["code"] == "teams.invalid"
        body["options"]["teams"] = [1, 2, 2, 1]
        created = client.post("/api/tables", json=body)
        assert created.status_code == 201, created.json()
        assert created.json()["table"]["options"]["teams"] == [1, 2, 2, 1]
