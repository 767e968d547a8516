"""Twinz rulings (RULES.md §4) as scripted timelines."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.twinz.scenario import GAME, TIMELINE, act, new, tick
from twintable.core.errors import RuleError
from twintable.core.types import Event
from twintable.games.twinz import TwinzState
from twintable.games.twinz.decks import load_decks
from twintable.games.twinz.rules import PILE_SIZE

COUNTDOWN = 5000
GRACE = 1500


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def clues(state: TwinzState, first: str = "bateau", second: str = "ciel", t: int = 1000
          ) -> list[Event]:
    a, b = state.duo
    return act(state, t, a, "clue", word=first) + act(state, t + 10, b, "clue", word=second)


def test_set_up_pile_points_duo_and_the_mystery_line() -> None:
    for players, size in PILE_SIZE.items():
        state = GAME.new_state(None, players, seed=1)
        assert len(state.pile) == size - 1  # the first card is in play
        assert state.points == [3] * players and state.duo == (0, 1)
    state = new()
    deck = load_decks()["yellow"]
    assert state.line == deck[state.pile[-1]].back
    word = GAME.mystery(state)
    assert word == deck[state.card].lines[state.line - 1][state.orientation]


def test_only_the_duo_sees_the_mystery_word() -> None:
    state = new()
    word = GAME.mystery(state)
    assert GAME.view(state, 0).mystery == word and GAME.view(state, 1).mystery == word
    for viewer in (2, 3, 4, None):
        view = GAME.view(state, viewer).to_json()
        assert view["mystery"] is None and word not in str(view)


def test_clues_stay_secret_until_both_are_revealed_together() -> None:
    state = new()
    act(state, 1000, 0, "clue", word="bateau")
    assert GAME.view(state, 0).my_clue == "bateau"
    for viewer in (1, 2, None):
        assert "bateau" not in str(GAME.view(state, viewer).to_json())
    assert GAME.view(state, 2).clue_given == (True, False)
    events = act(state, 1200, 1, "clue", word="ciel")
    assert "clues_revealed" in kinds(events)
    assert GAME.view(state, 3).clues == ("bateau", "ciel")
    assert state.phase == "guesses"


@pytest.mark.parametrize(("seat", "word", "code"), [
    (0, "", "clue.empty"), (0, "   ", "clue.empty"), (0, "deux mots", "clue.not_one_word"),
    (0, "x" * 31, "clue.too_long"), (0, "a2b", "clue.not_one_word"), (2, "bateau", "clue.not_duo"),
    (0, None, "clue.empty"),
])
def test_bad_clues_are_refused_and_change_nothing(seat: int, word: Any, code: str) -> None:
    state = new()
    before = GAME.snapshot(state)
    with pytest.raises(RuleError) as refused:
        act(state, 1000, seat, "clue", word=word)
    assert refused.value.code == code
    assert GAME.snapshot(state) == before


def test_a_word_with_an_apostrophe_or_hyphen_is_one_word() -> None:
    state = new()
    act(state, 1000, 0, "clue", word="arc-en-ciel")
    act(state, 1010, 1, "clue", word="aujourd'hui")
    assert state.revealed == {0: "arc-en-ciel", 1: "aujourd'hui"}


def test_a_second_clue_in_one_attempt_is_refused() -> None:
    state = new()
    act(state, 1000, 0, "clue", word="bateau")
    with pytest.raises(RuleError) as refused:
        act(state, 1100, 0, "clue", word="ciel")
    assert refused.value.code == "clue.already_given"


def test_late_and_missing_clues_cost_a_point_each() -> None:
    state = new()
    act(state, COUNTDOWN + GRACE + 200, 0, "clue", word="bateau")  # late but in
    events = tick(state, COUNTDOWN + 2 * GRACE)  # the partner never answers
    revealed = next(e for e in events if e.kind == "clues_revealed").data
    assert revealed["penalties"] == {"0": ["late"], "1": ["missing"]}
    assert state.points[:2] == [2, 2]


def test_the_same_clue_costs_both_two_points_and_the_floor_is_zero() -> None:
    state = new()
    state.points[0] = 1
    clues(state, "Bateau", "bateau")
    assert state.points[:2] == [0, 1]


def test_the_mystery_word_or_its_root_ends_the_duo_turn() -> None:
    state = new()
    word = GAME.mystery(state)
    events = clues(state, word.upper(), "ciel")
    assert "round_over" in kinds(events)
    over = next(e for e in events if e.kind == "round_over").data
    assert over["reason"] == "mystery_word" and over["word"] == word
    assert state.points[:2] == [2, 3] and state.duo == (1, 2)


def test_a_clue_used_earlier_in_the_game_costs_a_point() -> None:
    state = new()
    clues(state, "bateau", "ciel")
    for seat in (2, 3, 4):
        act(state, 3000 + seat, seat, "guess", word="zzz")
    # Everyone was wrong: a second attempt, where a repeated word is a reused clue.
    assert state.attempt == 2 and state.phase == "clues"
    events = clues(state, "ciel", "vent", t=4000)
    revealed = next(e for e in events if e.kind == "clues_revealed").data
    assert revealed["penalties"]["0"] == ["reused"]


def test_a_right_guess_wins_the_card_and_the_duo_a_point_each() -> None:
    state = new()
    clues(state)
    word = GAME.mystery(state)
    events = act(state, 3000, 3, "guess", word=word.upper())
    # Inside the tie window the others hear only that a guess came in (RULES.md §4).
    assert events[0].data == {"seat": 3, "word": None, "right": None}
    assert GAME.deadline(state) == 3000 + 300  # the tie window
    events = tick(state, 3300)
    assert next(e for e in events if e.kind == "guesses_revealed").data["guesses"] == [
        {"seat": 3, "word": word.upper(), "right": True}]
    assert next(e for e in events if e.kind == "round_over").data["winners"] == [3]
    assert state.cards_won[3] == 1 and state.points[:2] == [4, 4] and state.points[3] == 3


def test_right_guesses_within_tie_ms_share_points_and_the_card_is_discarded() -> None:
    state = new()
    clues(state)
    word = GAME.mystery(state)
    act(state, 3000, 3, "guess", word=word)
    act(state, 3200, 4, "guess", word=word)
    with pytest.raises(RuleError) as refused:
        act(state, 3400, 2, "guess", word=word)  # after the window: the timer runs first
    # The tie window closed at 3300, so the round is over and a new one is being drawn.
    assert refused.value.code == "guess.not_now"
    tick(state, 3300)
    assert state.cards_won == [0] * 5
    assert state.points[3] == 4 and state.points[4] == 4


def test_accents_case_and_plurals_fold() -> None:
    state = new()
    clues(state)
    word = GAME.mystery(state)
    assert GAME._matches(state, word.upper() + "S")
    state.options = {**state.options, "accept_plural": False}
    assert not GAME._matches(state, word + "s")


@pytest.mark.parametrize(("seat", "payload", "code"), [
    (0, {"word": "x"}, "guess.from_duo"), (2, {"word": ""}, "guess.empty"),
    (2, {"word": "a b"}, "guess.not_one_word"),
])
def test_bad_guesses_are_refused(seat: int, payload: dict[str, Any], code: str) -> None:
    state = new()
    clues(state)
    before = GAME.snapshot(state)
    with pytest.raises(RuleError) as refused:
        act(state, 3000, seat, "guess", **payload)
    assert refused.value.code == code
    assert GAME.snapshot(state) == before


def test_one_guess_per_attempt_and_no_guess_before_the_clues() -> None:
    state = new()
    with pytest.raises(RuleError) as refused:
        act(state, 500, 2, "guess", word="mer")
    assert refused.value.code == "guess.not_now"
    clues(state)
    act(state, 3000, 2, "guess", word="zzz")
    with pytest.raises(RuleError) as refused:
        act(state, 3100, 2, "guess", word="yyy")
    assert refused.value.code == "guess.already"


def test_two_failed_attempts_cost_the_duo_a_point_each() -> None:
    state = new()
    clues(state)
    tick(state, 1010 + 30_000)  # guess timeout: second attempt
    assert state.attempt == 2
    clues(state, "vent", "soleil", t=32_000)
    events = tick(state, 32_010 + 30_000)
    assert next(e for e in events if e.kind == "round_over").data["reason"] == "timeout"
    assert state.points[:2] == [2, 2] and state.duo == (1, 2)


def test_an_upheld_contest_treats_the_clue_as_the_mystery_word() -> None:
    state = new()
    clues(state)
    act(state, 2000, 2, "contest", member=0)
    events = act(state, 2100, 3, "vote", uphold=True)
    assert "contest_upheld" in kinds(events) and "round_over" in kinds(events)
    assert state.points[0] == 2 and state.duo == (1, 2)


def test_a_dismissed_contest_lets_the_guessing_go_on() -> None:
    state = new()
    clues(state)
    act(state, 2000, 2, "contest", member=1)
    act(state, 2100, 3, "vote", uphold=False)
    events = act(state, 2200, 4, "vote", uphold=False)
    assert "contest_dismissed" in kinds(events)
    assert state.phase == "guesses" and state.points[1] == 3
    with pytest.raises(RuleError) as refused:
        act(state, 2300, 0, "contest", member=1)
    assert refused.value.code == "contest.from_duo"


def test_the_game_ends_with_one_card_left_and_cards_are_worth_two() -> None:
    state = new(4)
    rounds = 0
    t = 0
    while not GAME.is_over(state):
        letter = chr(97 + rounds % 26) + chr(97 + rounds // 26)
        if state.phase == "draw":
            act(state, t + 500, state.duo[1], "draw")
            t += 500
        clues(state, f"indice{letter}", f"autre{letter}", t=t + 1000)
        rounds += 1
        if state.phase != "guesses":
            t += 1010  # a clue hit the mystery word's root: the next round has begun
            continue
        guesser = next(s for s in range(4) if s not in state.duo)
        act(state, t + 1100, guesser, "guess", word=GAME.mystery(state))
        tick(state, t + 1400)
        t += 1400
    assert rounds == PILE_SIZE[4] - 1
    assert len(state.pile) == 1
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == tuple(p + 2 * c for p, c in zip(state.points, state.cards_won,
                                                                strict=True))
    with pytest.raises(RuleError) as refused:
        act(state, t + 5000, 0, "clue", word="encore")
    assert refused.value.code == "game.over"


def test_a_tie_on_points_goes_to_the_player_with_more_cards() -> None:
    state = new(4)
    state.phase = "over"
    state.points = [5, 7, 3, 3]
    state.cards_won = [1, 0, 0, 0]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (7, 7, 3, 3) and outcome.winners == {0}


def test_the_countdown_starts_when_the_duo_draws_the_card() -> None:
    state = GAME.new_state({"read_ms": 0}, 4, seed=2)
    assert state.phase == "draw" and GAME.deadline(state) is None
    assert GAME.view(state, 0).mystery is None  # not seen before it is drawn
    with pytest.raises(RuleError) as refused:
        act(state, 100, 2, "draw")
    assert refused.value.code == "draw.not_duo"
    events = act(state, 7000, 1, "draw")
    assert state.countdown_ends == 12_000 and GAME.deadline(state) == 12_000 + 2 * GRACE
    mystery = next(e for e in events if e.kind == "mystery")
    assert mystery.audience == {0, 1}


def test_the_countdown_starts_after_the_reading_time() -> None:
    # RULES.md §4: the duo reads the word for read_ms (default 1.5 s) before the 5 s run.
    state = GAME.new_state(None, 4, seed=2)
    act(state, 7000, 1, "draw")
    assert GAME.view(state, 0).mystery  # on the duo's screens from the draw
    assert state.countdown_ends == 7000 + 1500 + COUNTDOWN
    assert GAME.deadline(state) == state.countdown_ends + 2 * GRACE
    # A clue while reading is on time; one up to the countdown's end plus grace too.
    act(state, 7500, 0, "clue", word="bateau")
    events = act(state, 7000 + 1500 + COUNTDOWN + GRACE, 1, "clue", word="ciel")
    revealed = next(e for e in events if e.kind == "clues_revealed").data
    assert revealed["penalties"] == {"0": [], "1": []}


def end_first_round(state: TwinzState, t: int) -> list[Event]:
    """The duo's first clue is the mystery word: the round ends at ``t``."""
    a, b = state.duo
    act(state, t - 10, a, "clue", word=GAME.mystery(state))
    return act(state, t, b, "clue", word="ciel")


