"""Twin It rulings (RULES.md §3) as scripted timelines: (time, seat, action) -> events."""

from __future__ import annotations

import pytest

from twintable.core.errors import RuleError
from twintable.games.twinit.deck import DECK

from .scenario import (
    GAME,
    act,
    build,
    kinds,
    other_face,
    picture_of_set,
    run,
    sides_sets,
    tick,
)

A, B, C, D, E = 0, 10, 20, 30, 40  # five pictures from five different families


def test_two_hands_on_twins_take_them_and_the_taker_flips_next() -> None:
    state = build(3, centre=[A, B, A], piles={0: [C], 1: [D], 2: [E]}, turn=0)
    events = run(state, [(100, 2, "touch", "c0"), (180, 2, "touch", "c2")])
    assert kinds(events) == ["touched", "touched", "taken"]
    assert events[-1].data["cards"] == ["c0", "c2"] and events[-1].data["size"] == 2
    assert sides_sets(state) == [[], [], [2]]
    assert state.centre[0] == state.centre[2] == -1
    assert state.turn == 2  # the taker flips next
    assert GAME.legal_actions(state, 0)[0].kind == "touch"  # seat 0 no longer flips


def test_flip_turns_the_top_card_over_into_the_centre_and_passes_clockwise() -> None:
    state = build(3, centre=[A], piles={0: [B, C], 1: [], 2: [D]}, turn=0)
    top = state.piles[0][-1]
    hidden = other_face(state, top)
    events = act(state, 50, 0, "flip")
    assert events[0].data == {"seat": 0, "card": "c1", "picture": hidden, "turn": 2}
    assert state.centre[1] == top and state.picture(top) == hidden
    assert state.turn == 2  # seat 1 has no cards and is skipped
    with pytest.raises(RuleError) as refused:
        act(state, 60, 0, "flip")
    assert refused.value.code == "turn.not_yours"


def test_a_set_claimed_with_a_matching_card_is_stolen_as_a_set_of_three() -> None:
    state = build(2, centre=[A, B], piles={0: [C], 1: [D]}, sets={1: [[A, A]]})
    events = run(state, [(10, 0, "touch", "s1.0"), (90, 0, "touch", "c0")])
    taken = events[-1]
    assert taken.kind == "taken" and taken.data["stolen_from"] == 1
    assert taken.data["size"] == 3
    assert sides_sets(state) == [[3], []]
    assert state.tally["steals"] == 1


def test_taking_a_pile_top_exposes_the_next_card_for_a_chain_reaction() -> None:
    state = build(2, centre=[A, B], piles={0: [C], 1: [B, A]}, turn=0)
    run(state, [(10, 0, "touch", "p1"), (60, 0, "touch", "c0")])
    assert GAME.view(state, 0).public.piles[1] == (1, B)  # the next card shows B
    run(state, [(300, 0, "touch", "p1"), (360, 0, "touch", "c1")])
    assert sides_sets(state) == [[2, 2], []]
    assert state.piles[1] == []


def test_a_triple_gives_two_to_the_taker_and_flips_the_third() -> None:
    state = build(3, centre=[A, A, B], piles={0: [C], 1: [D], 2: [E, A]}, turn=0)
    third = state.piles[2][-1]
    assert state.triple_due == {}  # armed only once something changes
    events = run(state, [(10, 1, "touch", "c0"), (60, 1, "touch", "c1")])
    assert kinds(events)[-2:] == ["taken", "third_flipped"]
    # The third was a pile top: it goes to the centre, turned over.
    landed = events[-1].data["cards"][0]
    assert state.centre[int(landed[1:])] == third
    assert state.picture(third) == DECK[third][1 - DECK[third].index(A)]
    assert state.piles[2] and state.picture(state.piles[2][-1]) == E


def test_three_identical_pictures_left_alone_all_turn_over() -> None:
    state = build(2, centre=[A, A, B], piles={0: [A], 1: [D]}, turn=1)
    act(state, 100, 1, "touch", "c2")  # a lone hand: the table changed
    due = state.triple_due[A]
    assert due == 100 + 5000
    assert GAME.deadline(state) == 100 + 1500  # the hand lifts first
    assert kinds(tick(state, 1600)) == ["lifted"]
    events = tick(state, due)
    assert kinds(events) == ["triple_flipped"]
    assert len(events[0].data["cards"]) == 3
    assert all(picture != A for _, picture in GAME.view(state, None).public.visible)