def test_nobody_takes_the_next_card_before_the_result_pause() -> None:
    # RULES.md §4: the last result stays on screen result_pause_ms (default 3 s); the
    # engine holds the card, so a bot partner cannot take it sooner either.
    state = GAME.new_state({"read_ms": 0}, 4, seed=2)
    act(state, 0, 0, "draw")
    events = end_first_round(state, 2000)
    started = next(e for e in events if e.kind == "round_started").data
    assert started["pause_until"] == 5000 and state.duo == (1, 2)
    assert GAME.legal_actions(state, 1) == [] and GAME.to_act(state) == frozenset()
    assert GAME.view(state, 1).pause_until == 5000 and GAME.deadline(state) == 5000
    before = GAME.snapshot(state)
    with pytest.raises(RuleError) as refused:
        act(state, 4999, 1, "draw")
    assert refused.value.code == "draw.too_soon" and refused.value.details == {"until_ms": 5000}
    assert GAME.snapshot(state) == before
    with pytest.raises(RuleError):
        tick(state, 4999)
    assert kinds(tick(state, 5000)) == ["card_ready"]
    assert GAME.view(state, 1).pause_until is None
    assert [a.kind for a in GAME.legal_actions(state, 2)] == ["draw"]
    assert "countdown" in kinds(act(state, 5200, 2, "draw"))


def test_a_draw_after_the_pause_needs_no_tick_first() -> None:
    # The table may not have fired the pause's timer yet: the draw runs it first.
    state = GAME.new_state({"read_ms": 0, "result_pause_ms": 1000}, 4, seed=2)
    act(state, 0, 0, "draw")
    end_first_round(state, 2000)
    events = act(state, 3000, 1, "draw")
    assert kinds(events)[:2] == ["card_ready", "countdown"]
    assert state.countdown_ends == 3000 + COUNTDOWN


def test_no_pause_before_the_first_card_nor_when_the_option_is_zero() -> None:
    state = GAME.new_state(None, 4, seed=2)
    assert state.pause_until is None and GAME.deadline(state) is None
    state = GAME.new_state(TIMELINE, 4, seed=2)
    act(state, 0, 0, "draw")
    end_first_round(state, 2000)
    assert state.pause_until is None and GAME.legal_actions(state, 1)


def test_a_contest_still_open_when_the_round_ends_ends_with_it() -> None:
    # Seen at a table: "Votes: 1 of 2" stayed on screen into the next round.
    state = new()
    clues(state)
    act(state, 2000, 2, "contest", member=0)
    assert GAME.view(state, 3).contest == 0
    act(state, 2100, 3, "guess", word=GAME.mystery(state))
    tick(state, 2100 + 300)  # the tie window closes: the round is won
    assert state.round_no == 2 and state.phase == "draw"
    for viewer in (None, 0, 1, 2, 3, 4):
        view = GAME.view(state, viewer)
        assert view.contest is None and view.votes == 0