def test_one_hand_each_on_a_pair_is_a_tie_that_flips_both_but_never_a_set() -> None:
    state = build(2, centre=[A, B], piles={0: [C], 1: [D]}, sets={0: [[B, B]]})
    events = run(state, [(10, 0, "touch", "c1"), (20, 1, "touch", "s0.0")])
    assert kinds(events) == ["touched", "touched", "tie"]
    assert events[-1].data["flipped"] == ["c1"]
    assert state.picture(state.centre[1]) != B
    assert sides_sets(state) == [[2], []] and not state.hands


def test_a_tied_pile_top_goes_to_the_centre() -> None:
    state = build(2, centre=[A], piles={0: [C], 1: [D, A]}, turn=0)
    top = state.piles[1][-1]
    events = run(state, [(10, 0, "touch", "c0"), (20, 1, "touch", "p1")])
    assert events[-1].kind == "tie"
    assert top in state.centre and state.piles[1][-1] != top


def test_no_tie_while_a_third_identical_card_is_free() -> None:
    state = build(3, centre=[A, A, A], piles={0: [C], 1: [D], 2: [E]})
    events = run(state, [(10, 0, "touch", "c0"), (20, 1, "touch", "c1")])
    assert "tie" not in kinds(events)
    events = act(state, 30, 0, "touch", "c2")
    assert kinds(events) == ["touched", "taken", "third_flipped"]
    assert events[1].data["seat"] == 0 and events[2].data["cards"] == ["c1"]
    assert not state.hands  # seat 1's hand came off the card that turned over


def test_the_first_hand_on_a_card_owns_it() -> None:
    state = build(2, centre=[A, A], piles={0: [C], 1: [D]})
    act(state, 10, 0, "touch", "c0")
    with pytest.raises(RuleError) as refused:
        act(state, 11, 1, "touch", "c0")
    assert refused.value.code == "card.covered"
    assert state.hands["c0"].seat == 0


def test_two_different_pictures_are_an_error_that_puts_a_set_under_the_pile() -> None:
    state = build(2, centre=[A, B], piles={0: [C], 1: [D]}, sets={0: [[E, E], [D, D]]})
    bottom_before = state.piles[0][0]
    events = run(state, [(10, 0, "touch", "c0"), (40, 0, "touch", "c1")])
    assert events[-1].kind == "error" and events[-1].data["reason"] == "different"
    assert events[-1].data["lost_set_picture"] == D
    assert sides_sets(state) == [[2], []]
    assert len(state.piles[0]) == 3 and state.piles[0][2] == bottom_before
    assert not state.hands


def test_an_error_without_sets_costs_nothing() -> None:
    state = build(2, centre=[A, B], piles={0: [C], 1: [D]})
    events = run(state, [(10, 0, "touch", "c0"), (40, 0, "touch", "c1")])
    assert events[-1].data["lost_set_picture"] is None
    assert [len(p) for p in state.piles] == [1, 1]


def test_fr_lets_you_use_your_own_pile_top_but_ko_makes_it_an_error() -> None:
    state = build(2, centre=[A], piles={0: [A], 1: [D]})
    events = run(state, [(10, 0, "touch", "p0"), (40, 0, "touch", "c0")])
    assert events[-1].kind == "taken"
    state = build(2, options={"edition": "ko"}, centre=[A], piles={0: [A], 1: [D]},
                  sets={0: [[B, B]]})
    events = act(state, 10, 0, "touch", "c0")
    assert events[-1].kind == "error" and events[-1].data["reason"] == "own_pile"
    assert sides_sets(state) == [[], []]


def test_taboo_pictures_are_an_error_for_their_owner_and_free_for_others() -> None:
    state = build(2, options={"taboo": [0]}, centre=[A, B], piles={0: [C], 1: [D]},
                  taboo={0: [A, E, 35]})
    events = act(state, 10, 0, "touch", "c0")
    assert events[-1].data["reason"] == "taboo"
    events = run(state, [(100, 1, "touch", "t0.0"), (150, 1, "touch", "c0")])
    assert events[-1].kind == "taken"
    assert [state.picture(card) for card in state.taboo[0]] == [E, 35]  # freed from A