def _without_accents(word: str) -> str:
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", word.replace("œ", "oe"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def test_the_mystery_word_with_its_accents_folded_is_the_mystery_word() -> None:
    # RULES.md §4, turn 4: FORET for FORÊT, DE for DÉ, COEUR for CŒUR: -1, the duo stops.
    state = new()
    word = GAME.mystery(state)
    events = clues(state, "ciel", _without_accents(word).upper())
    revealed = next(e for e in events if e.kind == "clues_revealed").data
    assert revealed["penalties"]["1"] == ["mystery_root"]
    assert revealed["refused"] == {"1": {"clue": _without_accents(word).upper(),
                                         "reason": "same_word", "word": word}}
    assert next(e for e in events if e.kind == "round_over").data["reason"] == "mystery_word"


def test_a_refused_clue_says_which_and_why_and_the_recap_stays_until_the_next_card() -> None:
    state = new(result_pause_ms=3000)
    word = GAME.mystery(state)
    events = clues(state, "ciel", word + "s")
    revealed = next(e for e in events if e.kind == "clues_revealed").data
    assert revealed["refused"]["1"] == {"clue": word + "s", "reason": "inflection",
                                        "word": word}
    for viewer in (None, 0, 2):
        recap = GAME.view(state, viewer).to_json()["recap"]
        assert recap["word"] == word and recap["result"] == "mystery_word"
        assert recap["attempts"] == [{"attempt": 1, "clues": [[0, "ciel"], [1, word + "s"]],
                                      "penalties": {"0": [], "1": ["mystery_root"]},
                                      "refused": revealed["refused"], "guesses": []}]
    tick(state, 1010 + 3000)
    assert GAME.view(state, 4).recap is not None  # still on the board while nobody draws
    act(state, 5000, state.duo[0], "draw")
    assert GAME.view(state, 4).recap is None


def test_the_recap_lists_every_guess_with_its_guesser_over_both_attempts() -> None:
    state = new()
    clues(state, "bateau", "ciel")
    act(state, 2000, 3, "guess", word="mer")
    act(state, 2100, 2, "guess", word="port")
    act(state, 2200, 4, "guess", word="voile")
    clues(state, "vent", "nuage", t=3000)
    word = GAME.mystery(state)
    act(state, 4000, 4, "guess", word="orage")
    act(state, 4100, 2, "guess", word=word)
    tick(state, 4400)
    recap = GAME.view(state, 0).recap
    assert recap is not None and recap["winners"] == [2] and recap["result"] == "found"
    assert [a["guesses"] for a in recap["attempts"]] == [
        [[3, "mer"], [2, "port"], [4, "voile"]], [[4, "orage"], [2, word]]]
    assert [a["clues"] for a in recap["attempts"]] == [[[0, "bateau"], [1, "ciel"]],
                                                        [[0, "vent"], [1, "nuage"]]]