def test_taboo_option_deals_three_different_pictures_beside_the_pile() -> None:
    state = GAME.new_state({"taboo": [1]}, 3, seed=5)
    assert state.taboo[0] == [] and len(state.taboo[1]) == 3
    assert len({state.picture(card) for card in state.taboo[1]}) == 3
    assert sum(map(len, state.piles)) == 135 - 3
    assert [len(p) for p in state.piles] == [44, 44, 44]


def test_deal_is_even_with_extras_from_the_first_player() -> None:
    state = GAME.new_state(None, 4, seed=1)
    assert [len(p) for p in state.piles] == [34, 34, 34, 33]


def test_a_hand_lifts_after_the_hold_time_even_when_the_clock_is_late() -> None:
    state = build(2, centre=[A, B, A], piles={0: [C], 1: [D]})
    act(state, 100, 0, "touch", "c0")
    assert GAME.deadline(state) == 1600
    # The server's timer has not fired yet: the late touch first lets it run.
    events = act(state, 1700, 1, "touch", "c0")
    assert kinds(events) == ["lifted", "touched"]
    assert state.hands["c0"].seat == 1


def test_a_refused_late_action_leaves_even_the_expired_timer_alone() -> None:
    state = build(2, centre=[A, B], piles={0: [C], 1: [D]})
    act(state, 100, 0, "touch", "c0")
    before = GAME.snapshot(state)
    with pytest.raises(RuleError):
        act(state, 5000, 1, "touch", "c9")
    assert GAME.snapshot(state) == before


def test_first_to_the_target_wins() -> None:
    state = build(2, options={"sets_to_win": 2}, centre=[A, A], piles={0: [C], 1: [D]},
                  sets={1: [[B, B]]})
    events = run(state, [(10, 1, "touch", "c0"), (20, 1, "touch", "c1")])
    assert events[-1].kind == "game_over"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {1} and outcome.scores == (0, 2)
    with pytest.raises(RuleError) as refused:
        act(state, 30, 0, "flip")
    assert refused.value.code == "game.over"


def test_ko_shared_finish_is_settled_by_sudden_death_between_the_finishers() -> None:
    options = {"edition": "ko", "sets_to_win": 2, "finish_window_ms": 300}
    state = build(3, options=options, centre=[A, A, B, B, C, C, D],
                  piles={0: [E], 1: [35], 2: [45]}, sets={0: [[50, 50]], 1: [[55, 55]]})
    events = run(state, [(10, 0, "touch", "c0"), (20, 0, "touch", "c1")])
    assert events[-1].kind == "finishing"
    events = run(state, [(100, 1, "touch", "c2"), (120, 1, "touch", "c3")])
    assert events[-1].kind == "finishing"
    events = tick(state, 320)
    assert events[-1].kind == "sudden_death" and state.contenders == {0, 1}
    with pytest.raises(RuleError) as refused:
        act(state, 400, 2, "touch", "c4")
    assert refused.value.code == "seat.out"
    assert GAME.legal_actions(state, 2) == []
    events = run(state, [(500, 1, "touch", "c4"), (520, 1, "touch", "c5")])
    assert events[-1].kind == "game_over" and events[-1].data["winners"] == [1]


def test_ko_single_finisher_wins_when_the_window_closes() -> None:
    state = build(2, options={"edition": "ko", "sets_to_win": 1}, centre=[A, A],
                  piles={0: [C], 1: [D]})
    run(state, [(10, 0, "touch", "c0"), (20, 0, "touch", "c1")])
    assert not GAME.is_over(state)
    assert tick(state, 320)[-1].kind == "game_over"
    assert state.winners == {0}


def test_a_stalled_table_ends_with_the_most_sets_winning() -> None:
    state = build(2, centre=[A, B], piles={0: [C], 1: []}, sets={1: [[D, D]]}, turn=0)
    events = act(state, 10, 0, "flip")
    assert events[-1].kind == "game_over" and events[-1].data["reason"] == "stalled"
    assert state.winners == {1}


# -- team play -------------------------------------------------------------------------
def test_two_team_members_one_hand_each_take_a_pair_for_their_team() -> None:
    state = build(4, options={"mode": "team"}, centre=[A, A, B],
                  piles={0: [C], 1: [D], 2: [E], 3: [35]})
    events = run(state, [(10, 0, "touch", "c0"), (300, 2, "touch", "c1")])
    assert events[-1].kind == "taken" and events[-1].data["side"] == 0
    assert sides_sets(state) == [[2], []]
    assert state.turn == 2  # the member who completed the take flips next


def test_one_team_player_touching_two_cards_is_an_error() -> None:
    state = build(4, options={"mode": "team"}, centre=[A, A], sets={0: [[B, B]]},
                  piles={0: [C], 1: [D], 2: [E], 3: [35]})
    events = run(state, [(10, 0, "touch", "c0"), (60, 0, "touch", "c1")])
    assert events[-1].kind == "error" and events[-1].data["reason"] == "both_hands"
    assert sides_sets(state) == [[], []]


def test_members_of_different_teams_on_a_pair_tie() -> None:
    state = build(4, options={"mode": "team"}, centre=[A, A],
                  piles={0: [C], 1: [D], 2: [E], 3: [35]})
    events = run(state, [(10, 0, "touch", "c0"), (60, 1, "touch", "c1")])
    assert events[-1].kind == "tie"


def test_the_larger_team_plays_under_taboo() -> None:
    state = GAME.new_state({"mode": "team"}, 5, seed=3)
    assert state.side_of == [0, 1, 0, 1, 0]
    assert len(state.taboo[0]) == 3 and state.taboo[1] == []
    assert len(GAME.new_state({"mode": "team"}, 4, seed=3).taboo[0]) == 0


# -- time attack -----------------------------------------------------------------------
def test_coop_spreads_the_deck_at_the_start_and_scores_pairs_and_triples() -> None:
    state = GAME.new_state({"mode": "coop", "duration_s": 60}, 2, seed=4)
    assert [a.kind for a in GAME.legal_actions(state, 0)] == ["start"]
    with pytest.raises(RuleError) as refused:
        act(state, 0, 0, "touch", "c0")
    assert refused.value.code == "round.not_started"
    events = act(state, 1000, 1, "start")
    assert events[0].kind == "round_started" and len(events[0].data["centre"]) == 135
    assert state.ends_ms == 61_000
    view = GAME.view(state, 0).public
    by_picture: dict[int, list[str]] = {}
    for ref, picture in view.visible:
        by_picture.setdefault(picture, []).append(ref)
    picture, refs = next((p, r) for p, r in by_picture.items() if len(r) == 3)
    # Two players of the cooperative side, one hand each, make a pair: 1 point.
    run(state, [(2000, 0, "touch", refs[0]), (2100, 1, "touch", refs[1])])
    assert GAME.view(state, 0).public.scores == (1,)
    # The third card onto the set makes a triple: 2 points.
    run(state, [(2500, 0, "touch", "s0.0"), (2600, 0, "touch", refs[2])])
    assert GAME.view(state, 0).public.scores == (2,)
    events = act(state, 3000, 0, "turn_over", "c5")
    assert events[0].kind == "turned_over"
    events = tick(state, 61_000)
    assert kinds(events)[-2:] == ["round_over", "game_over"]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {0, 1} and outcome.scores == (2, 2)
    assert GAME.stats(state)["points"] == 2


def test_level_table_matches_the_french_rulebook() -> None:
    from twintable.games.twinit.views import level_for

    assert level_for(4, 1) == "beginner" and level_for(5, 1) == "promising"
    assert level_for(9, 1) == "expert" and level_for(10, 1) == "genius"
    assert level_for(19, 4) == "beginner" and level_for(20, 4) == "promising"
    assert level_for(35, 4) == "expert" and level_for(36, 4) == "genius"
    assert level_for(53, 6) == "expert" and level_for(54, 6) == "genius"


def test_competitive_time_attack_forbids_steals_and_sums_rounds() -> None:
    state = GAME.new_state({"mode": "timeattack", "rounds": 2, "duration_s": 10}, 2, seed=9)
    act(state, 0, 0, "start")
    by_picture: dict[int, list[str]] = {}
    for ref, picture in GAME.view(state, 0).public.visible:
        by_picture.setdefault(picture, []).append(ref)
    pairs = [refs for refs in by_picture.values() if len(refs) >= 2]
    run(state, [(100, 0, "touch", pairs[0][0]), (150, 0, "touch", pairs[0][1])])
    assert all(a.payload.get("card") != "s0.0" for a in GAME.legal_actions(state, 1))
    with pytest.raises(RuleError) as refused:
        act(state, 200, 1, "touch", "s0.0")
    assert refused.value.code == "steal.forbidden"
    events = tick(state, 10_000)
    assert kinds(events) == ["round_over"] and state.phase == "ready"
    assert state.points == [1, 0] and len(state.box) == 135
    # Between rounds every view shows the round counted once (it was shown twice).
    assert [GAME.view(state, seat).public.scores for seat in (None, 0, 1)] == [(1, 0)] * 3
    act(state, 11_000, 1, "start")
    tick(state, 21_000)
    assert GAME.is_over(state) and state.winners == {0}


# -- bad input -------------------------------------------------------------------------
@pytest.mark.parametrize(("seat", "kind", "payload", "code"), [
    (0, "touch", {"card": "x1"}, "card.unknown"),
    (0, "touch", {"card": "c99"}, "card.not_visible"),
    (0, "touch", {}, "card.unknown"),
    (0, "touch", {"card": "s1"}, "card.unknown"),
    (0, "touch", {"card": "s0.0"}, "card.not_visible"),
    (0, "touch", {"card": "c0", "picture": 89}, "card.changed"),
    (1, "flip", {}, "turn.not_yours"),
    (0, "turn_over", {"card": "c0"}, "turn_over.not_allowed"),
    (0, "start", {}, "round.running"),
    (0, "tick", {}, "tick.system_only"),
    (7, "touch", {"card": "c0"}, "seat.invalid"),
    (0, "shout", {}, "action.unknown"),
])
def test_bad_input_is_refused_and_changes_nothing(seat: int, kind: str, payload: dict[str, str],
                                                  code: str) -> None:
    state = build(2, centre=[A, B], piles={0: [C], 1: [D]})
    before = GAME.snapshot(state)
    with pytest.raises(RuleError) as refused:
        act(state, 10, seat, kind, **payload)
    assert refused.value.code == code and refused.value.message
    assert GAME.snapshot(state) == before


def test_touching_faster_than_a_person_can_is_refused() -> None:
    state = build(2, centre=[A, B, C, D, E, 35, 45, 55, 65, 75], piles={0: [C], 1: [D]})
    for index in range(4):  # eight touches: four errors of two
        run(state, [(index * 100, 0, "touch", f"c{2 * index}"),
                    (index * 100 + 50, 0, "touch", f"c{2 * index + 1}")])
    before = GAME.snapshot(state)
    with pytest.raises(RuleError) as refused:
        act(state, 500, 0, "touch", "c8")
    assert refused.value.code == "touch.too_fast"
    assert GAME.snapshot(state) == before
    assert all(a.kind != "touch" for a in GAME.legal_actions(state, 0))
    act(state, 1100, 0, "touch", "c8")  # a second later it is fine again


def test_an_early_tick_is_refused() -> None:
    state = build(2, centre=[A, B], piles={0: [C], 1: [D]})
    act(state, 10, 0, "touch", "c0")
    with pytest.raises(RuleError) as refused:
        tick(state, 20)
    assert refused.value.code == "tick.early"


def test_picture_of_set_helper_and_views_hide_card_numbers() -> None:
    state = build(2, centre=[A], piles={0: [C, B], 1: [D]}, sets={0: [[E, E]]})
    assert picture_of_set(state, 0, 0) == E
    view = GAME.view(state, 1).to_json()
    assert view["piles"][0] == {"cards": 2, "top": B}
    assert view["sets"][0] == [{"picture": E, "cards": 2}]
    assert "up" not in view and "box" not in view
